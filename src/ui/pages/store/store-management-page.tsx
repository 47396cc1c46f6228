import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useRef, useState, type FormEvent } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import type { ItemRef } from '../../../machines/board.machine';
import { RANKS } from '../../../protocol/ranks';
import { ITEM_STATES, createItemBody, type CreateItemBody, type EditItemBody, type ItemState, type StoreItem } from '../../../protocol/store';
import { useChild, useRuntime } from '../../app-context';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { Checkbox } from '../../components/checkbox';
import { Input } from '../../components/input';
import { Label } from '../../components/label';
import { Spinner } from '../../components/loader';
import type { KingdomSettings } from '../../../api/kingdom';
import { UPLOAD_MAX_BYTES, UPLOAD_TYPES } from '../../../api/store-office';
import { assetUrl, backOffice } from '../../lib/back-office';
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

/** The form for a new item, with the kingdom's auction defaults (Kingdom Settings) where it has them. */
export function blankForm(settings: KingdomSettings | undefined): Form {
  if (!settings) return EMPTY;
  const d = settings.defaults;
  return { ...EMPTY, minIncrement: String(d.minIncrement), durationMinutes: String(d.duration / 60), extendWindow: String(d.extendWindow), maxExtensions: String(d.maxExtensions) };
}

/** A datetime-local value (local time, minutes) for epoch ms. */
function localInput(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A scheduled item back in the form, to edit it. */
export function formFrom(item: StoreItem): Form {
  return {
    itemName: item.itemName,
    description: item.description,
    imageUrl: item.imageUrl ?? '',
    start_price: String(item.start_price),
    minIncrement: String(item.minIncrement),
    startsAt: localInput(item.startsAt),
    durationMinutes: String(Math.round((item.endsAt - item.startsAt) / 600) / 100),
    extendWindow: String(item.extendWindow),
    maxExtensions: String(item.maxExtensions),
    ranks: [...(item.eligibility.ranks ?? [])],
    groups: (item.eligibility.groups ?? []).join(', '),
  };
}

/** A duplicate is scheduled this far ahead, so it can be edited before it starts. */
export const DUPLICATE_LEAD_MS = 60 * 60_000;

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

type Errors = Partial<Record<keyof Form, string>>;

/** Upload an image (POST store/uploads): type and size checked here first, then by the server. */
function ImageField({ value, error, onChange }: { value: string; error?: string; onChange: (url: string) => void }) {
  const intl = useIntl();
  const token = useSelector(useChild('auth'), (s) => s.context.token);
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (file: File) => backOffice().store.upload(token!, file),
    onSuccess: (url) => onChange(url),
    onError: (e) => setProblem((e as Error).message),
  });
  function choose(file: File | undefined) {
    setProblem(null);
    if (!file) return;
    if (!(UPLOAD_TYPES as readonly string[]).includes(file.type)) return setProblem(intl.formatMessage({ id: 'manage.upload.type' }));
    if (file.size > UPLOAD_MAX_BYTES) return setProblem(intl.formatMessage({ id: 'manage.upload.size' }, { size: file.size / (1024 * 1024) }));
    upload.mutate(file);
  }
  const shown = problem ?? error;
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor="item-imageUrl">
        <FormattedMessage id="manage.imageUrl" />
      </Label>
      <div className="flex gap-3">
        {value ? (
          <img src={assetUrl(value)} alt={intl.formatMessage({ id: 'manage.upload.preview' })} className="h-10 w-10 shrink-0 rounded-md bg-muted object-cover" data-testid="image-preview" />
        ) : (
          <span aria-hidden="true" className="h-10 w-10 shrink-0 rounded-md border border-dashed border-border" />
        )}
        <Input id="item-imageUrl" value={value} dir="ltr" aria-invalid={!!shown} onChange={(e) => onChange(e.target.value)} className="min-w-0" />
        <Button type="button" variant="outline" className="shrink-0" disabled={upload.isPending} onClick={() => input.current?.click()} data-testid="image-upload">
          <FormattedMessage id={upload.isPending ? 'manage.upload.busy' : 'manage.upload'} />
        </Button>
        <input
          ref={input}
          type="file"
          accept={UPLOAD_TYPES.join(',')}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="image-file"
          onChange={(e) => {
            choose(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </div>
      <p className="text-xs text-muted-foreground">
        <FormattedMessage id="manage.upload.hint" />
      </p>
      {shown && (
        <p role="alert" className="text-xs text-danger" data-testid="image-error">
          {shown}
        </p>
      )}
    </div>
  );
}

/** Create an item, or edit a scheduled one (the server refuses once it started). */
function ItemForm({ initial, editing, onDone }: { initial: Form; editing: StoreItem | null; onDone: () => void }) {
  const { storeApi } = useRuntime();
  const queryClient = useQueryClient();
  const notifications = useChild('notifications');
  const token = useSelector(useChild('auth'), (s) => s.context.token);
  const [form, setForm] = useState<Form>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const save = useMutation({
    mutationFn: (body: CreateItemBody | EditItemBody) => (editing ? backOffice().store.editItem(token!, editing.itemId, body) : storeApi.createItem(token!, body as CreateItemBody)),
    onSuccess: (item) => {
      setForm(initial);
      notifications.send({
        type: 'NOTIFY',
        notification: editing
          ? { kind: 'success', titleId: 'manage.edit', textId: 'manage.updated', values: { itemName: item.itemName } }
          : { kind: 'success', titleId: 'manage.create', textId: 'manage.created', values: { itemName: item.itemName } },
      });
      void queryClient.invalidateQueries({ queryKey: ['store', 'items'] });
      onDone();
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const body = toBody(form);
    const parsed = createItemBody.safeParse(body);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'itemName');
        const field = FIELD_OF[key] ?? (key as keyof Form);
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    // an edit sends what was emptied too, or the server would keep it
    const groups = form.groups.split(',').map((g) => g.trim()).filter(Boolean);
    save.mutate(
      editing ? { ...body, description: form.description.trim(), imageUrl: form.imageUrl.trim() || null, eligibility: { ranks: form.ranks as never, groups } } : body,
    );
  }

  const text = (key: keyof Form, labelId: string, props: Record<string, unknown> = {}) => (
    <div className="grid content-start gap-1.5">
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
    <Card id="item-form" className={cn(editing && 'border-primary/60')}>
      <CardTitle>
        {editing ? (
          <FormattedMessage id="manage.editing" values={{ itemName: <bdi>{editing.itemName}</bdi> }} />
        ) : (
          <FormattedMessage id="manage.create" />
        )}
      </CardTitle>
      <form noValidate onSubmit={submit} className="grid gap-4" data-testid={editing ? 'item-edit-form' : 'create-item'}>
        {save.isError && (
          <Alert variant="error">
            <FormattedMessage id="manage.failed" values={{ error: (save.error as Error).message }} />
          </Alert>
        )}
        <div className="grid gap-4 md:grid-cols-2">
          {text('itemName', 'manage.itemName', { maxLength: 100, dir: 'auto' })}
          <ImageField value={form.imageUrl} error={errors.imageUrl} onChange={(imageUrl) => setForm((f) => ({ ...f, imageUrl }))} />
          <div className="md:col-span-2">{text('description', 'manage.description', { dir: 'auto' })}</div>
          {text('start_price', 'manage.startPrice', { type: 'number', min: 0, inputMode: 'numeric' })}
          {text('minIncrement', 'manage.minIncrement', { type: 'number', min: 1, inputMode: 'numeric' })}
          <div className="grid content-start gap-1.5">
            {text('startsAt', 'manage.startsAt', { type: 'datetime-local' })}
            <p className="text-xs text-muted-foreground">
              <FormattedMessage id={editing ? 'manage.startsAtEditHint' : 'manage.startsAtHint'} />
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
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={save.isPending} data-testid="create-submit">
            <FormattedMessage id={editing ? 'manage.saveChanges' : 'manage.submit'} />
          </Button>
          {editing && (
            <Button type="button" variant="ghost" onClick={onDone} data-testid="edit-stop">
              <FormattedMessage id="manage.stopEditing" />
            </Button>
          )}
        </div>
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

function ItemsTable({ onEdit }: { onEdit: (item: StoreItem) => void }) {
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
      notifications.send({ type: 'NOTIFY', notification: { kind: 'info', titleId: 'manage.cancelledTitle', textId: 'manage.cancelled', values: { itemName: item.itemName } } });
      void queryClient.invalidateQueries({ queryKey: ['store', 'items'] });
    },
    onError: (error) => notifications.send({ type: 'NOTIFY', notification: { kind: 'error', titleId: 'notify.error', text: (error as Error).message } }),
  });
  const duplicate = useMutation({
    mutationFn: (itemId: number) => backOffice().store.duplicateItem(token!, itemId, Date.now() + DUPLICATE_LEAD_MS),
    onSuccess: (item) => {
      notifications.send({ type: 'NOTIFY', notification: { kind: 'success', titleId: 'manage.duplicate', textId: 'manage.duplicated', values: { itemName: item.itemName } } });
      void queryClient.invalidateQueries({ queryKey: ['store', 'items'] });
      onEdit(item);
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
          <table className="w-full min-w-[48rem] text-sm" data-testid="items-table">
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
                  <td className="whitespace-nowrap px-3 py-2 text-xs">
                    <FormattedDate value={it.startsAt} month="short" day="numeric" hour="2-digit" minute="2-digit" />
                  </td>
                  <td className="whitespace-nowrap px-3 py-2 text-xs">
                    <FormattedDate value={it.endsAt} month="short" day="numeric" hour="2-digit" minute="2-digit" />
                  </td>
                  <td className="px-3 py-2">
                    <div className="flex justify-end gap-1.5">
                    {it.state === 'scheduled' && (
                      <Button size="sm" variant="outline" onClick={() => onEdit(it)} data-testid="edit-item">
                        <FormattedMessage id="manage.edit" />
                      </Button>
                    )}
                    <Button size="sm" variant="outline" disabled={duplicate.isPending} onClick={() => duplicate.mutate(it.itemId)} data-testid="duplicate-item">
                      <FormattedMessage id="manage.duplicate" />
                    </Button>
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
                    </div>
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

/** /my-kingdom/kingdom-points/store-management: create, edit (while scheduled), duplicate and cancel items, and watch them live. */
export default function StoreManagementPage({ titleId }: { titleId: string }) {
  const token = useSelector(useChild('auth'), (s) => s.context.token);
  const [editing, setEditing] = useState<StoreItem | null>(null);
  const settings = useQuery({ queryKey: ['kingdom', 'settings'], queryFn: () => backOffice().kingdom.settings(token!), enabled: !!token, retry: 0 });
  function edit(item: StoreItem) {
    setEditing(item);
    document.getElementById('item-form')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }
  return (
    <div className="grid grid-cols-1 gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id={titleId} />
      </h1>
      {settings.isPending && token ? (
        <Card>
          <Spinner />
        </Card>
      ) : (
        <ItemForm
          key={editing ? `edit-${editing.itemId}` : 'new'}
          initial={editing ? formFrom(editing) : blankForm(settings.data)}
          editing={editing}
          onDone={() => setEditing(null)}
        />
      )}
      <ItemsTable onEdit={edit} />
    </div>
  );
}
