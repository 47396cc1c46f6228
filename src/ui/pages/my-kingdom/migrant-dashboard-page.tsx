import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { createMigrantsApi, migrantsKeys, type Leaver, type Migrant, type MigrantPoint } from '../../../api/migrants';
import { Button } from '../../components/button';
import { Card, CardHeader, CardTitle } from '../../components/card';
import { PageTitle } from '../../components/page-header';
import { Input } from '../../components/input';
import { Spinner } from '../../components/loader';
import { endColumns, Table, TableBody, TableHead, Td } from '../../components/table';
import { cn } from '../../lib/cn';
import { useApi } from '../../lib/use-api';
import { ExportButtons } from '../../components/export-csv-button';
import { Num } from '../../components/stats/num';
import { GovernorName, NumCell } from '../../components/stats/cells';
import { StatTile } from '../../components/stats/stat-tile';
import { QueryError } from '../../components/query-error';
import { Empty, ScanField, useScans } from '../../components/stats/scan-parts';
import { Hint } from '../../components/hint';

const Chart = lazy(() => import('../../components/stats/chart'));

/** Rows shown at first in each list; "Show more" adds as many again. */
const PAGE = 100;

function Tile({ labelId, value, power, tone }: { labelId: string; value: number; power?: number; tone: 'in' | 'out' | 'plain' }) {
  return (
    <StatTile labelId={labelId}>
      <span className={cn('text-xl font-semibold tabular-nums', tone === 'in' && 'text-success', tone === 'out' && 'text-danger')}>
        <FormattedNumber value={value} />
      </span>
      {power !== undefined && (
        <span className="text-xs text-muted-foreground">
          <FormattedMessage id="migrants.powerOf" values={{ power: <Num value={power} /> }} />
        </span>
      )}
    </StatTile>
  );
}

/** Arrivals and departures of every scan against the one before it: counts, then power in and out. */
function SeriesCharts({ points }: { points: MigrantPoint[] }) {
  const intl = useIntl();
  const xs = useMemo(() => points.map((p) => p.takenAt / 1000), [points]);
  const counts = useMemo(
    () => [
      { label: intl.formatMessage({ id: 'migrants.arrived' }), values: points.map((p) => p.arrived) },
      { label: intl.formatMessage({ id: 'migrants.left' }), values: points.map((p) => p.left) },
    ],
    [points, intl],
  );
  const power = useMemo(
    () => [
      { label: intl.formatMessage({ id: 'migrants.powerIn' }), values: points.map((p) => p.powerIn) },
      { label: intl.formatMessage({ id: 'migrants.powerOut' }), values: points.map((p) => p.powerOut) },
    ],
    [points, intl],
  );
  if (points.length === 0) return <Empty textId="migrants.seriesEmpty" />;
  return (
    <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
      <div className="min-w-0">
        <h3 className="mb-2 text-sm font-semibold">
          <FormattedMessage id="migrants.chartCounts" />
        </h3>
        <Suspense fallback={<Spinner />}>
          <Chart xs={xs} series={counts} label={intl.formatMessage({ id: 'migrants.chartCounts' })} wholeNumbers />
        </Suspense>
      </div>
      <div className="min-w-0">
        <h3 className="mb-2 text-sm font-semibold">
          <FormattedMessage id="migrants.chartPower" />
        </h3>
        <Suspense fallback={<Spinner />}>
          <Chart xs={xs} series={power} label={intl.formatMessage({ id: 'migrants.chartPower' })} />
        </Suspense>
      </div>
    </div>
  );
}

function matches(m: Migrant, q: string): boolean {
  if (!q) return true;
  const text = q.toLowerCase();
  return m.name.toLowerCase().includes(text) || m.alliance.toLowerCase().includes(text) || String(m.governorId).startsWith(text);
}

/** One list (arrived or left): governor, alliance, power, kingdom, and the reason for who left. */
function MigrantList({ kind, rows, total, scans }: { kind: 'arrived' | 'left'; rows: (Migrant | Leaver)[]; total: number; scans: { from: number; to: number } }) {
  const migrants = useApi(createMigrantsApi);
  const intl = useIntl();
  const [q, setQ] = useState('');
  const [shown, setShown] = useState(PAGE);
  const filtered = useMemo(() => rows.filter((r) => matches(r, q.trim())), [rows, q]);
  const visible = filtered.slice(0, shown);
  const withReason = kind === 'left';
  return (
    <Card className="min-w-0" aria-labelledby={`migrants-${kind}-title`}>
      <CardHeader titleId={`migrants-${kind}-title`} title={<FormattedMessage id={kind === 'arrived' ? 'migrants.arrivedTitle' : 'migrants.leftTitle'} values={{ count: total }} />}>
        <ExportButtons name={`${kind}-${scans.from}-${scans.to}`} fetchFile={(file) => migrants.listFile(kind, { ...scans, q }, file)} disabled={rows.length === 0} />
      </CardHeader>
      {rows.length === 0 ? (
        <Empty textId={kind === 'arrived' ? 'migrants.noneArrived' : 'migrants.noneLeft'} />
      ) : (
        <>
          <Input
            type="search"
            className="mb-3 sm:max-w-sm"
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setShown(PAGE);
            }}
            maxLength={64}
            dir="auto"
            placeholder={intl.formatMessage({ id: 'migrants.searchPlaceholder' })}
            aria-label={intl.formatMessage({ id: kind === 'arrived' ? 'migrants.searchArrived' : 'migrants.searchLeft' })}
          />
          <Table minWidth={withReason ? '36rem' : '30rem'}>
            <TableHead columns={['stat.governor', 'stat.alliance', ...endColumns(['stat.power', 'migrants.kingdom']), ...(withReason ? ['migrants.reason'] : [])]} />
            <TableBody>
              {visible.map((r) => (
                <tr key={r.governorId} data-governor-id={r.governorId}>
                  <Td>
                    <GovernorName governorId={r.governorId} name={r.name} />
                  </Td>
                  <Td>
                    <bdi>{r.alliance || '—'}</bdi>
                  </Td>
                  <NumCell value={r.power} />
                  <Td className="text-end tabular-nums">{r.kingdom ?? '—'}</Td>
                  {withReason && (
                    <Td>
                      <ReasonTag reason={(r as Leaver).reason} />
                    </Td>
                  )}
                </tr>
              ))}
            </TableBody>
          </Table>
          {filtered.length === 0 && <Empty textId="migrants.noMatch" />}
          {filtered.length > shown && (
            <Button variant="outline" size="sm" className="mt-3" onClick={() => setShown(shown + PAGE)}>
              <FormattedMessage id="migrants.showMore" values={{ count: filtered.length - shown }} />
            </Button>
          )}
        </>
      )}
    </Card>
  );
}

const REASON_TONES: Record<Leaver['reason'], string> = {
  'kingdom-changed': 'bg-warning/15 text-warning',
  'below-cutoff': 'bg-muted text-muted-foreground',
  unknown: 'bg-danger/10 text-danger',
};

function ReasonTag({ reason }: { reason: Leaver['reason'] }) {
  return (
    <span className={cn('inline-block whitespace-nowrap rounded px-2 py-0.5 text-xs font-medium', REASON_TONES[reason])} data-reason={reason}>
      <FormattedMessage id={`migrants.reason.${reason}`} />
    </span>
  );
}

/** My Kingdom → Migrant Dashboard: who arrived and who left between two scans, and over every scan. */
export default function MigrantDashboardPage({ titleId }: { titleId: string }) {
  const migrants = useApi(createMigrantsApi);
  const scans = useScans();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const between = [from ? Number(from) : undefined, to ? Number(to) : undefined] as const;
  const diff = useQuery({ queryKey: migrantsKeys.diff(...between), queryFn: () => migrants.diff(...between) });
  const series = useQuery({ queryKey: migrantsKeys.series, queryFn: () => migrants.series() });
  const list = scans.data?.scans ?? [];
  const data = diff.data;
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <PageTitle titleId={titleId} />
      <Hint id="migrants.hint" />
      <div className="flex flex-wrap items-end gap-3">
        <ScanField id="migrants-from" labelId="migrants.from" value={from} onChange={setFrom} scans={list} defaultLabelId="migrants.fromDefault" />
        <ScanField id="migrants-to" labelId="migrants.to" value={to} onChange={setTo} scans={list} defaultLabelId="migrants.toDefault" />
      </div>
      <QueryError error={diff.error ?? scans.error} />
      {diff.isPending && <Spinner />}
      {data && (!data.from || !data.to) && (
        <Card>
          <Empty textId="migrants.needTwo" />
        </Card>
      )}
      {data?.from && data.to && (
        <>
          <p className="text-sm text-muted-foreground">
            <FormattedMessage
              id="migrants.comparing"
              values={{
                from: <FormattedDate value={data.from.takenAt} dateStyle="medium" timeStyle="short" />,
                to: <FormattedDate value={data.to.takenAt} dateStyle="medium" timeStyle="short" />,
                fromId: data.from.id,
                toId: data.to.id,
              }}
            />
          </p>
          <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
            <Tile labelId="migrants.arrived" value={data.counts.arrived} power={data.power.arrived} tone="in" />
            <Tile labelId="migrants.left" value={data.counts.left} power={data.power.left} tone="out" />
            <Tile labelId="migrants.reason.kingdom-changed" value={data.reasons['kingdom-changed']} tone="plain" />
            <Tile labelId="migrants.reason.below-cutoff" value={data.reasons['below-cutoff']} tone="plain" />
            <Tile labelId="migrants.reason.unknown" value={data.reasons.unknown} tone="plain" />
          </dl>
          <div className="grid grid-cols-1 gap-4 2xl:grid-cols-2">
            <MigrantList key={`a-${data.from.id}-${data.to.id}`} kind="arrived" rows={data.arrived} total={data.counts.arrived} scans={{ from: data.from.id, to: data.to.id }} />
            <MigrantList key={`l-${data.from.id}-${data.to.id}`} kind="left" rows={data.left} total={data.counts.left} scans={{ from: data.from.id, to: data.to.id }} />
          </div>
        </>
      )}
      <Card className="min-w-0">
        <CardTitle>
          <FormattedMessage id="migrants.seriesTitle" />
        </CardTitle>
        <QueryError error={series.error} />
        {series.isPending ? <Spinner /> : series.data && <SeriesCharts points={series.data} />}
      </Card>
    </div>
  );
}
