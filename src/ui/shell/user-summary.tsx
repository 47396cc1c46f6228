import { useSelector } from '@xstate/react';
import { FormattedMessage, FormattedNumber } from 'react-intl';
import { useChild } from '../app-context';
import { RankTag } from '../components/rank-tag';

/** The sidebar's head: the user's name with the rank tag, and the kingdom points balance. */
export function UserSummary() {
  const user = useSelector(useChild('auth'), (s) => s.context.user);
  if (!user) return null;
  return (
    <div className="border-b border-border px-5 py-4">
      <div className="flex flex-wrap items-center gap-2">
        {/* the name's own direction: a Latin name cut short on an Arabic page loses its end, not its start */}
        <span dir="auto" className="min-w-0 max-w-full truncate font-semibold rtl:text-right">
          {user.username}
        </span>
        <RankTag rank={user.rank} />
      </div>
      <div className="mt-1 text-sm text-muted-foreground">
        <FormattedMessage id="app.kingdomPoints" values={{ balance: <FormattedNumber value={user.balance} /> }} />
      </div>
      {user.reserved > 0 && (
        <div className="text-xs text-muted-foreground">
          <FormattedMessage id="app.reserved" values={{ reserved: <FormattedNumber value={user.reserved} /> }} />
        </div>
      )}
    </div>
  );
}
