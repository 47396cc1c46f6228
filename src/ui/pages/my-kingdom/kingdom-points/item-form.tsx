import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { RANKS } from '../../../../protocol/ranks';
import { type ItemFormat } from '../../../../protocol/socket';
import { STORE_ERRORS, copyName, createItemBody, type CreateItemBody, type EditItemBody, type StoreItem } from '../../../../protocol/store';
import { useChild } from '../../../app-context';
import { Alert } from '../../../components/alert';
import { ErrorText } from '../../../components/query-error';
import { Button } from '../../../components/button';
import { Checkbox } from '../../../components/checkbox';
import { DialogBody, DialogHeader } from '../../../components/dialog';
import { Field } from '../../../components/field';
import { Input } from '../../../components/input';
import type { KingdomSettings } from '../../../../api/kingdom';
import { createStoreApi, storeKeys } from '../../../../api/store';
import { createStoreOfficeApi } from '../../../../api/store-office';
import { useApi } from '../../../lib/use-api';
import { readDecimal, readWhole } from '../../../lib/numbers';
import { formErrors } from '../../../lib/form-errors';
import { useServerText } from '../../../lib/server-text';
import { ImageField } from './image-field';
import { FormatFields } from './item-format-fields';

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
  format: ItemFormat;
  /** Empty: none. */
  reservePrice: string;
  /** Empty: none (english only). */
  buyNowPrice: string;
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
  format: 'english',
  reservePrice: '',
  buyNowPrice: '',
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
    format: item.format ?? 'english',
    reservePrice: item.reservePrice === undefined ? '' : String(item.reservePrice),
    buyNowPrice: item.buyNowPrice === undefined ? '' : String(item.buyNowPrice),
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
    format: form.format,
    ...(form.reservePrice.trim() ? { reservePrice: whole(form.reservePrice) } : {}),
    ...(form.format === 'english' && form.buyNowPrice.trim() ? { buyNowPrice: whole(form.buyNowPrice) } : {}),
  };
}

/** The field a sentence about the prices taken together belongs to (`formatFault`: its issue has no path). */
const FAULT_FIELD: Record<string, keyof Form> = {
  [STORE_ERRORS.reserveBelowStart]: 'reservePrice',
  [STORE_ERRORS.buyNowBelowStart]: 'buyNowPrice',
  [STORE_ERRORS.buyNowBelowReserve]: 'buyNowPrice',
  [STORE_ERRORS.buyNowSealed]: 'buyNowPrice',
};

const FIELD_OF: Record<string, keyof Form> = { duration: 'durationMinutes' };

type Errors = Partial<Record<keyof Form, string>>;

/** The form's values and errors, as the format's fields (item-format-fields.tsx) read them. */
export type ItemFormValues = Form;
export type ItemFormErrors = Errors;

/** The form field a schema issue belongs to (an eligibility issue is about the ranks or the groups). */
function fieldOf(path: readonly PropertyKey[]): keyof Form {
  const key = String(path[0] ?? 'itemName');
  if (key.startsWith('fault:')) return FAULT_FIELD[key.slice(6)] ?? 'itemName';
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

/** Create an item, or edit a scheduled one (the server refuses once it started). */
export function ItemForm({ initial, editing, copyOf, onDone }: { initial: Form; editing: StoreItem | null; copyOf?: StoreItem; onDone: () => void }) {
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
      void queryClient.invalidateQueries({ queryKey: storeKeys.items });
      onDone();
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const body = toBody(form, intl.locale);
    const parsed = createItemBody.safeParse(body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => (issue.path.length > 0 ? issue : { ...issue, path: [`fault:${issue.message}`] }));
      setErrors(formErrors(intl, say, issues, fieldOf));
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
      editing
        ? {
            ...body,
            description: form.description.trim(),
            imageUrl: form.imageUrl.trim() || null,
            eligibility: { ranks: form.ranks as never, groups },
            reservePrice: body.reservePrice ?? null,
            buyNowPrice: body.buyNowPrice ?? null,
          }
        : body,
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
            <FormatFields form={form} errors={errors} onChange={(change) => setForm((f) => ({ ...f, ...change }))} />
            {form.format === 'english' && text('extendWindow', 'manage.extendWindow', { inputMode: 'numeric' })}
            {form.format === 'english' && text('maxExtensions', 'manage.maxExtensions', { inputMode: 'numeric' })}
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
