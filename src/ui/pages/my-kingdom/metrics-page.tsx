import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import type { MetricScope, Series } from '../../../api/scans';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { Input } from '../../components/input';
import { Label } from '../../components/label';
import { Spinner } from '../../components/loader';
import { NativeSelect } from '../../components/native-select';
import { Table, Td, Th } from '../../components/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/tabs';
import { cn } from '../../lib/cn';
import { useDebounced } from '../../lib/use-debounced';
import { seriesData } from '../../lib/stats-format';
import { useScansApi, Empty } from '../../components/stats/scan-parts';
import { Num } from '../../components/stats/num';
import { QueryError } from '../../components/query-error';

const Chart = lazy(() => import('../../components/stats/chart'));

export const METRIC_STATS = ['power', 'killpoints', 'deads', 't4Kills', 't5Kills', 'helps', 'rssAssistance', 'rssGathered'] as const;

/** One chart per stat (their sizes differ by orders of magnitude), and "members" for a kingdom or an alliance. */
function Charts({ series, stats }: { series: Series; stats: readonly string[] }) {
  const intl = useIntl();
  const data = useMemo(() => seriesData(series.points, stats), [series, stats]);
  const members = useMemo(() => series.points.map((p) => p.members), [series]);
  const charts = useMemo(() => {
    const list = stats.map((stat, i) => ({ id: stat, label: intl.formatMessage({ id: `stat.${stat}` }), values: data[i + 1] }));
    if (series.scope !== 'governor' && members.some((m) => m !== null)) list.push({ id: 'members', label: intl.formatMessage({ id: 'stat.members' }), values: members });
    return list.map((c) => ({ ...c, series: [{ label: c.label, values: c.values }] }));
  }, [stats, data, members, series.scope, intl]);
  return (
    <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
      {charts.map((c) => (
        <Card key={c.id} className="min-w-0 p-3">
          <h2 className="mb-2 text-sm font-semibold">{c.label}</h2>
          <Suspense fallback={<Spinner />}>
            <Chart xs={data[0]} series={c.series} label={c.label} />
          </Suspense>
        </Card>
      ))}
    </div>
  );
}

function NumbersTable({ series, stats }: { series: Series; stats: readonly string[] }) {
  const withMembers = series.scope !== 'governor';
  return (
    <Table minWidth={`${10 + stats.length * 7}rem`}>
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
        {[...series.points].reverse().map((p) => (
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

function initial(): { scope: MetricScope; key: string } {
  const search = new URLSearchParams(window.location.search);
  const scope = search.get('scope');
  return { scope: scope === 'alliance' || scope === 'governor' ? scope : 'kingdom', key: search.get('key') ?? '' };
}

/** My Kingdom → Metrics: series over every scan for the kingdom, an alliance or a governor; charts or numbers. */
export default function MetricsPage({ titleId }: { titleId: string }) {
  const scansApi = useScansApi();
  const intl = useIntl();
  const [scope, setScope] = useState<MetricScope>(() => initial().scope);
  const [key, setKey] = useState(() => initial().key);
  const [stats, setStats] = useState<string[]>(['power', 'killpoints', 'deads']);
  const debouncedKey = useDebounced(key.trim());
  const alliances = useQuery({ queryKey: ['stats', 'alliances', undefined], queryFn: () => scansApi.alliances(), enabled: scope === 'alliance' });
  const needsKey = scope !== 'kingdom';
  const keyOk = !needsKey || (scope === 'governor' ? /^\d{1,15}$/.test(debouncedKey) : debouncedKey !== '');
  const ordered = useMemo(() => METRIC_STATS.filter((s) => stats.includes(s)), [stats]);
  const series = useQuery({
    queryKey: ['stats', 'series', scope, needsKey ? debouncedKey : '', ordered],
    queryFn: () => scansApi.series(scope, needsKey ? debouncedKey : undefined, ordered),
    enabled: keyOk && ordered.length > 0,
  });
  const toggle = (s: string) => setStats((list) => (list.includes(s) ? list.filter((x) => x !== s) : [...list, s]));

  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id={titleId} />
      </h1>
      <Card className="grid gap-4">
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid gap-1.5">
            <Label htmlFor="metrics-scope">
              <FormattedMessage id="metrics.scope" />
            </Label>
            <NativeSelect
              id="metrics-scope"
              value={scope}
              onChange={(e) => {
                setScope(e.target.value as MetricScope);
                setKey('');
              }}
            >
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
                <FormattedMessage id="stat.alliance" />
              </Label>
              <NativeSelect id="metrics-alliance" className="w-56 max-w-full" value={key} onChange={(e) => setKey(e.target.value)}>
                <option value="">{intl.formatMessage({ id: 'metrics.chooseAlliance' })}</option>
                {(alliances.data ?? []).map((a) => (
                  <option key={a.tag} value={a.tag}>
                    {a.name && a.name !== a.tag ? `${a.tag} · ${a.name}` : a.tag}
                  </option>
                ))}
              </NativeSelect>
            </div>
          )}
          {scope === 'governor' && (
            <div className="grid gap-1.5">
              <Label htmlFor="metrics-governor">
                <FormattedMessage id="metrics.governorId" />
              </Label>
              <Input id="metrics-governor" className="w-56 max-w-full" inputMode="numeric" dir="ltr" value={key} onChange={(e) => setKey(e.target.value)} />
            </div>
          )}
        </div>
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
      <QueryError error={series.error ?? alliances.error} />
      {needsKey && !keyOk && <Empty textId={scope === 'governor' ? 'metrics.needGovernor' : 'metrics.needAlliance'} />}
      {ordered.length === 0 && <Empty textId="metrics.needStat" />}
      {series.isPending && series.fetchStatus === 'fetching' && <Spinner />}
      {series.data && series.data.points.length === 0 && <Empty textId="metrics.noPoints" />}
      {series.data && series.data.points.length > 0 && (
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
            <Charts series={series.data} stats={ordered} />
          </TabsContent>
          <TabsContent value="table">
            <Card className="min-w-0">
              <NumbersTable series={series.data} stats={ordered} />
            </Card>
          </TabsContent>
        </Tabs>
      )}
    </div>
  );
}
