import { useQuery } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { createScansApi, statsKeys } from '../../../api/scans';
import type { OwnGovernor } from '../../../protocol/scans-api';
import { Card, CardTitle } from '../../components/card';
import { Label } from '../../components/label';
import { NativeSelect } from '../../components/native-select';
import { Spinner } from '../../components/loader';
import { useApi } from '../../lib/use-api';
import { KillsBars, ScannedOn, StatsGrid, Trend } from '../../components/stats/governor-view';
import { QueryError } from '../../components/query-error';
import { ShareCardButton } from '../../components/stats/share-card';

/** The signed-in account's governors (its sign-up's claim and the farms an admin linked), main first. */
export function useOwnGovernors() {
  const scans = useApi(createScansApi);
  return useQuery({ queryKey: statsKeys.ownGovernors, queryFn: () => scans.ownGovernors() });
}

/** A governor's history, asked for only once a scan has seen it (a never-scanned one has none to ask for). */
function useHistory(own: OwnGovernor | null) {
  const scans = useApi(createScansApi);
  const id = own && own.name !== null ? own.governorId : null;
  return useQuery({ queryKey: statsKeys.governor(id ?? 0), queryFn: () => scans.governor(id!), enabled: id !== null, retry: false });
}

/** No governor linked to the account, or one never scanned: a clear sentence and what to do. */
function Missing({ own }: { own: OwnGovernor | null }) {
  if (own && own.name !== null) return null;
  return (
    <Card>
      <p className="text-sm">
        <FormattedMessage id={own === null ? 'governor.notLinked' : 'governor.neverScanned'} values={{ id: <bdi dir="ltr">{own?.governorId}</bdi> }} />
      </p>
    </Card>
  );
}

/** Which of the account's governors the profile shows, when it has more than one (a main and its farms). */
export function GovernorPicker({ governors, value, onChange }: { governors: OwnGovernor[]; value: number | null; onChange: (governorId: number) => void }) {
  const intl = useIntl();
  if (governors.length < 2) return null;
  return (
    <div className="grid max-w-sm gap-1.5">
      <Label htmlFor="profile-governor">
        <FormattedMessage id="stat.governor" />
      </Label>
      <NativeSelect id="profile-governor" value={value ?? ''} onChange={(e) => onChange(Number(e.target.value))}>
        {governors.map((g) => (
          <option key={g.governorId} value={g.governorId}>
            {`${g.name ?? '—'} · ${g.governorId}${g.main ? ` · ${intl.formatMessage({ id: 'stats.playerIds.main' })}` : ''}`}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

/** Profile → Overview: power, T4 and T5 kills, deaths, helps and resource assistance with their change and a trend. */
export function ProfileOverview({ own }: { own: OwnGovernor | null }) {
  const query = useHistory(own);
  const g = query.data;
  const latest = g?.history[g.history.length - 1];
  return (
    <div className="grid gap-4">
      <Missing own={own} />
      <QueryError error={query.error} />
      {query.isFetching && !g && <Spinner />}
      {g && latest && (
        <>
          <div className="flex flex-wrap items-baseline gap-x-3">
            <bdi className="text-lg font-semibold">
              {g.name}
            </bdi>
            {g.alliance && <bdi className="rounded bg-muted px-2 py-0.5 text-sm">{g.alliance}</bdi>}
            <ScannedOn entry={latest} />
            <span className="ms-auto">
              <ShareCardButton card={{ kind: 'governor', governorId: g.governorId }} />
            </span>
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
export function ProfileKills({ own }: { own: OwnGovernor | null }) {
  const query = useHistory(own);
  const latest = query.data?.history[query.data.history.length - 1];
  return (
    <div className="grid gap-4">
      <Missing own={own} />
      <QueryError error={query.error} />
      {query.isFetching && !query.data && <Spinner />}
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
