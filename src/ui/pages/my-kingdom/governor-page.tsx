import { ShareCardButton } from '../../components/stats/share-card';
import { useQuery } from '@tanstack/react-query';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { Link, useParams } from 'wouter';
import { Card, CardTitle } from '../../components/card';
import { Spinner } from '../../components/loader';
import { Table, Td, Th } from '../../components/table';
import { KillsBars, ScannedOn, StatsGrid, Trend } from '../../components/stats/governor-view';
import { useScansApi, Empty } from '../../components/stats/scan-parts';
import { statsKeys } from '../../../api/scans';
import { Num } from '../../components/stats/num';
import { QueryError } from '../../components/query-error';

const HISTORY_STATS = ['power', 'killpoints', 'deads', 't4Kills', 't5Kills', 'helps', 'rssAssistance'] as const;

/** A governor's page: the latest numbers, history over scans, names and alliances seen. */
export default function GovernorPage() {
  const intl = useIntl();
  const scansApi = useScansApi();
  const { governorId = '' } = useParams<{ governorId: string }>();
  const id = /^\d{1,15}$/.test(governorId) ? Number(governorId) : null;
  const governor = useQuery({ queryKey: statsKeys.governor(id ?? 0), queryFn: () => scansApi.governor(id!), enabled: id !== null, retry: false });
  const g = governor.data;
  const latest = g?.history[g.history.length - 1];
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h1 className="min-w-0 break-words text-2xl font-semibold">
          {g ? <bdi>{g.name}</bdi> : <FormattedMessage id="governor.title" />}
        </h1>
        <span dir="ltr" className="tabular-nums text-muted-foreground">
          {governorId}
        </span>
        {g?.alliance && <bdi className="rounded bg-muted px-2 py-0.5 text-sm">{g.alliance}</bdi>}
      </div>
      {id === null && <Empty textId="governor.badId" />}
      <QueryError error={governor.error} />
      {governor.isPending && id !== null && <Spinner />}
      {g && latest && (
        <>
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
            <ScannedOn entry={latest} />
            {g.account && (
              <span className="text-muted-foreground">
                <FormattedMessage id="governor.account" values={{ username: <bdi className="font-medium text-foreground">{g.account.username}</bdi> }} />
              </span>
            )}
            <Link href={`/my-kingdom/metrics?scope=governor&key=${g.governorId}`} className="text-primary underline-offset-4 hover:underline">
              <FormattedMessage id="governor.metrics" />
            </Link>
            <ShareCardButton card={{ kind: 'governor', governorId: g.governorId }} />
          </div>
          <StatsGrid history={g.history} stats={['power', 'killpoints', 'deads', 't4Kills', 't5Kills', 'helps']} />
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
            <Card className="min-w-0">
              <CardTitle className="text-base">
                <FormattedMessage id="stat.power" />
              </CardTitle>
              <Trend history={g.history} stat="power" />
            </Card>
            <Card className="min-w-0">
              <CardTitle className="text-base">
                <FormattedMessage id="profile.tab.kills" />
              </CardTitle>
              <KillsBars entry={latest} />
            </Card>
          </div>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Card className="min-w-0">
              <CardTitle className="text-base">
                <FormattedMessage id="governor.names" />
              </CardTitle>
              <ul className="flex flex-wrap gap-2 text-sm">
                {g.names.map((n) => (
                  <li key={n} className="rounded bg-muted px-2 py-0.5">
                    <bdi>{n}</bdi>
                  </li>
                ))}
              </ul>
            </Card>
            <Card className="min-w-0">
              <CardTitle className="text-base">
                <FormattedMessage id="governor.alliances" />
              </CardTitle>
              <ul className="flex flex-wrap gap-2 text-sm" aria-label={intl.formatMessage({ id: 'governor.alliances' })}>
                {g.alliances.map((a) => (
                  <li key={a} className="rounded bg-muted px-2 py-0.5">
                    <bdi>{a || '—'}</bdi>
                  </li>
                ))}
              </ul>
            </Card>
          </div>
          <Card className="min-w-0">
            <CardTitle className="text-base">
              <FormattedMessage id="governor.history" />
            </CardTitle>
            <Table minWidth="60rem">
              <thead>
                <tr>
                  <Th>
                    <FormattedMessage id="scans.col.date" />
                  </Th>
                  <Th>
                    <FormattedMessage id="stat.governor" />
                  </Th>
                  <Th>
                    <FormattedMessage id="stat.alliance" />
                  </Th>
                  {HISTORY_STATS.map((s) => (
                    <Th key={s} className="text-end">
                      <FormattedMessage id={`stat.${s}`} />
                    </Th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {[...g.history].reverse().map((h) => (
                  <tr key={h.scanId}>
                    <Td className="whitespace-nowrap">
                      <FormattedDate value={h.takenAt} dateStyle="medium" />
                    </Td>
                    <Td className="max-w-48 truncate">
                      <bdi>{h.name}</bdi>
                    </Td>
                    <Td>
                      <bdi>{h.alliance || '—'}</bdi>
                    </Td>
                    {HISTORY_STATS.map((s) => (
                      <Td key={s} className="text-end">
                        <Num value={h[s]} />
                      </Td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </Table>
          </Card>
        </>
      )}
    </div>
  );
}
