import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { createColumnHelper, rowSortingFeature, tableFeatures, useTable, type SortingState } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { statsKeys, type GovernorFilters, type GovernorRow, type GovernorSort } from '../../../api/scans';
import { cn } from '../../lib/cn';
import { useScansApi, GovernorLink } from '../../components/stats/scan-parts';
import { Change, Num } from '../../components/stats/num';
import { QueryError } from '../../components/query-error';
import { ShareCardButton } from '../../components/stats/share-card';

export const GOVERNORS_PAGE = 200;
const ROW_HEIGHT = 44;

const features = tableFeatures({ rowSortingFeature });
const helper = createColumnHelper<typeof features, GovernorRow>();

/** Stat columns of the table, in the order shown. */
export const TABLE_STATS = ['power', 'killpoints', 'deads', 't1Kills', 't2Kills', 't3Kills', 't4Kills', 't5Kills', 'helps', 'rssAssistance'] as const;

const statColumn = (stat: (typeof TABLE_STATS)[number]) =>
  helper.accessor(stat, {
    header: () => <FormattedMessage id={`stat.${stat}`} />,
    sortDescFirst: true,
    cell: (info) => (
      <span className="grid justify-items-end">
        <Num value={info.getValue()} />
        <Change value={info.row.original.change?.[stat]} />
      </span>
    ),
  });

const columns = helper.columns([
  helper.accessor('name', {
    header: () => <FormattedMessage id="stat.governor" />,
    sortDescFirst: false,
    cell: (info) => (
      <span className="grid min-w-0">
        <GovernorLink governorId={info.row.original.governorId} name={info.getValue()} className="truncate" />
        <span dir="ltr" className="text-start text-xs tabular-nums text-muted-foreground">
          {info.row.original.governorId}
        </span>
      </span>
    ),
  }),
  helper.accessor('alliance', {
    header: () => <FormattedMessage id="stat.alliance" />,
    sortDescFirst: false,
    cell: (info) => (
      <bdi className="block truncate" title={info.getValue() || undefined}>
        {info.getValue() || '—'}
      </bdi>
    ),
  }),
  ...TABLE_STATS.map(statColumn),
  helper.display({
    id: 'share',
    header: () => (
      <span className="sr-only">
        <FormattedMessage id="cards.share" />
      </span>
    ),
    cell: (info) => <ShareCardButton card={{ kind: 'governor', governorId: info.row.original.governorId }} variant="ghost" />,
  }),
]);

const WIDTHS: Record<string, string> = { name: '14rem', alliance: '6rem', share: '8.5rem' };
const width = (id: string) => WIDTHS[id] ?? '7.5rem';
const noRows: GovernorRow[] = [];

function useGovernorTable(data: GovernorRow[], sorting: SortingState, onSorting: (s: SortingState) => void) {
  return useTable({
    features,
    columns,
    data,
    getRowId: (row) => String(row.governorId),
    manualSorting: true,
    enableMultiSort: false,
    enableSortingRemoval: false,
    state: { sorting },
    onSortingChange: (updater) => onSorting(typeof updater === 'function' ? updater(sorting) : updater),
  });
}
type GovernorTable = ReturnType<typeof useGovernorTable>;
type TableRow = ReturnType<GovernorTable['getRowModel']>['rows'][number];

/**
 * One governor's row. Memoised: scrolling re-renders the table for every frame, and only the rows
 * that come into view need rendering, not the 40 already on screen (each a dozen formatted numbers).
 */
const RowView = memo(function RowView({ row, table }: { row: TableRow; table: GovernorTable }) {
  return (
    <tr style={{ height: ROW_HEIGHT }} data-testid="governor-row" data-governor-id={row.original.governorId}>
      {row.getAllCells().map((cell) => (
        <td key={cell.id} className={cn('overflow-hidden px-3 py-1', cell.column.id === 'name' || cell.column.id === 'alliance' ? 'text-start' : 'text-end')}>
          <table.FlexRender cell={cell} />
        </td>
      ))}
    </tr>
  );
});

/**
 * Every governor of a scan: the server sorts, filters and pages (GET /governors); the rows are
 * virtualised and pages load as the reader scrolls, so 5,000 governors stay smooth.
 */
export function GovernorsTable({ filters, sorting, onSorting }: { filters: Omit<GovernorFilters, 'sort' | 'order'>; sorting: SortingState; onSorting: (s: SortingState) => void }) {
  const intl = useIntl();
  const scansApi = useScansApi();
  const sort = sorting[0];
  const query = useMemo<GovernorFilters>(() => ({ ...filters, sort: sort?.id as GovernorSort | undefined, order: sort ? (sort.desc ? 'desc' : 'asc') : undefined }), [filters, sort]);
  const pages = useInfiniteQuery({
    queryKey: statsKeys.governorPages(query, GOVERNORS_PAGE),
    queryFn: ({ pageParam }) => scansApi.governors(query, pageParam, GOVERNORS_PAGE),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
    placeholderData: keepPreviousData,
  });
  const data = useMemo(() => pages.data?.pages.flatMap((p) => p.governors) ?? noRows, [pages.data]);
  const total = pages.data?.pages[0]?.total ?? 0;

  const table = useGovernorTable(data, sorting, onSorting);
  const rows = table.getRowModel().rows;

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const items = virtualizer.getVirtualItems();
  const lastVisible = items.length ? items[items.length - 1].index : 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  useEffect(() => {
    if (lastVisible >= rows.length - 1 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [lastVisible, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);
  // a new sort or filter starts at the top
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [query]);

  const headers = table.getHeaderGroups()[0].headers;
  const before = items.length ? items[0].start : 0;
  const after = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const colSpan = headers.length;

  return (
    <div className="grid gap-2">
      <QueryError error={pages.error} />
      <p className="text-sm text-muted-foreground" role="status">
        <FormattedMessage id="dashboard.governorsTotal" values={{ count: total }} />
        {pages.isFetching && ' …'}
      </p>
      <div ref={scroller} className="max-h-[70vh] overflow-auto rounded-md border border-border" data-testid="governors-table">
        <table aria-label={intl.formatMessage({ id: 'dashboard.governors' })} className="w-full table-fixed text-sm" style={{ minWidth: `${headers.reduce((s, h) => s + parseFloat(width(h.column.id)), 0)}rem` }}>
          <colgroup>
            {headers.map((h) => (
              <col key={h.id} style={{ width: width(h.column.id) }} />
            ))}
          </colgroup>
          <thead className="sticky top-0 z-10 bg-card shadow-[0_1px_0_var(--color-border)]">
            <tr>
              {headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const numeric = header.column.id !== 'name' && header.column.id !== 'alliance';
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
                    className={cn('px-3 py-2 text-xs font-medium text-muted-foreground', numeric ? 'text-end' : 'text-start')}
                  >
                    <button
                      type="button"
                      className={cn('inline-flex cursor-pointer items-center gap-1 hover:text-foreground', sorted && 'text-foreground')}
                      onClick={header.column.getToggleSortingHandler()}
                    >
                      <table.FlexRender header={header} />
                      <span aria-hidden="true" className="w-3">
                        {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : ''}
                      </span>
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {before > 0 && (
              <tr aria-hidden="true">
                <td colSpan={colSpan} style={{ height: before, padding: 0 }} />
              </tr>
            )}
            {items.map((item) => {
              const row = rows[item.index];
              if (!row) {
                return (
                  <tr key={`loading-${item.index}`} style={{ height: ROW_HEIGHT }}>
                    <td colSpan={colSpan} className="px-3 text-muted-foreground">
                      …
                    </td>
                  </tr>
                );
              }
              return <RowView key={row.id} row={row} table={table} />;
            })}
            {after > 0 && (
              <tr aria-hidden="true">
                <td colSpan={colSpan} style={{ height: after, padding: 0 }} />
              </tr>
            )}
          </tbody>
        </table>
        {pages.isSuccess && total === 0 && (
          <p className="p-4 text-sm text-muted-foreground">
            <FormattedMessage id="dashboard.noGovernors" />
          </p>
        )}
      </div>
    </div>
  );
}
