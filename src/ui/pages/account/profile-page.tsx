import { useSelector } from '@xstate/react';
import { FormattedMessage, FormattedNumber } from 'react-intl';
import { useChild } from '../../app-context';
import { Card } from '../../components/card';
import { RankTag } from '../../components/rank-tag';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/tabs';
import { BiddingHistory } from './bidding-history';
import { ProfileKvk } from './profile-kvk';
import { ProfileKills, ProfileOverview } from './profile-stats';

/** The profile: who you are now, and tabs Overview, Kills distribution (the player's governor from the scans) and My Bidding History. */
export default function ProfilePage() {
  const user = useSelector(useChild('auth'), (s) => s.context.user);
  if (!user) return null;
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="menu.profile" />
      </h1>
      <Card>
        <div className="flex flex-wrap items-center gap-3">
          <bdi className="min-w-0 text-xl font-semibold wrap-anywhere" data-testid="profile-username">
            {user.username}
          </bdi>
          <RankTag rank={user.rank} />
        </div>
        <dl className="mt-4 grid gap-3 sm:grid-cols-3">
          <div>
            <dt className="text-xs text-muted-foreground">
              <FormattedMessage id="settings.playerid" />
            </dt>
            <dd className="font-medium" data-testid="profile-playerid">
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
      <Tabs defaultValue="overview">
        <TabsList>
          <TabsTrigger value="overview" data-testid="tab-overview">
            <FormattedMessage id="profile.tab.overview" />
          </TabsTrigger>
          <TabsTrigger value="kills" data-testid="tab-kills">
            <FormattedMessage id="profile.tab.kills" />
          </TabsTrigger>
          <TabsTrigger value="history" data-testid="tab-history">
            <FormattedMessage id="profile.tab.history" />
          </TabsTrigger>
        </TabsList>
        <TabsContent value="overview">
          <ProfileOverview />
        </TabsContent>
        <TabsContent value="kills">
          <ProfileKills />
        </TabsContent>
        <TabsContent value="history">
          <Card>
            <BiddingHistory />
          </Card>
        </TabsContent>
      </Tabs>
    </div>
  );
}
