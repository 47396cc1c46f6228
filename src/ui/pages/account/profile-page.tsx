import { useSelector } from '@xstate/react';
import { FormattedMessage, FormattedNumber } from 'react-intl';
import { useChild } from '../../app-context';
import { Card } from '../../components/card';
import { PlannedNotice } from '../../components/planned-notice';
import { RankTag } from '../../components/rank-tag';

/** The profile: who you are now; governor stats and bidding history arrive with later releases. */
export default function ProfilePage() {
  const user = useSelector(useChild('auth'), (s) => s.context.user);
  if (!user) return null;
  return (
    <div className="grid gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="menu.profile" />
      </h1>
      <Card>
        <div className="flex flex-wrap items-center gap-3">
          <span className="text-xl font-semibold">{user.username}</span>
          <RankTag rank={user.rank} />
        </div>
        <dl className="mt-4 grid gap-3 sm:grid-cols-3">
          <div>
            <dt className="text-xs text-muted-foreground">
              <FormattedMessage id="settings.playerid" />
            </dt>
            <dd className="font-medium" dir="ltr">{user.playerid}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">
              <FormattedMessage id="settings.balance" />
            </dt>
            <dd className="font-medium">
              <FormattedNumber value={user.balance} />
            </dd>
          </div>
        </dl>
      </Card>
      <PlannedNotice textId="profile.planned" />
    </div>
  );
}
