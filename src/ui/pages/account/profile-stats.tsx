import { useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { FormattedMessage } from 'react-intl';
import { ApiError } from '../../../api/client';
import { createScansApi } from '../../../api/scans';
import { useChild } from '../../app-context';
import { Card, CardTitle } from '../../components/card';
import { Spinner } from '../../components/loader';
import { useApi } from '../../lib/use-api';
import { KillsBars, ScannedOn, StatsGrid, Trend } from '../../components/stats/governor-view';
import { QueryError } from '../../components/query-error';

/** The signed-in player's governor (the account's player id) and its history; 404 means never scanned. */
function useOwnGovernor() {
  const scans = useApi(createScansApi);
  const playerid = useSelector(useChild('auth'), (s) => s.context.user?.playerid ?? '');
  const id = /^\d{1,15}$/.test(playerid) && Number(playerid) > 0 ? Number(playerid) : null;
  const query = useQuery({ queryKey: ['stats', 'governor', id], queryFn: () => scans.governor(id!), enabled: id !== null, retry: false });
  const neverScanned = query.error instanceof ApiError && query.error.status === 404;
  return { id, query, neverScanned };
}

/** No linked governor, or one never scanned: a clear sentence and what to do. */
function Missing({ id, neverScanned }: { id: number | null; neverScanned: boolean }) {
  if (id !== null && !neverScanned) return null;
  return (
    <Card data-testid="profile-no-governor">
      <p className="text-sm">
        <FormattedMessage id={id === null ? 'governor.notLinked' : 'governor.neverScanned'} values={{ id: <bdi dir="ltr">{id}</bdi> }} />
      </p>
    </Card>
  );
}

/** Profile → Overview: power, T4 and T5 kills, deaths, helps and resource assistance with their change and a trend. */
export function ProfileOverview() {
  const { id, query, neverScanned } = useOwnGovernor();
  const g = query.data;
  const latest = g?.history[g.history.length - 1];
  return (
    <div className="grid gap-4" data-testid="profile-overview">
      <Missing id={id} neverScanned={neverScanned} />
      {!neverScanned && <QueryError error={query.error} />}
      {query.isPending && id !== null && <Spinner />}
      {g && latest && (
        <>
          <div className="flex flex-wrap items-baseline gap-x-3">
            <bdi className="text-lg font-semibold" data-testid="profile-governor-name">
              {g.name}
            </bdi>
            {g.alliance && <bdi className="rounded bg-muted px-2 py-0.5 text-sm">{g.alliance}</bdi>}
            <ScannedOn entry={latest} />
          </div>
          <StatsGrid history={g.history} />
          <Card className="min-w-0">
            <CardTitle className="text-base">
              <FormattedMessage id="governor.trend" />
            </CardTitle>
            <Trend history={g.history} stat="power" />
          </Card>
        </>
      )}
    </div>
  );
}

/** Profile → Kills distribution: kills by tier as bars with the numbers. */
export function ProfileKills() {
  const { id, query, neverScanned } = useOwnGovernor();
  const latest = query.data?.history[query.data.history.length - 1];
  return (
    <div className="grid gap-4" data-testid="profile-kills">
      <Missing id={id} neverScanned={neverScanned} />
      {!neverScanned && <QueryError error={query.error} />}
      {query.isPending && id !== null && <Spinner />}
      {latest && (
        <Card className="min-w-0">
          <KillsBars entry={latest} />
          <div className="mt-3">
            <ScannedOn entry={latest} />
          </div>
        </Card>
      )}
    </div>
  );
}
