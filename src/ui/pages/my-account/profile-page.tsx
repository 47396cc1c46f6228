import { useSelector } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import { FormattedMessage, FormattedNumber } from 'react-intl';
import type { OwnGovernor } from '../../../protocol/scans-api';
import { useChild } from '../../app-context';
import { Card } from '../../components/card';
import { Spinner } from '../../components/loader';
import { QueryError } from '../../components/query-error';
import { RankTag } from '../../components/rank-tag';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/tabs';
import { BiddingHistory } from './bidding-history';
import { ProfileKvk } from './profile-kvk';
import { GovernorPicker, ProfileKills, ProfileOverview, useOwnGovernors } from './profile-stats';

/** The profile: who you are now, and tabs Overview, Kills distribution (the player's governor from the scans) and My Bidding History. */
export default function ProfilePage() {
  const user = useSelector(useChild('auth'), (s) => s.context.user);
  const governors = useOwnGovernors();
  // which of the account's governors the statistics show (the main one until another is picked)
  const [picked, setPicked] = useState<number | null>(null);
  if (!user) return null;
  const list = governors.data ?? [];
  const own = list.find((g) => g.governorId === picked) ?? list[0] ?? null;
  const stats = (view: (own: OwnGovernor | null) => ReactNode) =>
    governors.isPending ? <Spinner /> : governors.error ? <QueryError error={governors.error} /> : view(own);
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="menu.profile" />
      </h1>
      <Card>
        <div className="flex flex-wrap items-center gap-3">
          <bdi className="min-w-0 text-xl font-semibold wrap-anywhere">
            {user.username}
          </bdi>
          <RankTag rank={user.rank} />
        </div>
        <dl className="mt-4 grid gap-3 sm:grid-cols-3">
          <div>
            <dt className="text-xs text-muted-foreground">
              <FormattedMessage id="settings.playerid" />
            </dt>
            <dd className="font-medium">
              {/* an id reads left to right, but sits where the reading direction puts it, under its label */}
              <bdi dir="ltr">{user.playerid}</bdi>
            </dd>
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
      <ProfileKvk />
      <GovernorPicker governors={list} value={own?.governorId ?? null} onChange={setPicked} />
      <Tabs defaultValue="overview">
        <TabsList>
          <TabsTrigger value="overview">
            <FormattedMessage id="profile.tab.overview" />
          </TabsTrigger>
          <TabsTrigger value="kills">
            <FormattedMessage id="profile.tab.kills" />
          </TabsTrigger>
          <TabsTrigger value="history">
            <FormattedMessage id="profile.tab.history" />
          </TabsTrigger>
        </TabsList>
        <TabsContent value="overview">{stats((g) => <ProfileOverview own={g} />)}</TabsContent>
        <TabsContent value="kills">{stats((g) => <ProfileKills own={g} />)}</TabsContent>
        <TabsContent value="history">
          <Card>
            <BiddingHistory />
          </Card>
        </TabsContent>
      </Tabs>
    </div>
  );
}
