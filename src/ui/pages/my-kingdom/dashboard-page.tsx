import { useQuery } from '@tanstack/react-query';
import type { SortingState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { statsKeys, type GovernorFilters, type GovernorSort, type KingdomSummary } from '../../../api/scans';
import { Card, CardHeader, CardTitle } from '../../components/card';
import { PageTitle } from '../../components/page-header';
import { endColumns, Table, TableBody, TableHead, Td } from '../../components/table';
import { CountCell, NumCell } from '../../components/stats/cells';
import { AllianceFilter, GovernorSearch } from '../../components/stats/governor-filters';
import { StatTile } from '../../components/stats/stat-tile';
import { ExportButtons } from '../../components/export-csv-button';
import { useDebounced } from '../../lib/use-debounced';
import { GovernorsTable } from './governors-table';
import { useScansApi, Empty, GovernorLink, useScans } from '../../components/stats/scan-parts';
import { Change, Num } from '../../components/stats/num';
import { QueryError } from '../../components/query-error';
import { ScanField } from '../../components/stats/scan-parts';

const TOTALS = ['governors', 'power', 'killpoints', 'deads', 't4Kills', 't5Kills', 'helps', 'rssAssistance'] as const;

function Totals({ summary }: { summary: KingdomSummary }) {
  const { totals, change } = summary;
  if (!totals) return null;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {TOTALS.map((key) => (
        <StatTile key={key} labelId={`stat.${key}`}>
          <Num value={totals[key]} className="text-xl font-semibold" />
          <Change value={change?.[key]} />
        </StatTile>
      ))}
    </dl>
  );
}

/** A top-10 list: by a stat, or by its gain since the compared scan. */
function TopList({ titleId, sort, gain, scan, compare }: { titleId: string; sort: GovernorSort; gain?: boolean; scan?: number; compare?: number }) {
  const intl = useIntl();
  const scansApi = useScansApi();
  const filters: GovernorFilters = { scan, compare, sort, order: 'desc', gain };
  const top = useQuery({
    queryKey: statsKeys.governors(filters, 1, 10),
    queryFn: () => scansApi.governors(filters, 1, 10),
    enabled: (!gain || compare !== undefined),
  });
  return (
    <Card className="min-w-0" aria-label={intl.formatMessage({ id: titleId })}>
      <CardTitle className="text-base">
        <FormattedMessage id={titleId} />
      </CardTitle>
      <QueryError error={top.error} />
      {gain && compare === undefined ? (
        <Empty textId="dashboard.gainsNeedTwo" />
      ) : (
        <ol className="grid gap-1.5 text-sm">
          {top.data?.governors.map((g, i) => (
            <li key={g.governorId} className="flex min-w-0 items-baseline gap-2">
              <span className="w-5 shrink-0 text-end tabular-nums text-muted-foreground">{i + 1}</span>
              <GovernorLink governorId={g.governorId} name={g.name} className="min-w-0 flex-1 truncate" />
              {gain ? <Change value={g.change?.[sort as 'power']} className="text-sm" /> : <Num value={g[sort as 'power']} className="shrink-0" />}
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function Alliances({ scan }: { scan?: number }) {
  const scansApi = useScansApi();
  const alliances = useQuery({ queryKey: statsKeys.alliances(scan), queryFn: () => scansApi.allianceSums(scan) });
  const intl = useIntl();
  return (
    <Card className="min-w-0" data-testid="alliances">
      <CardTitle>
        <FormattedMessage id="dashboard.alliances" />
      </CardTitle>
      <QueryError error={alliances.error} />
      {alliances.data && (
        <Table minWidth="28rem">
          <TableHead columns={['stat.alliance', ...endColumns(['stat.members', 'stat.power', 'stat.killpoints', 'stat.deads'])]} />
          <TableBody>
            {[...alliances.data.alliances, ...(alliances.data.unaffiliated ? [alliances.data.unaffiliated] : [])].map((a) => (
              <tr key={a.tag}>
                <Td>
                  {a.tag === '' ? (
                    <span className="font-medium italic text-muted-foreground">{intl.formatMessage({ id: 'dashboard.noAlliance' })}</span>
                  ) : (
                    <bdi className="font-medium">{a.tag}</bdi>
                  )}
                  {a.name && a.name !== a.tag && (
                    <bdi className="ms-2 text-xs text-muted-foreground">{a.name}</bdi>
                  )}
                </Td>
                <CountCell value={a.members} />
                <NumCell value={a.power} />
                <NumCell value={a.killpoints} />
                <NumCell value={a.deads} />
              </tr>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}

function GovernorsCard({ scan, compare }: { scan?: number; compare?: number }) {
  const scansApi = useScansApi();
  const [q, setQ] = useState('');
  const [alliance, setAlliance] = useState('');
  const [sorting, setSorting] = useState<SortingState>([{ id: 'power', desc: true }]);
  const debouncedQ = useDebounced(q);
  const debouncedAlliance = useDebounced(alliance);
  const filters = useMemo(() => ({ scan, compare, q: debouncedQ, alliance: debouncedAlliance }), [scan, compare, debouncedQ, debouncedAlliance]);
  const sort = sorting[0];
  return (
    <Card className="min-w-0">
      <CardHeader title={<FormattedMessage id="dashboard.governors" />}>
        <ExportButtons
          name={`governors${scan ? `-${scan}` : ''}`}
          fetchFile={(file) => scansApi.governorsFile({ ...filters, sort: sort?.id as GovernorSort, order: sort?.desc ? 'desc' : 'asc' }, file)}
        />
      </CardHeader>
      <div className="mb-3 grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <GovernorSearch value={q} onChange={setQ} />
        <AllianceFilter value={alliance} onChange={setAlliance} />
      </div>
      <GovernorsTable filters={filters} sorting={sorting} onSorting={setSorting} />
    </Card>
  );
}

/** My Kingdom → Dashboard: the latest scan's totals with their change, tops, alliances and every governor. */
export default function DashboardPage({ titleId }: { titleId: string }) {
  const scansApi = useScansApi();
  const scans = useScans();
  const [scan, setScan] = useState('');
  const [compare, setCompare] = useState('');
  const summary = useQuery({
    queryKey: statsKeys.summary(scan ? Number(scan) : undefined, compare ? Number(compare) : undefined),
    queryFn: () => scansApi.summary(scan ? Number(scan) : undefined, compare ? Number(compare) : undefined),
  });
  const list = scans.data?.scans ?? [];
  const shown = summary.data?.scan ?? undefined;
  const compared = summary.data?.compare ?? undefined;
  const scanId = shown?.id;
  const compareId = compared?.id;
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <PageTitle titleId={titleId} />
      <QueryError error={summary.error ?? scans.error} />
      {summary.isSuccess && !shown ? (
        <Card>
          <Empty textId="dashboard.noScans" />
        </Card>
      ) : (
        <>
          <div className="flex flex-wrap items-end gap-3">
            <ScanField id="dashboard-scan" labelId="dashboard.scan" value={scan} onChange={setScan} scans={list} defaultLabelId="dashboard.latest" />
            <ScanField id="dashboard-compare" labelId="dashboard.compare" value={compare} onChange={setCompare} scans={list} defaultLabelId="dashboard.previous" />
          </div>
          {shown && (
            <p className="text-sm text-muted-foreground">
              <FormattedMessage
                id={compared ? 'dashboard.showing' : 'dashboard.showingOne'}
                values={{
                  date: <FormattedDate value={shown.takenAt} dateStyle="medium" timeStyle="short" />,
                  compare: compared ? <FormattedDate value={compared.takenAt} dateStyle="medium" timeStyle="short" /> : '',
                }}
              />
            </p>
          )}
          {summary.data && <Totals summary={summary.data} />}
          {scanId !== undefined && (
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 2xl:grid-cols-4">
              <TopList titleId="dashboard.topPower" sort="power" scan={scanId} />
              <TopList titleId="dashboard.topKillpoints" sort="killpoints" scan={scanId} />
              <TopList titleId="dashboard.topDeads" sort="deads" scan={scanId} />
              <TopList titleId="dashboard.topGains" sort="killpoints" gain scan={scanId} compare={compareId} />
            </div>
          )}
          {scanId !== undefined && <Alliances scan={scanId} />}
          {scanId !== undefined && <GovernorsCard scan={scanId} compare={compareId} />}
        </>
      )}
    </div>
  );
}
