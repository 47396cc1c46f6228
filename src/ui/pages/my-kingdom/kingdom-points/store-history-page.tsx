import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { dayEnd, dayStart } from '../../../../api/rest';
import { HISTORY_OUTCOMES, createStoreOfficeApi, storeOfficeKeys, type HistoryFilters, type HistoryOutcome } from '../../../../api/store-office';
import { Card } from '../../../components/card';
import { Input } from '../../../components/input';
import { NativeSelect } from '../../../components/native-select';
import { Pagination } from '../../../components/pagination';
import type { HistoryEntry } from '../../../../protocol/store';
import { Table, Td, Th } from '../../../components/table';
import { useApi } from '../../../lib/use-api';
import { cn } from '../../../lib/cn';
import { Field } from '../../../components/field';
import { ExportButtons } from '../../../components/export-csv-button';
import { useDebounced } from '../../../lib/use-debounced';
import { periodBackwards, today } from '../../../lib/period';
import { QueryError } from '../../../components/query-error';
import { ShareCardButton } from '../../../components/stats/share-card';
import { TermTags } from '../../../components/terms';
import { termsOf } from '../../../lib/item-terms';

interface Draft {
  user: string;
  outcome: HistoryOutcome | '';
  from: string;
  to: string;
}
const EMPTY: Draft = { user: '', outcome: '', from: '', to: '' };

const toFilters = (d: Draft): HistoryFilters => ({ user: d.user.trim() || undefined, outcome: d.outcome || undefined, from: dayStart(d.from), to: dayEnd(d.to) });

/** /my-kingdom/kingdom-points/store-history: every sale and every unsold item, filtered, paginated, CSV. */
/** Every bid of a sealed item, shown to everyone once it has ended: highest first. */
function SealedBids({ bids }: { bids: NonNullable<HistoryEntry['sealedBids']> }) {
  return (
    <details className="mt-1 text-xs">
      <summary className="cursor-pointer text-muted-foreground">
        <FormattedMessage id="history.sealedBids" values={{ count: bids.length }} />
      </summary>
      <ol className="mt-1 grid gap-0.5">
        {bids.map((b, i) => (
          <li key={`${b.username}:${b.at}:${i}`} className="flex justify-between gap-3">
            <bdi>{b.username}</bdi>
            <span className="tabular-nums">
              <FormattedNumber value={b.amount} />
            </span>
          </li>
        ))}
      </ol>
    </details>
  );
}

export default function StoreHistoryPage({ titleId }: { titleId: string }) {
  const storeOffice = useApi(createStoreOfficeApi);
  const intl = useIntl();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [page, setPage] = useState(1);
  const filters = toFilters(useDebounced(draft));
  // a period that ends before it starts matches nothing: say so at once and ask the server nothing
  const backwards = periodBackwards(draft.from, draft.to) || periodBackwards(filters.from, filters.to);
  const filtered = Object.values(filters).some((v) => v !== undefined);
  const history = useQuery({
    queryKey: storeOfficeKeys.history(filters, page),
    queryFn: () => storeOffice.history(filters, page),
    enabled: !backwards,
    placeholderData: keepPreviousData,
  });
  const set = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    setPage(1);
  };
  const rows = history.data?.entries ?? [];

  return (
    <div className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">
          <FormattedMessage id={titleId} />
        </h1>
        <ExportButtons fetchFile={(file) => storeOffice.historyFile(filters, file)} name={`store-history-${today()}`} disabled={backwards} />
      </div>
      <Card>
        <div className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Field id="history-player" labelId="history.filter.player">
            <Input value={draft.user} onChange={(e) => set({ user: e.target.value })} dir="auto" />
          </Field>
          <Field id="history-outcome" labelId="history.filter.outcome">
            <NativeSelect className="h-10 w-full" value={draft.outcome} onChange={(e) => set({ outcome: e.target.value as Draft['outcome'] })}>
              <option value="">{intl.formatMessage({ id: 'history.outcome.any' })}</option>
              {HISTORY_OUTCOMES.map((o) => (
                <option key={o} value={o}>
                  {intl.formatMessage({ id: `history.outcome.${o}` })}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id="history-from" labelId="list.from" error={backwards ? intl.formatMessage({ id: 'list.fromAfterTo' }) : undefined}>
            <Input type="date" value={draft.from} max={draft.to || undefined} onChange={(e) => set({ from: e.target.value })} />
          </Field>
          <Field id="history-to" labelId="list.to">
            <Input type="date" value={draft.to} min={draft.from || undefined} onChange={(e) => set({ to: e.target.value })} />
          </Field>
        </div>
        {!backwards && history.isError && <QueryError error={history.error} />}
        {backwards || history.isError ? null : history.isSuccess && rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            <FormattedMessage id={filtered ? 'history.none' : 'history.noneYet'} />
          </p>
        ) : (
          <Table minWidth="46rem" loading={history.isPending} columns={6}>
            <thead>
              <tr>
                {['item', 'outcome', 'buyer', 'price', 'at'].map((c) => (
                  <Th key={c}>
                    <FormattedMessage id={`history.col.${c}`} />
                  </Th>
                ))}
                <Th>
                  <span className="sr-only">
                    <FormattedMessage id="cards.share" />
                  </span>
                </Th>
              </tr>
            </thead>
            <tbody className={cn('divide-y divide-border', history.isPlaceholderData && 'opacity-60')}>
              {rows.map((e) => (
                <tr key={e.itemId} data-testid="history-row" data-outcome={e.outcome}>
                  <Td className="text-start">
                    <bdi className="font-medium">{e.itemName}</bdi>
                    <TermTags terms={termsOf({ format: e.format })} className="ms-1.5" />
                    {e.sealedBids && e.sealedBids.length > 0 && <SealedBids bids={e.sealedBids} />}
                  </Td>
                  <Td>
                    <span className={cn('rounded px-1.5 py-0.5 text-xs', e.outcome === 'sold' ? 'bg-success/15 text-success' : 'bg-muted')}>
                      <FormattedMessage id={`history.outcome.${e.outcome}`} />
                    </span>
                  </Td>
                  <Td>{e.username ? <bdi>{e.username}</bdi> : '—'}</Td>
                  <Td className="tabular-nums">
                    {e.amount === null ? '—' : <FormattedNumber value={e.amount} />}
                    {e.winningMax !== undefined && (
                      <span className="block text-xs text-muted-foreground">
                        <FormattedMessage id="history.winningMax" values={{ max: e.winningMax }} />
                      </span>
                    )}
                  </Td>
                  <Td className="whitespace-nowrap text-xs">
                    <FormattedDate value={e.at} year="numeric" month="short" day="numeric" hour="2-digit" minute="2-digit" />
                  </Td>
                  <Td>{e.outcome === 'sold' && <ShareCardButton card={{ kind: 'items', itemId: e.itemId }} variant="ghost" />}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
        {!backwards && history.data && <Pagination page={history.data.page} pageSize={history.data.pageSize} total={history.data.total} onPage={setPage} />}
      </Card>
    </div>
  );
}
