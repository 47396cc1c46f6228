import { useQueries, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { statsKeys, type MetricScope, type Series } from '../../../api/scans';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { Label } from '../../components/label';
import { Spinner } from '../../components/loader';
import { NativeSelect } from '../../components/native-select';
import { Table, Td, Th } from '../../components/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/tabs';
import { cn } from '../../lib/cn';
import { useDebounced } from '../../lib/use-debounced';
import { alignSeries } from '../../lib/stats-format';
import { seriesColorCss } from '../../components/stats/series-colors';
import { GovernorSearch } from '../../components/stats/governor-filters';
import { useScansApi, Empty } from '../../components/stats/scan-parts';
import { Num } from '../../components/stats/num';
import { QueryError } from '../../components/query-error';

const Chart = lazy(() => import('../../components/stats/chart'));

export const METRIC_STATS = ['power', 'killpoints', 'deads', 't4Kills', 't5Kills', 'helps', 'rssAssistance', 'rssGathered'] as const;

/** At most this many governors or alliances share one chart (each line its own colour). */
export const MAX_SERIES = 5;
const DEFAULT_STATS = ['power', 'killpoints', 'deads'];

/** What the page shows, read from its address (so it is shared, bookmarked and kept on reload): `?scope=governor&key=1&key=2&stats=power,deads`. */
function selectionOf(search: string): { scope: MetricScope; keys: string[]; stats: string[] } {
  const params = new URLSearchParams(search);
  const raw = params.get('scope');
  const scope: MetricScope = raw === 'alliance' || raw === 'governor' ? raw : 'kingdom';
  const keys = scope === 'kingdom' ? [] : [...new Set(params.getAll('key').map((k) => k.trim()).filter((k) => k !== '' && (scope !== 'governor' || /^\d{1,15}$/.test(k))))].slice(0, MAX_SERIES);
  const stats = params.has('stats') ? (params.get('stats') ?? '').split(',').filter((s) => (METRIC_STATS as readonly string[]).includes(s)) : DEFAULT_STATS;
  return { scope, keys, stats };
}

function addressOf(scope: MetricScope, keys: readonly string[], stats: readonly string[]): string {
  const params = new URLSearchParams();
  if (scope !== 'kingdom') params.set('scope', scope);
  for (const key of keys) params.append('key', key);
  if (stats.join(',') !== DEFAULT_STATS.join(',')) params.set('stats', stats.join(','));
  const query = params.toString();
  return `/my-kingdom/metrics${query ? `?${query}` : ''}`;
}

interface Line {
  key: string;
  label: string;
  legend: string;
  points: Series['points'];
}

/** One chart per stat (their sizes differ by orders of magnitude), a line per governor or alliance, and "members" for a kingdom or alliances. */
function Charts({ lines, stats, withMembers }: { lines: Line[]; stats: readonly string[]; withMembers: boolean }) {
  const intl = useIntl();
  const aligned = useMemo(() => alignSeries(lines.map((l) => l.points), stats), [lines, stats]);
  const charts = useMemo(() => {
    const list = stats.map((stat, i) => ({ id: stat, label: intl.formatMessage({ id: `stat.${stat}` }), values: aligned.values[i] }));
    if (withMembers && aligned.members.some((m) => m.some((v) => v !== null))) list.push({ id: 'members', label: intl.formatMessage({ id: 'stat.members' }), values: aligned.members });
    return list.map((c) => ({ ...c, series: lines.map((l, k) => ({ label: lines.length > 1 ? l.legend : c.label, values: c.values[k] })) }));
  }, [stats, aligned, withMembers, lines, intl]);
  return (
    <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
      {charts.map((c) => (
        <Card key={c.id} className="min-w-0 p-3">
          <h2 className="mb-2 text-sm font-semibold">{c.label}</h2>
          <Suspense fallback={<Spinner />}>
            <Chart xs={aligned.xs} series={c.series} label={c.label} />
          </Suspense>
        </Card>
      ))}
    </div>
  );
}

function NumbersTable({ line, stats, withMembers }: { line: Line; stats: readonly string[]; withMembers: boolean }) {
  return (
    <Table minWidth={`${10 + stats.length * 7}rem`} aria-label={line.label}>
      <thead>
        <tr>
          <Th>
            <FormattedMessage id="scans.col.date" />
          </Th>
          {withMembers && (
            <Th className="text-end">
              <FormattedMessage id="stat.members" />
            </Th>
          )}
          {stats.map((s) => (
            <Th key={s} className="text-end">
              <FormattedMessage id={`stat.${s}`} />
            </Th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-border">
        {[...line.points].reverse().map((p) => (
          <tr key={p.scanId}>
            <Td className="whitespace-nowrap">
              <FormattedDate value={p.takenAt} dateStyle="medium" />
            </Td>
            {withMembers && (
              <Td className="text-end">
                <Num value={p.members} />
              </Td>
            )}
            {stats.map((s) => (
              <Td key={s} className="text-end">
                <Num value={p.values[s]} />
              </Td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** The governors or alliances on the chart, each with its line's colour and a button that takes it off. */
function Chosen({ lines, onRemove }: { lines: { key: string; label: string }[]; onRemove: (key: string) => void }) {
  const intl = useIntl();
  if (lines.length === 0) return null;
  return (
    <ul className="flex min-w-0 flex-wrap gap-2" aria-label={intl.formatMessage({ id: 'metrics.chosen' })}>
      {lines.map((l, i) => (
        <li key={l.key} className="inline-flex min-w-0 max-w-full items-center gap-1.5 rounded-full border border-border py-0.5 ps-2.5 pe-1 text-sm">
          <span className="size-2.5 shrink-0 rounded-full" style={{ background: seriesColorCss(i) }} aria-hidden />
          <span className="min-w-0 truncate" dir="auto">
            {l.label}
          </span>
          <Button type="button" size="sm" variant="ghost" className="h-6 px-1.5" aria-label={intl.formatMessage({ id: 'metrics.remove' }, { name: l.label })} onClick={() => onRemove(l.key)}>
            ×
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** Finds governors by name or id (the governors table's search) and adds one to the chart. */
function GovernorFinder({ chosen, full, onAdd }: { chosen: readonly string[]; full: boolean; onAdd: (key: string) => void }) {
  const scansApi = useScansApi();
  const intl = useIntl();
  const [q, setQ] = useState('');
  const typed = useDebounced(q.trim());
  const found = useQuery({ queryKey: statsKeys.governors({ q: typed }, 1, 8), queryFn: () => scansApi.governors({ q: typed }, 1, 8), enabled: typed !== '' });
  const rows = (found.data?.governors ?? []).filter((g) => !chosen.includes(String(g.governorId)));
  return (
    <div className="grid w-80 max-w-full gap-1.5">
      <GovernorSearch value={q} onChange={setQ} />
      <QueryError error={found.error} />
      {typed !== '' && found.data && (
        <ul className="grid gap-1" aria-label={intl.formatMessage({ id: 'metrics.found' })}>
          {rows.length === 0 && (
            <li className="text-sm text-muted-foreground">
              <FormattedMessage id="metrics.noMatch" />
            </li>
          )}
          {rows.map((g) => (
            <li key={g.governorId}>
              <Button
                type="button"
                size="sm"
                variant="outline"
                className="w-full justify-start gap-2"
                disabled={full}
                aria-label={intl.formatMessage({ id: 'metrics.add' }, { name: g.name })}
                onClick={() => {
                  onAdd(String(g.governorId));
                  setQ('');
                }}
              >
                <bdi className="min-w-0 truncate">{g.name}</bdi>
                <span className="text-xs text-muted-foreground tabular-nums" dir="ltr">
                  {g.governorId}
                </span>
                {g.alliance && <bdi className="ms-auto text-xs text-muted-foreground">{g.alliance}</bdi>}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** My Kingdom → Metrics: series over every scan for the kingdom, or up to five alliances or governors on one chart; charts or numbers. */
export default function MetricsPage({ titleId }: { titleId: string }) {
  const scansApi = useScansApi();
  const intl = useIntl();
  const search = useSearch();
  const [, navigate] = useLocation();
  const { scope, keys, stats } = useMemo(() => selectionOf(search), [search]);
  const go = (next: { scope?: MetricScope; keys?: string[]; stats?: string[] }) => navigate(addressOf(next.scope ?? scope, next.keys ?? keys, next.stats ?? stats), { replace: true });
  const alliances = useQuery({ queryKey: statsKeys.alliances(), queryFn: () => scansApi.allianceSums(), select: (sums) => sums.alliances, enabled: scope === 'alliance' });
  const ordered = useMemo(() => METRIC_STATS.filter((s) => stats.includes(s)), [stats]);
  const asked = scope === 'kingdom' ? [''] : keys;
  const series = useQueries({
    queries: asked.map((key) => ({
      queryKey: statsKeys.series(scope, key === '' ? undefined : key, ordered),
      queryFn: () => scansApi.series(scope, key === '' ? undefined : key, ordered),
      enabled: ordered.length > 0,
    })),
  });
  // a governor's name for its legend (what the search showed, or its page's answer for an address typed or shared)
  const names = useQueries({
    queries: (scope === 'governor' ? keys : []).map((key) => ({ queryKey: statsKeys.governor(Number(key)), queryFn: () => scansApi.governor(Number(key)), retry: false })),
  });
  /** A line's name; `isolated`: the name wrapped in Unicode isolates (a right-to-left name keeps its id on its side in the chart's legend). */
  const labelOf = (key: string, i: number, isolated = false): string => {
    if (scope === 'kingdom') return intl.formatMessage({ id: 'metrics.scope.kingdom' });
    if (scope === 'alliance') {
      const a = alliances.data?.find((x) => x.tag === key);
      return a?.name && a.name !== key ? `${key} · ${a.name}` : key;
    }
    const name = names[i]?.data?.name;
    return name ? (isolated ? `\u2068${name}\u2069 (${key})` : `${name} (${key})`) : key;
  };
  const chosen = keys.map((key, i) => ({ key, label: labelOf(key, i) }));
  const lines: Line[] = asked.flatMap((key, i) => (series[i]?.data ? [{ key, label: labelOf(key, i), legend: labelOf(key, i, true), points: series[i].data.points }] : []));
  const loading = series.some((q) => q.isPending && q.fetchStatus === 'fetching');
  const error = series.find((q) => q.error)?.error ?? alliances.error;
  const ready = ordered.length > 0 && asked.length > 0 && lines.length === asked.length;
  const withMembers = scope !== 'governor';
  const full = keys.length >= MAX_SERIES;
  const toggle = (s: string) => go({ stats: stats.includes(s) ? stats.filter((x) => x !== s) : [...stats, s] });
  const add = (key: string) => {
    if (!keys.includes(key) && !full) go({ keys: [...keys, key] });
  };

  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id={titleId} />
      </h1>
      <Card className="grid gap-4">
        <div className="flex min-w-0 flex-wrap items-start gap-3">
          <div className="grid gap-1.5">
            <Label htmlFor="metrics-scope">
              <FormattedMessage id="metrics.scope" />
            </Label>
            <NativeSelect id="metrics-scope" value={scope} onChange={(e) => go({ scope: e.target.value as MetricScope, keys: [] })}>
              {(['kingdom', 'alliance', 'governor'] as const).map((s) => (
                <option key={s} value={s}>
                  {intl.formatMessage({ id: `metrics.scope.${s}` })}
                </option>
              ))}
            </NativeSelect>
          </div>
          {scope === 'alliance' && (
            <div className="grid gap-1.5">
              <Label htmlFor="metrics-alliance">
                <FormattedMessage id="metrics.addAlliance" />
              </Label>
              <NativeSelect id="metrics-alliance" className="w-56 max-w-full" value="" disabled={full} onChange={(e) => add(e.target.value)}>
                <option value="">{intl.formatMessage({ id: 'metrics.chooseAlliance' })}</option>
                {(alliances.data ?? [])
                  .filter((a) => !keys.includes(a.tag))
                  .map((a) => (
                    <option key={a.tag} value={a.tag}>
                      {a.name && a.name !== a.tag ? `${a.tag} · ${a.name}` : a.tag}
                    </option>
                  ))}
              </NativeSelect>
            </div>
          )}
          {scope === 'governor' && <GovernorFinder chosen={keys} full={full} onAdd={add} />}
        </div>
        {scope !== 'kingdom' && (
          <div className="grid min-w-0 gap-1.5">
            <Chosen lines={chosen} onRemove={(key) => go({ keys: keys.filter((k) => k !== key) })} />
            {full && <Empty textId="metrics.full" />}
          </div>
        )}
        <fieldset className="flex flex-wrap gap-2">
          <legend className="mb-1.5 text-sm font-medium">
            <FormattedMessage id="metrics.stats" />
          </legend>
          {METRIC_STATS.map((s) => (
            <Button key={s} type="button" size="sm" variant={stats.includes(s) ? 'primary' : 'outline'} aria-pressed={stats.includes(s)} onClick={() => toggle(s)}>
              <FormattedMessage id={`stat.${s}`} />
            </Button>
          ))}
        </fieldset>
      </Card>
      <QueryError error={error} />
      {asked.length === 0 && <Empty textId={scope === 'governor' ? 'metrics.needGovernors' : 'metrics.needAlliances'} />}
      {ordered.length === 0 && <Empty textId="metrics.needStat" />}
      {loading && <Spinner />}
      {ready && lines.every((l) => l.points.length === 0) && <Empty textId="metrics.noPoints" />}
      {ready && lines.some((l) => l.points.length > 0) && (
        <Tabs defaultValue="charts">
          <TabsList>
            <TabsTrigger value="charts">
              <FormattedMessage id="metrics.charts" />
            </TabsTrigger>
            <TabsTrigger value="table">
              <FormattedMessage id="metrics.table" />
            </TabsTrigger>
          </TabsList>
          <TabsContent value="charts" className={cn('min-w-0')}>
            <Charts lines={lines} stats={ordered} withMembers={withMembers} />
          </TabsContent>
          <TabsContent value="table" className="grid gap-4">
            {lines.map((l) => (
              <Card key={l.key} className="min-w-0">
                {lines.length > 1 && <h2 className="mb-2 text-sm font-semibold">{l.label}</h2>}
                <NumbersTable line={l} stats={ordered} withMembers={withMembers} />
              </Card>
            ))}
          </TabsContent>
        </Tabs>
      )}
    </div>
  );
}
