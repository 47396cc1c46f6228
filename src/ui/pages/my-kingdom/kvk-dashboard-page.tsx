import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { createKvkApi, kvkKeys, type Season, type Standing, type StandingSort, type StandingsAnswer, type StandingsFilters } from '../../../api/kvk';
import { KVK_PAGE_SIZE, STATUSES, ZEROED_SUGGESTION } from '../../../protocol/kvk';
import { Button } from '../../components/button';
import { Card, CardHeader, CardTitle } from '../../components/card';
import { Field } from '../../components/field';
import { PageTitle } from '../../components/page-header';
import { NativeSelect } from '../../components/native-select';
import { Pagination } from '../../components/pagination';
import { endColumns, Table, TableBody, TableHead, Td, Th } from '../../components/table';
import { cn } from '../../lib/cn';
import { useApi } from '../../lib/use-api';
import { ExportButtons } from '../../components/export-csv-button';
import { ShareCardButton } from '../../components/stats/share-card';
import { PostKvkButton } from './post-kvk-button';
import { useDebounced } from '../../lib/use-debounced';
import { Num } from '../../components/stats/num';
import { CountCell, GovernorName, NumCell } from '../../components/stats/cells';
import { AllianceFilter, GovernorSearch } from '../../components/stats/governor-filters';
import { Empty, GovernorLink } from '../../components/stats/scan-parts';
import { Hint } from '../../components/hint';
import { KvkAlert, ProgressBar, StatusTag } from '../../components/stats/kvk-parts';
import { MarkDialog, useUnmark } from '../../components/stats/kvk-marks';
import { isLeadership } from '../../../protocol/ranks';
import { useRank } from '../../lib/back-office';

/** The season shown by default: the running one that started last (the server lists running seasons first), else the newest. */
export const defaultSeason = (seasons: Season[]) => seasons.find((s) => s.running) ?? seasons[0];

export function SeasonPicker({ seasons, value, onChange }: { seasons: Season[]; value: number | undefined; onChange: (id: number) => void }) {
  const intl = useIntl();
  return (
    <Field id="kvk-season" labelId="kvk.season">
      <NativeSelect id="kvk-season" className="w-full min-w-0 sm:w-72" value={value === undefined ? '' : String(value)} onChange={(e) => onChange(Number(e.target.value))}>
        {seasons.map((s) => (
          <option key={s.id} value={String(s.id)}>
            {s.name} · {intl.formatMessage({ id: s.running ? 'kvk.running' : 'kvk.closed' })}
          </option>
        ))}
      </NativeSelect>
    </Field>
  );
}

/** The period the standings cover: from a scan to another, or "no scan after the start yet". */
function Period({ data }: { data: StandingsAnswer }) {
  const date = (at: number) => <FormattedDate value={at} dateStyle="medium" timeStyle="short" />;
  return (
    <p className="text-sm text-muted-foreground">
      {data.to ? (
        <FormattedMessage id="kvk.period" values={{ from: date(data.from.takenAt), to: date(data.to.takenAt) }} />
      ) : (
        <FormattedMessage id="kvk.noEndYet" values={{ from: date(data.from.takenAt) }} />
      )}
      {data.season.running && data.window === null && data.to && (
        <>
          {' '}
          <FormattedMessage id="kvk.latestCounts" />
        </>
      )}
    </p>
  );
}

const COUNTS = ['governors', 'met', 'not-met', 'exempt', 'zeroed'] as const;

function Counts({ counts, status, onStatus }: { counts: StandingsAnswer['counts']; status: string; onStatus: (s: string) => void }) {
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-5">
      {COUNTS.map((key) => {
        const filter = key === 'governors' ? '' : key;
        const active = status === filter;
        return (
          <button
            key={key}
            type="button"
            aria-pressed={active}
            onClick={() => onStatus(filter)}
            className={cn('min-w-0 cursor-pointer rounded-lg border bg-card p-3 text-start shadow-sm hover:bg-muted', active ? 'border-primary ring-1 ring-primary' : 'border-border')}
          >
            <span className="block truncate text-xs text-muted-foreground">
              <FormattedMessage id={key === 'governors' ? 'kvk.count.governors' : `kvk.status.${key}`} />
            </span>
            <span className="mt-1 block text-xl font-semibold tabular-nums">
              <FormattedNumber value={counts[key]} />
            </span>
          </button>
        );
      })}
    </div>
  );
}

/** A sortable column header: the server sorts; a second click flips the order. */
function SortHeader({ id, labelId, sort, order, onSort, numeric = true }: { id: StandingSort; labelId: string; sort: StandingSort; order: 'asc' | 'desc'; onSort: (s: StandingSort, o: 'asc' | 'desc') => void; numeric?: boolean }) {
  const active = sort === id;
  return (
    <Th aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'} className={numeric ? 'text-end' : undefined}>
      <button
        type="button"
        className={cn('inline-flex cursor-pointer items-center gap-1 hover:text-foreground', active && 'text-foreground')}
        onClick={() => onSort(id, active ? (order === 'asc' ? 'desc' : 'asc') : numeric ? 'desc' : 'asc')}
      >
        <FormattedMessage id={labelId} />
        <span aria-hidden="true" className="w-3">
          {active ? (order === 'asc' ? '▲' : '▼') : ''}
        </span>
      </button>
    </Th>
  );
}

/** The standings; `readOnly` (a player reading published standings): no marks, names not linked to leadership's governor pages. */
function StandingsTable({
  data,
  sort,
  order,
  onSort,
  onMark,
  onUnmark,
  readOnly,
}: {
  data: StandingsAnswer;
  sort: StandingSort;
  order: 'asc' | 'desc';
  onSort: (s: StandingSort, o: 'asc' | 'desc') => void;
  onMark: (s: Standing) => void;
  onUnmark: (s: Standing) => void;
  readOnly: boolean;
}) {
  const intl = useIntl();
  const h = (id: StandingSort, labelId: string, numeric = true) => <SortHeader id={id} labelId={labelId} sort={sort} order={order} onSort={onSort} numeric={numeric} />;
  return (
    <Table minWidth="78rem" className="relative" aria-label={intl.formatMessage({ id: 'kvk.standings' })}>
      <thead>
        <tr>
          {h('name', 'stat.governor', false)}
          {h('alliance', 'stat.alliance', false)}
          {h('startPower', 'kvk.col.startPower')}
          {h('t4Kills', 'stat.t4Kills')}
          {h('t5Kills', 'stat.t5Kills')}
          {h('deads', 'stat.deads')}
          {h('killpoints', 'stat.killpoints')}
          {h('powerGain', 'kvk.col.powerGain')}
          {h('dkp', 'kvk.col.dkp')}
          {h('requiredKills', 'kvk.col.required')}
          {h('killsProgress', 'kvk.col.killsProgress', false)}
          {h('deadsProgress', 'kvk.col.deadsProgress', false)}
          {h('status', 'kvk.col.status', false)}
          {!readOnly && (
            <Th srOnly>
              <FormattedMessage id="kvk.col.actions" />
            </Th>
          )}
        </tr>
      </thead>
      <TableBody>
        {data.standings.map((s) => (
          <tr key={s.governorId} data-governor-id={s.governorId} data-status={s.status}>
            {/* (the table scrolls sideways anyway: a name keeps room to be read rather than shrinking to a few letters) */}
            <Td className="min-w-44 max-w-56">
              <GovernorName governorId={s.governorId} name={s.name} linked={!readOnly} />
            </Td>
            <Td>
              <bdi>{s.alliance || '—'}</bdi>
            </Td>
            <NumCell value={s.startPower} />
            <NumCell value={s.gains.t4Kills} />
            <NumCell value={s.gains.t5Kills} />
            <NumCell value={s.gains.deads} />
            <NumCell value={s.gains.killpoints} />
            <NumCell value={s.gains.power} signed />
            <NumCell value={s.dkp} className="font-medium" />
            <Td className="text-end text-xs">
              <span className="grid justify-items-end whitespace-nowrap">
                <span>
                  <Num value={s.required.kills} /> <FormattedMessage id="kvk.unit.kills" />
                </span>
                <span className="text-muted-foreground">
                  <Num value={s.required.deads} /> <FormattedMessage id="kvk.unit.deads" />
                </span>
              </span>
            </Td>
            <Td className="min-w-28">
              <ProgressBar value={s.progress.kills} labelId="kvk.col.killsProgress" />
            </Td>
            <Td className="min-w-28">
              <ProgressBar value={s.progress.deads} labelId="kvk.col.deadsProgress" />
            </Td>
            <Td>
              <span className="grid justify-items-start gap-0.5">
                <StatusTag status={s.status} />
                {s.reason && (
                  <bdi className="max-w-40 truncate text-xs text-muted-foreground" title={s.reason}>
                    {s.reason}
                  </bdi>
                )}
                {!s.inEndScan && (
                  <span className="text-xs text-muted-foreground">
                    <FormattedMessage id="kvk.notInEndScan" />
                  </span>
                )}
                {s.suggestedZeroed && (
                  <span className="text-xs text-warning">
                    <FormattedMessage id="kvk.suggestedTag" />
                  </span>
                )}
              </span>
            </Td>
            {!readOnly && (
              <Td className="text-end">
                {s.status === 'zeroed' || s.status === 'exempt' ? (
                  <Button size="sm" variant="ghost" onClick={() => onUnmark(s)}>
                    <FormattedMessage id="kvk.unmark" />
                  </Button>
                ) : (
                  <Button size="sm" variant="ghost" onClick={() => onMark(s)}>
                    <FormattedMessage id="kvk.mark" />
                  </Button>
                )}
              </Td>
            )}
          </tr>
        ))}
      </TableBody>
    </Table>
  );
}

function Suggested({ data, onConfirm }: { data: StandingsAnswer; onConfirm: (s: Standing) => void }) {
  const intl = useIntl();
  if (data.suggested.length === 0) return null;
  return (
    <Card className="min-w-0 border-warning/50" aria-labelledby="kvk-suggested-title">
      <CardTitle id="kvk-suggested-title" className="mb-2 text-base">
        <FormattedMessage id="kvk.suggested.title" values={{ count: data.counts.suggested }} />
      </CardTitle>
      <p className="mb-3 text-sm text-muted-foreground">
        <FormattedMessage
          id="kvk.suggested.rule"
          values={{ share: intl.formatNumber(ZEROED_SUGGESTION.minPowerDropShare, { style: 'percent' }), deads: intl.formatNumber(ZEROED_SUGGESTION.minDeadsGain) }}
        />
      </p>
      <ul className="grid gap-2">
        {data.suggested.map((s) => (
          <li key={s.governorId} className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <GovernorLink governorId={s.governorId} name={s.name} className="min-w-0 truncate" />
            <bdi className="text-muted-foreground">{s.alliance}</bdi>
            <span className="tabular-nums">
              <Num value={s.startPower} />{' '}
              <span aria-hidden="true" className="inline-block rtl:rotate-180">
                →
              </span>{' '}
              <Num value={s.power} />
            </span>
            <span className="text-muted-foreground">
              <FormattedMessage id="stat.deads" /> <Num value={s.gains.deads} signed />
            </span>
            <Button size="sm" variant="outline" className="ms-auto" onClick={() => onConfirm(s)}>
              <FormattedMessage id="kvk.suggested.confirm" />
            </Button>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function AllianceTotals({ data }: { data: StandingsAnswer }) {
  return (
    <Card className="min-w-0" aria-labelledby="kvk-alliances-title">
      <CardTitle id="kvk-alliances-title">
        <FormattedMessage id="kvk.alliances" />
      </CardTitle>
      <Table minWidth="44rem">
        <TableHead columns={['stat.alliance', ...endColumns(['stat.governors', 'kvk.col.metCount', 'kvk.col.startPower', 'stat.t4Kills', 'stat.t5Kills', 'stat.deads', 'kvk.col.dkp'])]} />
        <TableBody>
          {data.alliances.map((a) => (
            <tr key={a.alliance}>
              <Td>
                <bdi className="font-medium">{a.alliance || '—'}</bdi>
              </Td>
              <CountCell value={a.governors} />
              <CountCell value={a.met} />
              <NumCell value={a.startPower} />
              <NumCell value={a.gains.t4Kills} />
              <NumCell value={a.gains.t5Kills} />
              <NumCell value={a.gains.deads} />
              <NumCell value={a.dkp} className="font-medium" />
            </tr>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}

function Arrivals({ data, readOnly }: { data: StandingsAnswer; readOnly: boolean }) {
  return (
    <Card className="min-w-0">
      <CardTitle className="mb-2">
        <FormattedMessage id="kvk.arrivals.title" values={{ count: data.arrivals.length }} />
      </CardTitle>
      <Hint id="kvk.arrivals.hint" className="mb-3" />
      {data.arrivals.length === 0 ? (
        <Empty textId="kvk.arrivals.none" />
      ) : (
        <Table minWidth="44rem">
          <TableHead columns={['stat.governor', 'stat.alliance', 'kvk.col.firstSeen', ...endColumns(['stat.power', 'stat.t4Kills', 'stat.t5Kills', 'stat.deads', 'kvk.col.dkp'])]} />
          <TableBody>
            {data.arrivals.map((a) => (
              <tr key={a.governorId}>
                <Td>{readOnly ? <bdi className="font-medium">{a.name || `#${a.governorId}`}</bdi> : <GovernorLink governorId={a.governorId} name={a.name} />}</Td>
                <Td>
                  <bdi>{a.alliance || '—'}</bdi>
                </Td>
                <Td className="text-xs">
                  <FormattedDate value={a.firstScan.takenAt} dateStyle="medium" />
                </Td>
                <NumCell value={a.power} />
                <NumCell value={a.gains.t4Kills} />
                <NumCell value={a.gains.t5Kills} />
                <NumCell value={a.gains.deads} />
                <NumCell value={a.dkp} className="font-medium" />
              </tr>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}

/**
 * My Kingdom → KvK Dashboard: a season's standings, suggestions, totals per alliance and arrivals; every figure from the server.
 * A player (not leadership) reads the published seasons here, read-only: the server leaves out marks' reasons and suggestions.
 */
export default function KvkDashboardPage({ titleId }: { titleId: string }) {
  const intl = useIntl();
  const readOnly = !isLeadership(useRank());
  const kvk = useApi(createKvkApi);
  const seasons = useQuery({ queryKey: kvkKeys.seasons, queryFn: () => kvk.seasons() });
  const [picked, setPicked] = useState<number | undefined>(undefined);
  const list = seasons.data ?? [];
  const season = list.find((s) => s.id === picked) ?? defaultSeason(list);
  const [windowName, setWindowName] = useState('');
  const [q, setQ] = useState('');
  const [alliance, setAlliance] = useState('');
  const [status, setStatus] = useState('');
  const [sort, setSort] = useState<StandingSort>('dkp');
  const [order, setOrder] = useState<'asc' | 'desc'>('desc');
  const [page, setPage] = useState(1);
  const [marking, setMarking] = useState<{ s: Standing; mark: 'zeroed' | 'exempt'; reason: string } | null>(null);
  const debouncedQ = useDebounced(q);
  const debouncedAlliance = useDebounced(alliance);
  const filters = useMemo<StandingsFilters>(
    () => ({ window: windowName, q: debouncedQ, alliance: debouncedAlliance, status: status as StandingsFilters['status'], sort, order }),
    [windowName, debouncedQ, debouncedAlliance, status, sort, order],
  );
  // a new filter, sort or season starts at the first page
  useEffect(() => setPage(1), [filters, season?.id]);
  const standings = useQuery({
    queryKey: kvkKeys.standings(season?.id, filters, page, KVK_PAGE_SIZE),
    queryFn: () => kvk.standings(season!.id, filters, page, KVK_PAGE_SIZE),
    enabled: season !== undefined,
    placeholderData: keepPreviousData,
  });
  const unmark = useUnmark(season?.id);
  const data = standings.data;

  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <PageTitle titleId={titleId} />
      <KvkAlert error={seasons.error ?? standings.error ?? unmark.error} />
      {seasons.isSuccess && list.length === 0 ? (
        <Card>
          <Empty textId={readOnly ? 'kvk.noPublished' : 'kvk.noSeasons'} />
        </Card>
      ) : (
        season && (
          <>
            <div className="flex flex-wrap items-end gap-3">
              <SeasonPicker
                seasons={list}
                value={season.id}
                onChange={(id) => {
                  setPicked(id);
                  setWindowName('');
                }}
              />
              <Field id="kvk-window" labelId="kvk.window">
                <NativeSelect id="kvk-window" className="w-full min-w-0 sm:w-56" value={windowName} onChange={(e) => setWindowName(e.target.value)}>
                  <option value="">{intl.formatMessage({ id: 'kvk.wholeSeason' })}</option>
                  {season.windows.map((w) => (
                    <option key={w.name} value={w.name}>
                      {w.name}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
            </div>
            {readOnly && (
              <p className="text-sm text-muted-foreground">
                <FormattedMessage id="kvk.publishedView" />
              </p>
            )}
            {data && <Period data={data} />}
            {data && <Counts counts={data.counts} status={status} onStatus={setStatus} />}
            {data && !readOnly && <Suggested data={data} onConfirm={(s) => setMarking({ s, mark: 'zeroed', reason: intl.formatMessage({ id: 'kvk.suggested.reason' }) })} />}
            <Card className="min-w-0">
              <CardHeader title={<FormattedMessage id="kvk.standings" />}>
                {!readOnly && (
                <div className="flex flex-wrap gap-2">
                  {[10, 25].map((top) => (
                    <ShareCardButton
                      key={top}
                      label={intl.formatMessage({ id: 'cards.shareTop' }, { n: top })}
                      card={{ kind: 'kvk', seasonId: season.id, window: windowName || undefined, alliance: debouncedAlliance.trim() || undefined, top }}
                    />
                  ))}
                  <ExportButtons name={`kvk-season-${season.id}`} fetchFile={(file) => kvk.standingsFile(season.id, filters, file)} />
                  <PostKvkButton seasonId={season.id} window={windowName} alliance={debouncedAlliance.trim()} />
                </div>
                )}
              </CardHeader>
              <div className="mb-3 grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
                <GovernorSearch value={q} onChange={setQ} />
                <AllianceFilter value={alliance} onChange={setAlliance} />
                <NativeSelect className="w-full min-w-0" value={status} onChange={(e) => setStatus(e.target.value)} aria-label={intl.formatMessage({ id: 'kvk.col.status' })}>
                  <option value="">{intl.formatMessage({ id: 'kvk.anyStatus' })}</option>
                  {STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {intl.formatMessage({ id: `kvk.status.${s}` })}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              {data && (
                <>
                  <p className="mb-2 text-sm text-muted-foreground" role="status">
                    <FormattedMessage id="dashboard.governorsTotal" values={{ count: data.total }} />
                    {standings.isFetching && ' …'}
                  </p>
                  <StandingsTable
                    data={data}
                    sort={sort}
                    order={order}
                    onSort={(s, o) => {
                      setSort(s);
                      setOrder(o);
                    }}
                    onMark={(s) => setMarking({ s, mark: 'exempt', reason: '' })}
                    onUnmark={(s) => unmark.mutate(s.governorId)}
                    readOnly={readOnly}
                  />
                  {data.total === 0 && <Empty textId="dashboard.noGovernors" />}
                  <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />
                </>
              )}
            </Card>
            {data && <AllianceTotals data={data} />}
            {data && <Arrivals data={data} readOnly={readOnly} />}
            {!readOnly && (
            <MarkDialog
              seasonId={season.id}
              governor={marking ? marking.s : null}
              initialMark={marking?.mark ?? 'exempt'}
              initialReason={marking?.reason}
              onOpenChange={(open) => !open && setMarking(null)}
            />
            )}
          </>
        )
      )}
    </div>
  );
}
