import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import type { ItemRef } from '../../../../machines/board.machine';
import { RANKS } from '../../../../protocol/ranks';
import { ITEM_STATES, copyName, createItemBody, type CreateItemBody, type EditItemBody, type ItemState, type StoreItem } from '../../../../protocol/store';
import { useChild } from '../../../app-context';
import { Alert } from '../../../components/alert';
import { ErrorText } from '../../../components/query-error';
import { Button } from '../../../components/button';
import { Card, CardTitle } from '../../../components/card';
import { Checkbox } from '../../../components/checkbox';
import { Dialog, DialogBody, DialogContent, DialogHeader } from '../../../components/dialog';
import { Field } from '../../../components/field';
import { Input } from '../../../components/input';
import { Label } from '../../../components/label';
import { Spinner } from '../../../components/loader';
import { Table, Th } from '../../../components/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/tabs';
import type { KingdomSettings } from '../../../../api/kingdom';
import { createStoreApi } from '../../../../api/store';
import { UPLOAD_MAX_BYTES, UPLOAD_TYPES, createStoreOfficeApi } from '../../../../api/store-office';
import { assetUrl } from '../../../lib/back-office';
import { useApi } from '../../../lib/use-api';
import { createKingdomApi } from '../../../../api/kingdom';
import { cn } from '../../../lib/cn';
import { readDecimal, readWhole } from '../../../lib/numbers';
import { formErrors } from '../../../lib/form-errors';
import { useServerText } from '../../../lib/server-text';

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

/**
 * A new item's form filled from another item (Duplicate): its name with ' (copy)', its texts,
 * image, prices, timing and eligibility; its start when that is still ahead (a scheduled item's
 * copy is scheduled alike), else empty (now, unless the form says when).
 */
export function copyForm(item: StoreItem, now: number): Form {
  return { ...formFrom(item), itemName: copyName(item.itemName), startsAt: item.startsAt > now ? localInput(item.startsAt) : '' };
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

/** The form as the API's body, its numbers read as `locale` writes them; the shared schema judges it, here and again on the server. */
export function toBody(form: Form, locale: string): CreateItemBody {
  const whole = (v: string) => readWhole(v, locale);
  const groups = form.groups.split(',').map((g) => g.trim()).filter(Boolean);
  return {
    itemName: form.itemName,
    ...(form.description.trim() ? { description: form.description.trim() } : {}),
    ...(form.imageUrl.trim() ? { imageUrl: form.imageUrl.trim() } : {}),
    type: 'auction',
    start_price: whole(form.start_price),
    minIncrement: whole(form.minIncrement),
    ...(form.startsAt ? { startsAt: new Date(form.startsAt).getTime() } : {}),
    duration: Math.round(readDecimal(form.durationMinutes, locale) * 60),
    extendWindow: whole(form.extendWindow),
    maxExtensions: whole(form.maxExtensions),
    ...(form.ranks.length || groups.length ? { eligibility: { ...(form.ranks.length ? { ranks: form.ranks as never } : {}), ...(groups.length ? { groups } : {}) } } : {}),
  };
}

const FIELD_OF: Record<string, keyof Form> = { duration: 'durationMinutes' };

type Errors = Partial<Record<keyof Form, string>>;

/** The form field a schema issue belongs to (an eligibility issue is about the ranks or the groups). */
function fieldOf(path: readonly PropertyKey[]): keyof Form {
  const key = String(path[0] ?? 'itemName');
  if (key === 'eligibility') return path[1] === 'ranks' ? 'ranks' : 'groups';
  return FIELD_OF[key] ?? (key as keyof Form);
}

/** Who may bid, in words, for what the form has ticked and typed now. */
function EligibilityHint({ ranks, groups }: { ranks: string[]; groups: string }) {
  const intl = useIntl();
  const names = groups.split(',').map((g) => g.trim()).filter(Boolean);
  const rankList = intl.formatList(
    RANKS.filter((r) => ranks.includes(r)).map((r) => intl.formatMessage({ id: `rank.${r}` })),
    { type: 'disjunction' },
  );
  const groupList = intl.formatList(names, { type: 'disjunction' });
  const [id, values] =
    ranks.length === 0 && names.length === 0
      ? ['manage.eligibility.hint', {}]
      : names.length === 0
        ? ['manage.eligibility.ranks', { ranks: rankList }]
        : ranks.length === 0
          ? ['manage.eligibility.groups', { groups: groupList }]
          : ['manage.eligibility.ranksOrGroups', { ranks: rankList, groups: groupList }];
  return (
    <p className="text-xs text-muted-foreground" aria-live="polite">
      <FormattedMessage id={id as string} values={values as Record<string, ReactNode>} />
    </p>
  );
}

/** Upload an image (POST store/uploads): type and size checked here first, then by the server. */
function ImageField({ value, error, onChange }: { value: string; error?: string; onChange: (url: string) => void }) {
  const intl = useIntl();
  const storeOffice = useApi(createStoreOfficeApi);
  const input = useRef<HTMLInputElement>(null);
  const say = useServerText();
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (file: File) => storeOffice.upload(file),
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
  // an address that shows no image: a placeholder of the preview's size (never the alt text spilling out) and a word why
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null);
  const broken = !!value && brokenUrl === value;
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor="item-imageUrl">
        <FormattedMessage id="manage.imageUrl" />
      </Label>
      <div className="flex gap-3">
        {value && broken ? (
          <span
            role="img"
            aria-label={intl.formatMessage({ id: 'manage.upload.broken' })}
            className="flex h-10 w-10 shrink-0 items-center justify-center rounded-md border border-danger/50 bg-danger/5 text-danger"
          >
            <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M4 5h16v14H4zM4 15l4-4 3 3M14 12l2-2 4 4M3 3l18 18" />
            </svg>
          </span>
        ) : value ? (
          <img
            key={value}
            src={assetUrl(value)}
            alt={intl.formatMessage({ id: 'manage.upload.preview' })}
            className="h-10 w-10 shrink-0 overflow-hidden rounded-md bg-muted object-cover text-[0px]"
            onError={() => setBrokenUrl(value)}
          />
        ) : (
          <span aria-hidden="true" className="h-10 w-10 shrink-0 rounded-md border border-dashed border-border" />
        )}
        <Input
          id="item-imageUrl"
          value={value}
          dir="ltr"
          aria-invalid={!!shown}
          aria-describedby={['item-imageUrl-hint', shown ? 'item-imageUrl-error' : broken ? 'item-imageUrl-broken' : null].filter(Boolean).join(' ')}
          onChange={(e) => onChange(e.target.value)} className="min-w-0" />
        <Button type="button" variant="outline" className="shrink-0" disabled={upload.isPending} onClick={() => input.current?.click()}>
          <FormattedMessage id={upload.isPending ? 'manage.upload.busy' : 'manage.upload'} />
        </Button>
        <input
          ref={input}
          type="file"
          accept={UPLOAD_TYPES.join(',')}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            choose(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </div>
      <p id="item-imageUrl-hint" className="text-xs text-muted-foreground">
        <FormattedMessage id="manage.upload.hint" />
      </p>
      {broken && !shown && (
        <p id="item-imageUrl-broken" role="alert" className="text-xs text-danger">
          <FormattedMessage id="manage.upload.broken" />
        </p>
      )}
      {shown && (
        <p id="item-imageUrl-error" role="alert" className="text-xs text-danger">
          {say(shown)}
        </p>
      )}
    </div>
  );
}

/** Create an item, or edit a scheduled one (the server refuses once it started). */
function ItemForm({ initial, editing, copyOf, onDone }: { initial: Form; editing: StoreItem | null; copyOf?: StoreItem; onDone: () => void }) {
  const intl = useIntl();
  const say = useServerText();
  const storeApi = useApi(createStoreApi);
  const storeOffice = useApi(createStoreOfficeApi);
  const queryClient = useQueryClient();
  const notifications = useChild('notifications');
  const [form, setForm] = useState<Form>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const save = useMutation({
    mutationFn: (body: CreateItemBody | EditItemBody) => (editing ? storeOffice.editItem(editing.itemId, body) : storeApi.createItem(body as CreateItemBody)),
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
    const body = toBody(form, intl.locale);
    const parsed = createItemBody.safeParse(body);
    if (!parsed.success) {
      setErrors(formErrors(intl, say, parsed.error.issues, fieldOf));
      return;
    }
    // a start in the past: said here, in the form's words (the server would refuse it too)
    if (body.startsAt !== undefined && body.startsAt < Date.now()) {
      setErrors({ startsAt: intl.formatMessage({ id: 'manage.error.startsAt' }) });
      return;
    }
    setErrors({});
    // an edit sends what was emptied too, or the server would keep it
    const groups = form.groups.split(',').map((g) => g.trim()).filter(Boolean);
    save.mutate(
      editing ? { ...body, description: form.description.trim(), imageUrl: form.imageUrl.trim() || null, eligibility: { ranks: form.ranks as never, groups } } : body,
    );
  }

  const text = (key: keyof Form, labelId: string, props: Record<string, unknown> = {}, hintId?: string) => (
    <Field id={`item-${key}`} labelId={labelId} hintId={hintId} error={errors[key]}>
      <Input value={form[key] as string} onChange={(e) => setForm({ ...form, [key]: e.target.value })} {...props} />
    </Field>
  );

  return (
    <>
      <DialogHeader>
        {editing ? (
          <FormattedMessage id="manage.editing" values={{ itemName: <bdi>{editing.itemName}</bdi> }} />
        ) : copyOf ? (
          <FormattedMessage id="manage.copying" values={{ itemName: <bdi>{copyOf.itemName}</bdi> }} />
        ) : (
          <FormattedMessage id="manage.create" />
        )}
      </DialogHeader>
      <form noValidate onSubmit={submit} className="flex min-h-0 flex-1 flex-col">
        <DialogBody className="grid content-start gap-4">
          {save.isError && (
            <Alert variant="error">
              <FormattedMessage id="manage.failed" values={{ error: <ErrorText error={save.error} /> }} />
            </Alert>
          )}
          <div className="grid gap-4 md:grid-cols-2">
            {text('itemName', 'manage.itemName', { maxLength: 100, dir: 'auto' })}
            <ImageField value={form.imageUrl} error={errors.imageUrl} onChange={(imageUrl) => setForm((f) => ({ ...f, imageUrl }))} />
            <div className="md:col-span-2">{text('description', 'manage.description', { dir: 'auto' })}</div>
            {text('start_price', 'manage.startPrice', { inputMode: 'numeric' })}
            {text('minIncrement', 'manage.minIncrement', { inputMode: 'numeric' })}
            {text('startsAt', 'manage.startsAt', { type: 'datetime-local' }, editing ? 'manage.startsAtEditHint' : 'manage.startsAtHint')}
            {text('durationMinutes', 'manage.duration', { inputMode: 'decimal' })}
            {text('extendWindow', 'manage.extendWindow', { inputMode: 'numeric' })}
            {text('maxExtensions', 'manage.maxExtensions', { inputMode: 'numeric' })}
            <fieldset className="grid content-start gap-2">
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
              <EligibilityHint ranks={form.ranks} groups={form.groups} />
              {errors.ranks && <p className="text-xs text-danger">{errors.ranks}</p>}
            </fieldset>
            {text('groups', 'manage.groups', { dir: 'auto' })}
          </div>
        </DialogBody>
        <div className="flex shrink-0 flex-wrap justify-end gap-2 border-t border-border px-5 py-3">
          <Button type="button" variant="ghost" onClick={onDone}>
            <FormattedMessage id={editing ? 'manage.stopEditing' : 'manage.close'} />
          </Button>
          <Button type="submit" disabled={save.isPending}>
            <FormattedMessage id={editing ? 'manage.saveChanges' : 'manage.submit'} />
          </Button>
        </div>
      </form>
    </>
  );
}

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
  const items = useQuery({ queryKey: ['store', 'items', 'all'], queryFn: () => storeApi.listItems(), refetchInterval: 15_000 });
  const cancel = useMutation({
    mutationFn: (itemId: number) => storeApi.cancelItem(itemId),
    onSuccess: (item) => {
      setConfirming(null);
      notifications.send({ type: 'NOTIFY', notification: { kind: 'info', titleId: 'manage.cancelledTitle', textId: 'manage.cancelled', values: { itemName: item.itemName } } });
      void queryClient.invalidateQueries({ queryKey: ['store', 'items'] });
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
                <td dir="auto" className={cn(CELL, 'min-w-0 text-start font-medium wrap-anywhere max-lg:col-span-2')}>
                  {it.itemName}
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
  const settings = useQuery({ queryKey: ['kingdom', 'settings'], queryFn: () => kingdom.settings(), retry: 0 });
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
