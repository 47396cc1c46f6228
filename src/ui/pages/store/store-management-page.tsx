import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber } from 'react-intl';
import type { ItemRef } from '../../../machines/board.machine';
import { RANKS } from '../../../protocol/ranks';
import { ITEM_STATES, createItemBody, type CreateItemBody, type ItemState, type StoreItem } from '../../../protocol/store';
import { useChild, useRuntime } from '../../app-context';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { Checkbox } from '../../components/checkbox';
import { Input } from '../../components/input';
import { Label } from '../../components/label';
import { cn } from '../../lib/cn';

interface Form {
  itemName: string;
  description: string;
  imageUrl: string;
  start_price: string;
  minIncrement: string;
  startsAt: string;
  durationMinutes: string;
  extendWindow: string;
  maxExtensions: string;
  ranks: string[];
  groups: string;
}

const EMPTY: Form = {
  itemName: '',
  description: '',
  imageUrl: '',
  start_price: '100',
  minIncrement: '10',
  startsAt: '',
  durationMinutes: '60',
  extendWindow: '60',
  maxExtensions: '10',
  ranks: [],
  groups: '',
};

const num = (v: string) => (v.trim() === '' ? Number.NaN : Number(v));

/** The form as the API's body; the shared schema judges it, here and again on the server. */
export function toBody(form: Form): CreateItemBody {
  const groups = form.groups.split(',').map((g) => g.trim()).filter(Boolean);
  return {
    itemName: form.itemName,
    ...(form.description.trim() ? { description: form.description.trim() } : {}),
    ...(form.imageUrl.trim() ? { imageUrl: form.imageUrl.trim() } : {}),
    type: 'auction',
    start_price: num(form.start_price),
    minIncrement: num(form.minIncrement),
    ...(form.startsAt ? { startsAt: new Date(form.startsAt).getTime() } : {}),
    duration: Math.round(num(form.durationMinutes) * 60),
    extendWindow: num(form.extendWindow),
    maxExtensions: num(form.maxExtensions),
    ...(form.ranks.length || groups.length ? { eligibility: { ...(form.ranks.length ? { ranks: form.ranks as never } : {}), ...(groups.length ? { groups } : {}) } } : {}),
  };
}

const FIELD_OF: Record<string, keyof Form> = { duration: 'durationMinutes', eligibility: 'ranks' };

function CreateItem() {
  const { storeApi } = useRuntime();
  const queryClient = useQueryClient();
  const notifications = useChild('notifications');
  const token = useSelector(useChild('auth'), (s) => s.context.token);
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Form, string>>>({});
  const create = useMutation({
    mutationFn: (body: CreateItemBody) => storeApi.createItem(token!, body),
    onSuccess: (item) => {
      setForm(EMPTY);
      notifications.send({ type: 'NOTIFY', notification: { kind: 'success', titleId: 'manage.create', textId: 'manage.created', values: { itemName: item.itemName } } });
      void queryClient.invalidateQueries({ queryKey: ['store', 'items'] });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = createItemBody.safeParse(toBody(form));
    if (!parsed.success) {
      const next: Partial<Record<keyof Form, string>> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'itemName');
        const field = FIELD_OF[key] ?? (key as keyof Form);
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(toBody(form));
  }

  const text = (key: keyof Form, labelId: string, props: Record<string, unknown> = {}) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`item-${key}`}>
        <FormattedMessage id={labelId} />
      </Label>
      <Input
        id={`item-${key}`}
        value={form[key] as string}
        aria-invalid={!!errors[key]}
        onChange={(e) => setForm({ ...form, [key]: e.target.value })}
        {...props}
      />
      {errors[key] && (
        <p role="alert" className="text-xs text-danger">
          {errors[key]}
        </p>
      )}
    </div>
  );

  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="manage.create" />
      </CardTitle>
      <form noValidate onSubmit={submit} className="grid gap-4" data-testid="create-item">
        {create.isError && (
          <Alert variant="error">
            <FormattedMessage id="manage.failed" values={{ error: (create.error as Error).message }} />
          </Alert>
        )}
        <div className="grid gap-4 md:grid-cols-2">
          {text('itemName', 'manage.itemName', { maxLength: 100 })}
          {text('imageUrl', 'manage.imageUrl', { type: 'url', dir: 'ltr' })}
          <div className="md:col-span-2">{text('description', 'manage.description')}</div>
          {text('start_price', 'manage.startPrice', { type: 'number', min: 0, inputMode: 'numeric' })}
          {text('minIncrement', 'manage.minIncrement', { type: 'number', min: 1, inputMode: 'numeric' })}
          <div className="grid gap-1.5">
            {text('startsAt', 'manage.startsAt', { type: 'datetime-local' })}
            <p className="text-xs text-muted-foreground">
              <FormattedMessage id="manage.startsAtHint" />
            </p>
          </div>
          {text('durationMinutes', 'manage.duration', { type: 'number', min: 1, step: 'any' })}
          {text('extendWindow', 'manage.extendWindow', { type: 'number', min: 0 })}
          {text('maxExtensions', 'manage.maxExtensions', { type: 'number', min: 0 })}
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">
              <FormattedMessage id="manage.eligibility" />
            </legend>
            <div className="flex flex-wrap gap-4">
              {RANKS.map((rank) => (
                <label key={rank} className="flex items-center gap-2 text-sm">
                  <Checkbox
                    checked={form.ranks.includes(rank)}
                    onCheckedChange={(on) => setForm({ ...form, ranks: on ? [...form.ranks, rank] : form.ranks.filter((r) => r !== rank) })}
                  />
                  <FormattedMessage id={`rank.${rank}`} />
                </label>
              ))}
            </div>
            <p className="text-xs text-muted-foreground">
              <FormattedMessage id="manage.eligibility.hint" />
            </p>
            {errors.ranks && <p className="text-xs text-danger">{errors.ranks}</p>}
          </fieldset>
          {text('groups', 'manage.groups')}
        </div>
        <Button type="submit" disabled={create.isPending} className="justify-self-start" data-testid="create-submit">
          <FormattedMessage id="manage.submit" />
        </Button>
      </form>
    </Card>
  );
}

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
      <td className="px-3 py-2 tabular-nums" data-testid="row-amount">
        <FormattedNumber value={amount} />
      </td>
      <td className="px-3 py-2">{username === 'server' ? '—' : username}</td>
    </>
  );
}

function ItemsTable() {
  const { storeApi } = useRuntime();
  const queryClient = useQueryClient();
  const notifications = useChild('notifications');
  const token = useSelector(useChild('auth'), (s) => s.context.token);
  const [filter, setFilter] = useState<ItemState | 'all'>('all');
  const [confirming, setConfirming] = useState<number | null>(null);
  const items = useQuery({ queryKey: ['store', 'items', 'all'], queryFn: () => storeApi.listItems(token!), enabled: !!token, refetchInterval: 15_000 });
  const cancel = useMutation({
    mutationFn: (itemId: number) => storeApi.cancelItem(token!, itemId),
    onSuccess: (item) => {
      setConfirming(null);
      notifications.send({ type: 'NOTIFY', notification: { kind: 'info', titleId: 'manage.cancel', textId: 'manage.cancelled', values: { itemName: item.itemName } } });
      void queryClient.invalidateQueries({ queryKey: ['store', 'items'] });
    },
    onError: (error) => notifications.send({ type: 'NOTIFY', notification: { kind: 'error', titleId: 'notify.error', text: (error as Error).message } }),
  });
  const shown = (items.data ?? []).filter((it) => filter === 'all' || it.state === filter).sort((a, b) => b.itemId - a.itemId);

  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="manage.items" />
      </CardTitle>
      <div role="tablist" className="mb-3 flex flex-wrap gap-1.5">
        {(['all', ...ITEM_STATES] as const).map((state) => (
          <Button key={state} role="tab" aria-selected={filter === state} size="sm" variant={filter === state ? 'primary' : 'outline'} onClick={() => setFilter(state)}>
            <FormattedMessage id={`state.${state}`} />
          </Button>
        ))}
      </div>
      {items.isError && (
        <Alert variant="error">
          <FormattedMessage id="store.loadFailed" values={{ error: (items.error as Error).message }} />
        </Alert>
      )}
      {shown.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <FormattedMessage id="manage.noItems" />
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[40rem] text-sm" data-testid="items-table">
            <thead className="text-start text-xs text-muted-foreground">
              <tr>
                {['item', 'state', 'amount', 'leader', 'start', 'end'].map((c) => (
                  <th key={c} className="px-3 py-2 text-start font-medium">
                    <FormattedMessage id={`manage.col.${c}`} />
                  </th>
                ))}
                <th />
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {shown.map((it) => (
                <tr key={it.itemId} data-testid="item-row" data-state={it.state}>
                  <td dir="auto" className="px-3 py-2 text-start font-medium">{it.itemName}</td>
                  <td className="px-3 py-2">
                    <span className={cn('rounded px-1.5 py-0.5 text-xs', it.state === 'live' ? 'bg-success/15 text-success' : 'bg-muted')}>
                      <FormattedMessage id={`state.${it.state}`} />
                    </span>
                  </td>
                  {it.state === 'live' ? <LiveCells item={it} /> : <LiveCellsView amount={it.amount} username={it.username} />}
                  <td className="px-3 py-2 text-xs">
                    <FormattedDate value={it.startsAt} month="short" day="numeric" hour="2-digit" minute="2-digit" />
                  </td>
                  <td className="px-3 py-2 text-xs">
                    <FormattedDate value={it.endsAt} month="short" day="numeric" hour="2-digit" minute="2-digit" />
                  </td>
                  <td className="px-3 py-2 text-end">
                    {(it.state === 'scheduled' || it.state === 'live') && (
                      <Button
                        size="sm"
                        variant={confirming === it.itemId ? 'danger' : 'outline'}
                        disabled={cancel.isPending}
                        onClick={() => (confirming === it.itemId ? cancel.mutate(it.itemId) : setConfirming(it.itemId))}
                        data-testid="cancel-item"
                      >
                        <FormattedMessage id={confirming === it.itemId ? 'manage.confirmCancel' : 'manage.cancel'} />
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

/** /my-kingdom/kingdom-points/store-management: create, schedule and cancel items, and watch them live. */
export default function StoreManagementPage({ titleId }: { titleId: string }) {
  return (
    <div className="grid gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id={titleId} />
      </h1>
      <CreateItem />
      <ItemsTable />
    </div>
  );
}
