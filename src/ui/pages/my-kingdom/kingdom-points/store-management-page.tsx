import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import type { ItemRef } from '../../../../machines/board.machine';
import { ITEM_STATES, type ItemState, type StoreItem } from '../../../../protocol/store';
import { TermLine } from '../../../components/terms';
import { termsOf } from '../../../lib/item-terms';
import { useChild } from '../../../app-context';
import { Alert } from '../../../components/alert';
import { ErrorText } from '../../../components/query-error';
import { Button } from '../../../components/button';
import { Card, CardTitle } from '../../../components/card';
import { Dialog, DialogBody, DialogContent, DialogHeader } from '../../../components/dialog';
import { Spinner } from '../../../components/loader';
import { Table, Th } from '../../../components/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/tabs';
import { createStoreApi, storeKeys } from '../../../../api/store';
import { useApi } from '../../../lib/use-api';
import { createKingdomApi, kingdomKeys } from '../../../../api/kingdom';
import { cn } from '../../../lib/cn';
import { ItemForm, blankForm, copyForm, formFrom } from './item-form';

/** A cell's column name, shown above its value where the table stacks into cards (phones, narrow windows). */
function StackLabel({ id }: { id: string }) {
  return (
    <span className="block text-xs text-muted-foreground lg:hidden">
      <FormattedMessage id={id} />
    </span>
  );
}

const CELL = 'px-3 py-2 max-lg:p-0';

/** For a live item, what the board knows now (amount and leader move with every bid). */
function LiveCells({ item }: { item: StoreItem }) {
  const ref = useSelector(useChild('board'), (s) => s.context.items[String(item.itemId)]);
  if (!ref) return <LiveCellsView amount={item.amount} username={item.username} />;
  return <BoardCells itemRef={ref} />;
}
function BoardCells({ itemRef }: { itemRef: ItemRef }) {
  const { amount, username } = useSelector(itemRef, (s) => s.context);
  return <LiveCellsView amount={amount} username={username} />;
}
function LiveCellsView({ amount, username }: { amount: number; username: string }) {
  return (
    <>
      <td className={cn(CELL, 'tabular-nums')}>
        <StackLabel id="manage.col.amount" />
        <span>
          <FormattedNumber value={amount} />
        </span>
      </td>
      <td className={cn(CELL, 'min-w-0 wrap-anywhere')}>
        <StackLabel id="manage.col.leader" />
        {username === 'server' ? '—' : <bdi>{username}</bdi>}
      </td>
    </>
  );
}

function ItemsTable({ onEdit, onDuplicate }: { onEdit: (item: StoreItem) => void; onDuplicate: (item: StoreItem) => void }) {
  const intl = useIntl();
  const storeApi = useApi(createStoreApi);
  const queryClient = useQueryClient();
  const notifications = useChild('notifications');
  const [filter, setFilter] = useState<ItemState | 'all'>('all');
  const [confirming, setConfirming] = useState<number | null>(null);
  const items = useQuery({ queryKey: storeKeys.list(), queryFn: () => storeApi.listItems(), refetchInterval: 15_000 });
  const cancel = useMutation({
    mutationFn: (itemId: number) => storeApi.cancelItem(itemId),
    onSuccess: (item) => {
      setConfirming(null);
      notifications.send({ type: 'NOTIFY', notification: { kind: 'info', titleId: 'manage.cancelledTitle', textId: 'manage.cancelled', values: { itemName: item.itemName } } });
      void queryClient.invalidateQueries({ queryKey: storeKeys.items });
    },
    onError: (error) => notifications.send({ type: 'NOTIFY', notification: { kind: 'error', titleId: 'notify.error', text: (error as Error).message } }),
  });
  const shown = (items.data ?? []).filter((it) => filter === 'all' || it.state === filter).sort((a, b) => b.itemId - a.itemId);
  const list = <ItemsList items={items} shown={shown} cancel={cancel} onDuplicate={onDuplicate} confirming={confirming} setConfirming={setConfirming} onEdit={onEdit} />;

  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="manage.items" />
      </CardTitle>
      <Tabs value={filter} onValueChange={(value) => setFilter(value as ItemState | 'all')}>
        <TabsList aria-label={intl.formatMessage({ id: 'manage.items' })} className="mb-3">
          {FILTERS.map((state) => (
            <TabsTrigger key={state} value={state}>
              <FormattedMessage id={`state.${state}`} />
            </TabsTrigger>
          ))}
        </TabsList>
        {/* one panel per filter; only the chosen one renders the list */}
        {FILTERS.map((state) => (
          <TabsContent key={state} value={state} className="pt-0">
            {list}
          </TabsContent>
        ))}
      </Tabs>
    </Card>
  );
}

const FILTERS = ['all', ...ITEM_STATES] as const;

function ItemsList({
  items,
  shown,
  cancel,
  onDuplicate,
  confirming,
  setConfirming,
  onEdit,
}: {
  items: { isError: boolean; error: unknown };
  shown: StoreItem[];
  cancel: { isPending: boolean; mutate: (itemId: number) => void };
  onDuplicate: (item: StoreItem) => void;
  confirming: number | null;
  setConfirming: (update: number | null | ((c: number | null) => number | null)) => void;
  onEdit: (item: StoreItem) => void;
}) {
  return (
    <>
      {items.isError && (
        <Alert variant="error">
          <FormattedMessage id="store.loadFailed" values={{ error: <ErrorText error={items.error} /> }} />
        </Alert>
      )}
      {shown.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <FormattedMessage id="manage.noItems" />
        </p>
      ) : (
        // a table where there is room; below the lg breakpoint each row stacks into a card, so its actions stay on screen
        <Table minWidth="0" className="max-lg:block" wrapperClassName="min-w-0 max-lg:overflow-visible">
          <thead className="max-lg:hidden">
            <tr>
              {['item', 'state', 'amount', 'leader', 'start', 'end'].map((c) => (
                <Th key={c}>
                  <FormattedMessage id={`manage.col.${c}`} />
                </Th>
              ))}
              <Th srOnly>
                <FormattedMessage id="manage.col.actions" />
              </Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border max-lg:block">
            {shown.map((it) => (
              <tr key={it.itemId} data-state={it.state} className="max-lg:grid max-lg:grid-cols-2 max-lg:gap-x-4 max-lg:gap-y-2 max-lg:py-3">
                <td className={cn(CELL, 'min-w-0 text-start wrap-anywhere max-lg:col-span-2')}>
                  <bdi className="font-medium">{it.itemName}</bdi>
                  <TermLine terms={termsOf(it)} />
                </td>
                <td className={CELL}>
                  <span className={cn('whitespace-nowrap rounded px-1.5 py-0.5 text-xs', it.state === 'live' ? 'bg-success/15 text-success' : 'bg-muted')}>
                    <FormattedMessage id={`state.${it.state}`} />
                  </span>
                </td>
                <td className="hidden max-lg:block" aria-hidden="true" />
                {it.state === 'live' ? <LiveCells item={it} /> : <LiveCellsView amount={it.amount} username={it.username} />}
                <td className={cn(CELL, 'whitespace-nowrap text-xs')}>
                  <StackLabel id="manage.col.start" />
                  <FormattedDate value={it.startsAt} month="short" day="numeric" hour="2-digit" minute="2-digit" />
                </td>
                <td className={cn(CELL, 'whitespace-nowrap text-xs')}>
                  <StackLabel id="manage.col.end" />
                  <FormattedDate value={it.endsAt} month="short" day="numeric" hour="2-digit" minute="2-digit" />
                </td>
                <td className={cn(CELL, 'max-lg:col-span-2')}>
                  <div className="flex flex-wrap gap-1.5 lg:flex-nowrap lg:justify-end">
                    {it.state === 'scheduled' && (
                      <Button size="sm" variant="outline" className="whitespace-nowrap" onClick={() => onEdit(it)}>
                        <FormattedMessage id="manage.edit" />
                      </Button>
                    )}
                    <Button size="sm" variant="outline" className="whitespace-nowrap" onClick={() => onDuplicate(it)}>
                      <FormattedMessage id="manage.duplicate" />
                    </Button>
                    {(it.state === 'scheduled' || it.state === 'live') && (
                      <Button
                        size="sm"
                        variant={confirming === it.itemId ? 'danger' : 'outline'}
                        className="whitespace-nowrap"
                        disabled={cancel.isPending}
                        onClick={() => (confirming === it.itemId ? cancel.mutate(it.itemId) : setConfirming(it.itemId))}
                        onBlur={() => setConfirming((c) => (c === it.itemId ? null : c))}
                      >
                        <FormattedMessage id={confirming === it.itemId ? 'manage.confirmCancel' : 'manage.cancel'} />
                      </Button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
          </Table>
      )}
    </>
  );
}

/** The dialog: a new item (blank, or a copy of one: nothing is created until it is saved), or a scheduled item's edit. */
type Editor = { mode: 'new'; copyOf?: StoreItem } | { mode: 'edit'; item: StoreItem };

/** /my-kingdom/kingdom-points/store-management: the items, live; create, edit (while scheduled) and duplicate (a new item's form, filled from it) in a dialog; cancel. */
export default function StoreManagementPage({ titleId }: { titleId: string }) {
  const kingdom = useApi(createKingdomApi);
  const [editor, setEditor] = useState<Editor | null>(null);
  const settings = useQuery({ queryKey: kingdomKeys.settings, queryFn: () => kingdom.settings(), retry: 0 });
  const editing = editor?.mode === 'edit' ? editor.item : null;
  const copyOf = editor?.mode === 'new' ? editor.copyOf : undefined;
  return (
    <div className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">
          <FormattedMessage id={titleId} />
        </h1>
        <Button onClick={() => setEditor({ mode: 'new' })}>
          <svg viewBox="0 0 24 24" className="h-4 w-4" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M12 5v14M5 12h14" />
          </svg>
          <FormattedMessage id="manage.create" />
        </Button>
      </div>
      <ItemsTable onEdit={(item) => setEditor({ mode: 'edit', item })} onDuplicate={(item) => setEditor({ mode: 'new', copyOf: item })} />
      <Dialog open={editor !== null} onOpenChange={(open) => !open && setEditor(null)}>
        <DialogContent aria-describedby={undefined}>
          {editor && settings.isPending && !editing ? (
            <>
              <DialogHeader>
                <FormattedMessage id="manage.create" />
              </DialogHeader>
              <DialogBody>
                <Spinner />
              </DialogBody>
            </>
          ) : (
            editor && (
              <ItemForm
                key={editing ? `edit-${editing.itemId}` : copyOf ? `copy-${copyOf.itemId}` : 'new'}
                initial={editing ? formFrom(editing) : copyOf ? copyForm(copyOf, Date.now()) : blankForm(settings.data)}
                editing={editing}
                copyOf={copyOf}
                onDone={() => setEditor(null)}
              />
            )
          )}
        </DialogContent>
      </Dialog>
    </div>
  );
}
