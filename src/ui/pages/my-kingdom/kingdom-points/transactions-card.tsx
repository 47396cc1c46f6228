import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { TRANSACTION_KINDS, createPointsApi, pointsKeys, type TransactionFilters, type TransactionKind } from '../../../../api/points';
import { dayEnd, dayStart } from '../../../../api/rest';
import { Card, CardTitle } from '../../../components/card';
import { Input } from '../../../components/input';
import { NativeSelect } from '../../../components/native-select';
import { Pagination } from '../../../components/pagination';
import { Table, Td, Th } from '../../../components/table';
import { useApi } from '../../../lib/use-api';
import { cn } from '../../../lib/cn';
import { Field } from '../../../components/field';
import { ExportButtons } from '../../../components/export-csv-button';
import { useDebounced } from '../../../lib/use-debounced';
import { periodBackwards, today } from '../../../lib/period';
import { QueryError } from '../../../components/query-error';
import { useServerText } from '../../../lib/server-text';

interface Draft {
  username: string;
  kind: TransactionKind | '';
  actor: string;
  from: string;
  to: string;
}
const EMPTY: Draft = { username: '', kind: '', actor: '', from: '', to: '' };

export function toTransactionFilters(d: Draft): TransactionFilters {
  return {
    username: d.username.trim() || undefined,
    kind: d.kind || undefined,
    actor: d.actor.trim() || undefined,
    from: dayStart(d.from),
    to: dayEnd(d.to),
  };
}

/** Every ledger transaction, newest first, filtered by player, kind, who and dates; paginated; CSV. */
export function TransactionsCard() {
  const points = useApi(createPointsApi);
  const intl = useIntl();
  const say = useServerText();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [page, setPage] = useState(1);
  const filters = toTransactionFilters(useDebounced(draft));
  // a period that ends before it starts matches nothing: say so at once and ask the server nothing
  const backwards = periodBackwards(draft.from, draft.to) || periodBackwards(filters.from, filters.to);
  const filtered = Object.values(filters).some((v) => v !== undefined);
  const list = useQuery({
    queryKey: pointsKeys.transactions(filters, page),
    queryFn: () => points.transactions(filters, page),
    enabled: !backwards,
    placeholderData: keepPreviousData,
  });
  const set = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    setPage(1);
  };
  const rows = list.data?.transactions ?? [];

  return (
    <Card aria-label={intl.formatMessage({ id: 'points.transactions' })}>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <CardTitle className="mb-0">
          <FormattedMessage id="points.transactions" />
        </CardTitle>
        <ExportButtons fetchFile={(file) => points.transactionsFile(filters, file)} name={`transactions-${today()}`} disabled={backwards} />
      </div>
      <div className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <Field id="tx-player" labelId="points.filter.player">
          <Input value={draft.username} onChange={(e) => set({ username: e.target.value })} dir="auto" />
        </Field>
        <Field id="tx-kind" labelId="points.filter.kind">
          <NativeSelect className="h-10 w-full" value={draft.kind} onChange={(e) => set({ kind: e.target.value as Draft['kind'] })}>
            <option value="">{intl.formatMessage({ id: 'points.kind.any' })}</option>
            {TRANSACTION_KINDS.map((k) => (
              <option key={k} value={k}>
                {intl.formatMessage({ id: `points.kind.${k}` })}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="tx-actor" labelId="points.filter.actor">
          <Input value={draft.actor} onChange={(e) => set({ actor: e.target.value })} dir="auto" />
        </Field>
        <Field id="tx-from" labelId="list.from" error={backwards ? intl.formatMessage({ id: 'list.fromAfterTo' }) : undefined}>
          <Input type="date" value={draft.from} max={draft.to || undefined} onChange={(e) => set({ from: e.target.value })} />
        </Field>
        <Field id="tx-to" labelId="list.to">
          <Input type="date" value={draft.to} min={draft.from || undefined} onChange={(e) => set({ to: e.target.value })} />
        </Field>
      </div>
      {!backwards && list.isError && <QueryError error={list.error} />}
      {backwards || list.isError ? null : list.isSuccess && rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <FormattedMessage id={filtered ? 'points.noTransactions' : 'points.noTransactionsYet'} />
        </p>
      ) : (
        <Table minWidth="52rem" aria-label={intl.formatMessage({ id: 'points.transactions' })} loading={list.isPending} columns={7}>
          <thead>
            <tr>
              {['at', 'player', 'kind', 'delta', 'balanceAfter', 'reason', 'actor'].map((c) => (
                <Th key={c}>
                  <FormattedMessage id={`points.col.${c}`} />
                </Th>
              ))}
            </tr>
          </thead>
          <tbody className={cn('divide-y divide-border', list.isPlaceholderData && 'opacity-60')}>
            {rows.map((t) => (
              <tr key={t.id}>
                <Td className="whitespace-nowrap text-xs">
                  <FormattedDate value={t.at} year="numeric" month="short" day="numeric" hour="2-digit" minute="2-digit" />
                </Td>
                <Td>
                  <bdi className="font-medium">{t.username}</bdi>
                </Td>
                <Td>
                  <span className="rounded bg-muted px-1.5 py-0.5 text-xs">
                    <FormattedMessage id={`points.kind.${t.kind}`} />
                  </span>
                </Td>
                <Td className={cn('tabular-nums font-medium', t.delta < 0 ? 'text-danger' : 'text-success')}>
                  <FormattedNumber value={t.delta} signDisplay="exceptZero" />
                </Td>
                <Td className="tabular-nums">
                  <FormattedNumber value={t.balanceAfter} />
                </Td>
                <Td dir="auto" className="max-w-72 text-start break-words">
                  {t.kind === 'purchase' || t.kind === 'automatic' ? say(t.reason) : t.reason}
                </Td>
                <Td>{t.actor ? <bdi>{t.actor}</bdi> : <FormattedMessage id="points.system" />}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {!backwards && list.data && <Pagination page={list.data.page} pageSize={list.data.pageSize} total={list.data.total} onPage={setPage} />}
    </Card>
  );
}
