import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { createKvkApi, kvkKeys, type Season, type SeasonBody } from '../../../api/kvk';
import type { Scan } from '../../../api/scans';
import { KVK_MAX_BRACKETS, KVK_MAX_WINDOWS, KVK_NAME_MAX, KVK_WINDOW_NAME_MAX, seasonBody } from '../../../protocol/kvk';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { Checkbox } from '../../components/checkbox';
import { Label } from '../../components/label';
import { Input } from '../../components/input';
import { NativeSelect } from '../../components/native-select';
import { Table, TableBody, TableHead, Td } from '../../components/table';
import { PageHeader } from '../../components/page-header';
import { ErrorAlert } from '../../components/query-error';
import { CountCell } from '../../components/stats/cells';
import { useApi } from '../../lib/use-api';
import { readDecimal } from '../../lib/numbers';
import { Field } from '../../components/field';
import { Empty, GovernorLink, useScans } from '../../components/stats/scan-parts';
import { Hint } from '../../components/hint';
import { useServerText } from '../../lib/server-text';
import { kvkError, KvkAlert, StatusTag } from '../../components/stats/kvk-parts';
import { MarkDialog, useUnmark } from '../../components/stats/kvk-marks';
import { useSingleFlight } from '../../lib/use-single-flight';

interface Draft {
  name: string;
  startScanId: string;
  endScanId: string;
  weights: { t4Kills: string; t5Kills: string; deads: string };
  brackets: { minPower: string; kills: string; deads: string }[];
  windows: { name: string; fromScanId: string; toScanId: string }[];
  published: boolean;
}

/** A new season: weights T4×4 + T5×10 + deads×15 (common, and changed freely), one bracket from 0. */
const EMPTY: Draft = { name: '', startScanId: '', endScanId: '', weights: { t4Kills: '4', t5Kills: '10', deads: '15' }, brackets: [{ minPower: '0', kills: '0', deads: '0' }], windows: [], published: false };

const toDraft = (s: Season): Draft => ({
  name: s.name,
  startScanId: String(s.startScanId),
  endScanId: s.endScanId === null ? '' : String(s.endScanId),
  weights: { t4Kills: String(s.weights.t4Kills), t5Kills: String(s.weights.t5Kills), deads: String(s.weights.deads) },
  brackets: s.brackets.map((b) => ({ minPower: String(b.minPower), kills: String(b.kills), deads: String(b.deads) })),
  windows: s.windows.map((w) => ({ name: w.name, fromScanId: String(w.fromScanId), toScanId: String(w.toScanId) })),
  published: s.published,
});

/** The rows with row `i` changed (a bracket's or a window's field). */
const withRow = <T,>(rows: T[], i: number, patch: Partial<T>): T[] => rows.map((row, j) => (j === i ? { ...row, ...patch } : row));

/** The draft as the API takes it: a number as `locale` writes it ("40 000 000" in French) is read; text that is not one stays text, so the schema names the field. */
const toBody = (d: Draft, locale: string): SeasonBody => {
  const num = (v: string): number | string => {
    const n = readDecimal(v, locale);
    return Number.isFinite(n) ? n : v;
  };
  return {
    name: d.name,
    startScanId: num(d.startScanId),
    endScanId: d.endScanId === '' ? null : num(d.endScanId),
    weights: { t4Kills: num(d.weights.t4Kills), t5Kills: num(d.weights.t5Kills), deads: num(d.weights.deads) },
    brackets: d.brackets.map((b) => ({ minPower: num(b.minPower), kills: num(b.kills), deads: num(b.deads) })),
    windows: d.windows.map((w) => ({ name: w.name, fromScanId: num(w.fromScanId), toScanId: num(w.toScanId) })),
    published: d.published,
  } as SeasonBody;
};

/** A scan to choose; ARIA props (a Field's aria-invalid and aria-describedby) pass on to the select. */
function ScanPicker({
  id,
  value,
  onChange,
  scans,
  emptyId,
  label,
  ...aria
}: { id?: string; value: string; onChange: (v: string) => void; scans: Scan[]; emptyId: string; label?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }) {
  const intl = useIntl();
  return (
    <NativeSelect id={id} className="w-full min-w-0" value={value} onChange={(e) => onChange(e.target.value)} aria-label={label} {...aria}>
      <option value="">{intl.formatMessage({ id: emptyId })}</option>
      {scans.map((s) => (
        <option key={s.id} value={String(s.id)}>
          {intl.formatDate(s.takenAt, { dateStyle: 'medium', timeStyle: 'short' })} · #{s.id}
        </option>
      ))}
    </NativeSelect>
  );
}

function Section({ titleId, hintId, children, action }: { titleId: string; hintId?: string; children: ReactNode; action?: ReactNode }) {
  return (
    <fieldset className="grid min-w-0 gap-3 rounded-md border border-border p-4">
      <legend className="px-1 text-sm font-semibold">
        <FormattedMessage id={titleId} />
      </legend>
      {hintId && (
        <Hint id={hintId} />
      )}
      {children}
      {action}
    </fieldset>
  );
}

/** A section's "Add a …" button, under its rows. */
function AddButton({ labelId, disabled, onClick }: { labelId: string; disabled: boolean; onClick: () => void }) {
  return (
    <Button type="button" variant="outline" size="sm" className="justify-self-start" disabled={disabled} onClick={onClick}>
      <FormattedMessage id={labelId} />
    </Button>
  );
}

/** Refusals shown under their own field; any other (a table's cell, the bracket order) is the alert under the form. */
const FIELD_PATHS = ['name', 'startScanId', 'endScanId', 'weights.t4Kills', 'weights.t5Kills', 'weights.deads'];

function SeasonEditor({ season, scans, onSaved, onCancel }: { season: Season | null; scans: Scan[]; onSaved: (s: Season) => void; onCancel: () => void }) {
  const intl = useIntl();
  const kvk = useApi(createKvkApi);
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => (season ? toDraft(season) : EMPTY));
  const say = useServerText();
  // the first refusal of the form's own check, and where (its path: "weights.deads", "brackets.2.kills")
  const [invalid, setInvalid] = useState<{ message: string; path: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    // after a refused save, the field at fault takes the focus (the message is read with it)
    if (invalid) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [invalid]);
  /** The refusal when it is about this field (shown under it), else undefined. */
  const errorOf = (path: string) => (invalid?.path === path ? invalid.message : undefined);
  /** Marks a table's cell at fault; the message is the alert under the form. */
  const cellInvalid = (path: string) => (invalid?.path === path ? { 'aria-invalid': true, 'aria-describedby': 'kvk-invalid' } : {});
  const save = useMutation({
    mutationFn: (body: SeasonBody) => (season ? kvk.update(season.id, body) : kvk.create(body)),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: kvkKeys.all });
      onSaved(saved);
    },
  });
  const saveOnce = useSingleFlight(save);
  const set = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    setInvalid(null);
    if (save.isSuccess || save.isError) save.reset();
  };
  function submit(e: FormEvent) {
    e.preventDefault();
    const body = toBody(draft, intl.locale);
    const parsed = seasonBody.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setInvalid({ message: kvkError(intl, issue.message, say), path: issue.path.join('.') });
      return;
    }
    saveOnce(body);
  }
  const weight = (key: keyof Draft['weights'], labelId: string) => (
    <Field id={`kvk-weight-${key}`} labelId={labelId} error={errorOf(`weights.${key}`)}>
      <Input id={`kvk-weight-${key}`} inputMode="decimal" value={draft.weights[key]} onChange={(e) => set({ weights: { ...draft.weights, [key]: e.target.value } })} />
    </Field>
  );
  return (
    <Card className="min-w-0" aria-labelledby="kvk-editor-title">
      <CardTitle id="kvk-editor-title">
        {season ? <FormattedMessage id="kvk.edit.title" values={{ name: <bdi>{season.name}</bdi> }} /> : <FormattedMessage id="kvk.new.title" />}
      </CardTitle>
      <form ref={formRef} noValidate onSubmit={submit} className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-3">
          <Field id="kvk-name" labelId="kvk.name" error={errorOf('name')}>
            <Input id="kvk-name" value={draft.name} maxLength={KVK_NAME_MAX} dir="auto" onChange={(e) => set({ name: e.target.value })} />
          </Field>
          <Field id="kvk-start" labelId="kvk.startScan" error={errorOf('startScanId')}>
            <ScanPicker id="kvk-start" value={draft.startScanId} onChange={(v) => set({ startScanId: v })} scans={scans} emptyId="kvk.chooseScan" />
          </Field>
          <Field id="kvk-end" labelId="kvk.endScan" error={errorOf('endScanId')}>
            <ScanPicker id="kvk-end" value={draft.endScanId} onChange={(v) => set({ endScanId: v })} scans={scans} emptyId="kvk.latestRunning" />
          </Field>
        </div>
        <p className="-mt-2 text-xs text-muted-foreground">
          <FormattedMessage id="kvk.closeHint" />
        </p>

        <Section titleId="kvk.weights" hintId="kvk.weights.hint">
          <div className="grid gap-4 sm:grid-cols-3">
            {weight('t4Kills', 'stat.t4Kills')}
            {weight('t5Kills', 'stat.t5Kills')}
            {weight('deads', 'stat.deads')}
          </div>
        </Section>

        <Section
          titleId="kvk.brackets"
          hintId="kvk.brackets.hint"
          action={<AddButton labelId="kvk.brackets.add" disabled={draft.brackets.length >= KVK_MAX_BRACKETS} onClick={() => set({ brackets: [...draft.brackets, { minPower: '', kills: '', deads: '' }] })} />}
        >
          <Table minWidth="30rem" className="relative">
            <TableHead columns={['kvk.brackets.fromPower', 'kvk.brackets.kills', 'kvk.brackets.deads', { id: 'kvk.col.actions', srOnly: true }]} />
            <tbody>
              {draft.brackets.map((b, i) => {
                const cell = (key: 'minPower' | 'kills' | 'deads', labelId: string) => (
                  <Td className="px-1">
                    <Input
                      inputMode="numeric"
                      value={b[key]}
                      aria-label={intl.formatMessage({ id: labelId }, { n: i + 1 })}
                      {...cellInvalid(`brackets.${i}.${key}`)}
                      onChange={(e) => set({ brackets: withRow(draft.brackets, i, { [key]: e.target.value }) })}
                    />
                  </Td>
                );
                return (
                  <tr key={i}>
                    {cell('minPower', 'kvk.brackets.fromPowerOf')}
                    {cell('kills', 'kvk.brackets.killsOf')}
                    {cell('deads', 'kvk.brackets.deadsOf')}
                    <Td className="px-1 text-end">
                      <Button type="button" size="sm" variant="ghost" onClick={() => set({ brackets: draft.brackets.filter((_, j) => j !== i) })} aria-label={intl.formatMessage({ id: 'kvk.brackets.remove' }, { n: i + 1 })}>
                        ✕
                      </Button>
                    </Td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        </Section>

        <Section
          titleId="kvk.windows"
          hintId="kvk.windows.hint"
          action={<AddButton labelId="kvk.windows.add" disabled={draft.windows.length >= KVK_MAX_WINDOWS} onClick={() => set({ windows: [...draft.windows, { name: '', fromScanId: '', toScanId: '' }] })} />}
        >
          {draft.windows.map((w, i) => (
            <div key={i} className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_auto]">
              <Input
                value={w.name}
                maxLength={KVK_WINDOW_NAME_MAX}
                dir="auto"
                placeholder={intl.formatMessage({ id: 'kvk.windows.namePlaceholder' })}
                aria-label={intl.formatMessage({ id: 'kvk.windows.nameOf' }, { n: i + 1 })}
                {...cellInvalid(`windows.${i}.name`)}
                onChange={(e) => set({ windows: withRow(draft.windows, i, { name: e.target.value }) })}
              />
              <ScanPicker
                value={w.fromScanId}
                onChange={(v) => set({ windows: withRow(draft.windows, i, { fromScanId: v }) })}
                scans={scans}
                emptyId="kvk.windows.from"
                {...cellInvalid(`windows.${i}.fromScanId`)}
                label={intl.formatMessage({ id: 'kvk.windows.fromOf' }, { n: i + 1 })}
              />
              <ScanPicker
                value={w.toScanId}
                onChange={(v) => set({ windows: withRow(draft.windows, i, { toScanId: v }) })}
                scans={scans}
                emptyId="kvk.windows.to"
                {...cellInvalid(`windows.${i}.toScanId`)}
                label={intl.formatMessage({ id: 'kvk.windows.toOf' }, { n: i + 1 })}
              />
              <Button type="button" size="sm" variant="ghost" className="h-9" onClick={() => set({ windows: draft.windows.filter((_, j) => j !== i) })} aria-label={intl.formatMessage({ id: 'kvk.windows.remove' }, { n: i + 1 })}>
                ✕
              </Button>
            </div>
          ))}
        </Section>

        <div className="flex items-start gap-3 rounded-md border border-border p-4">
          <Checkbox id="kvk-published" role="switch" className="mt-0.5" checked={draft.published} aria-describedby="kvk-published-hint" onCheckedChange={(published) => set({ published })} />
          <div className="grid min-w-0 gap-1">
            <Label htmlFor="kvk-published" className="font-semibold">
              <FormattedMessage id="kvk.published" />
            </Label>
            <p id="kvk-published-hint" className="text-xs text-muted-foreground">
              <FormattedMessage id="kvk.published.hint" />
            </p>
          </div>
        </div>

        {invalid && !FIELD_PATHS.includes(invalid.path) && (
          <div id="kvk-invalid">
            <ErrorAlert>{invalid.message}</ErrorAlert>
          </div>
        )}
        <KvkAlert error={save.error} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="outline" onClick={onCancel}>
            <FormattedMessage id="stats.cancel" />
          </Button>
          <Button type="submit" disabled={save.isPending}>
            <FormattedMessage id={season ? 'kvk.save' : 'kvk.create'} />
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** The marked governors of a season: unmark any; mark one by its governor id. */
function Marks({ season }: { season: Season }) {
  const intl = useIntl();
  const kvk = useApi(createKvkApi);
  const marks = useQuery({ queryKey: kvkKeys.marks(season.id), queryFn: () => kvk.marks(season.id) });
  const unmark = useUnmark(season.id);
  const [governorId, setGovernorId] = useState('');
  const [marking, setMarking] = useState<{ governorId: number; name: string } | null>(null);
  return (
    <Card className="min-w-0" aria-labelledby="kvk-marks-title">
      <CardTitle id="kvk-marks-title">
        <FormattedMessage id="kvk.marks.title" values={{ name: <bdi>{season.name}</bdi> }} />
      </CardTitle>
      <form
        className="mb-4 flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (/^\d{1,15}$/.test(governorId.trim())) setMarking({ governorId: Number(governorId.trim()), name: '' });
        }}
      >
        <Field id="kvk-mark-governor" labelId="kvk.marks.governorId">
          <Input id="kvk-mark-governor" inputMode="numeric" dir="ltr" className="w-48" value={governorId} onChange={(e) => setGovernorId(e.target.value)} />
        </Field>
        <Button type="submit" variant="outline">
          <FormattedMessage id="kvk.mark" />
        </Button>
      </form>
      <KvkAlert error={marks.error ?? unmark.error} />
      {marks.data && marks.data.length === 0 && <Empty textId="kvk.marks.none" />}
      {marks.data && marks.data.length > 0 && (
        <Table minWidth="36rem" className="relative">
          <TableHead columns={['stat.governor', 'kvk.col.status', 'kvk.mark.reason', 'kvk.marks.by', { id: 'kvk.col.actions', srOnly: true }]} />
          <TableBody>
            {marks.data.map((m) => (
              <tr key={m.governorId}>
                <Td>
                  <GovernorLink governorId={m.governorId} name={m.name} />
                </Td>
                <Td>
                  <StatusTag status={m.mark} />
                </Td>
                <Td>
                  <bdi>{m.reason}</bdi>
                </Td>
                <Td className="text-xs text-muted-foreground">
                  <bdi>{m.markedBy ?? '—'}</bdi> · <FormattedDate value={m.markedAt} dateStyle="medium" />
                </Td>
                <Td className="text-end">
                  <Button size="sm" variant="ghost" onClick={() => unmark.mutate(m.governorId)} aria-label={intl.formatMessage({ id: 'kvk.unmarkOf' }, { name: m.name || m.governorId })}>
                    <FormattedMessage id="kvk.unmark" />
                  </Button>
                </Td>
              </tr>
            ))}
          </TableBody>
        </Table>
      )}
      <MarkDialog seasonId={season.id} governor={marking} initialMark="exempt" onOpenChange={(open) => !open && setMarking(null)} />
    </Card>
  );
}

/** Admin → KvK Management: seasons created, edited and closed; marks. */
export default function KvkManagementPage({ titleId }: { titleId: string }) {
  const kvk = useApi(createKvkApi);
  const seasons = useQuery({ queryKey: kvkKeys.seasons, queryFn: () => kvk.seasons() });
  const scans = useScans();
  // null: no editor; 'new': a new season; a number: that season
  const [editing, setEditing] = useState<'new' | number | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const list = seasons.data ?? [];
  const scanList = scans.data?.scans ?? [];
  const edited = typeof editing === 'number' ? list.find((s) => s.id === editing) : undefined;
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <PageHeader titleId={titleId}>
        <Button
          onClick={() => {
            setEditing('new');
            setSaved(null);
          }}
          disabled={scanList.length === 0}
        >
          <FormattedMessage id="kvk.new" />
        </Button>
      </PageHeader>
      <KvkAlert error={seasons.error ?? scans.error} />
      {scans.isSuccess && scanList.length === 0 && (
        <Card>
          <Empty textId="kvk.needScans" />
        </Card>
      )}
      {saved && (
        <Alert variant="success" role="status">
          <FormattedMessage id="kvk.saved" values={{ name: <bdi>{saved}</bdi> }} />
        </Alert>
      )}
      {(editing === 'new' || edited) && (
        <SeasonEditor
          key={editing === 'new' ? 'new' : `${edited!.id}-${edited!.updatedAt}`}
          season={edited ?? null}
          scans={scanList}
          onSaved={(s) => {
            setSaved(s.name);
            setEditing(s.id);
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      <Card className="min-w-0">
        <CardTitle>
          <FormattedMessage id="kvk.seasons" />
        </CardTitle>
        {seasons.isSuccess && list.length === 0 ? (
          <Empty textId="kvk.noSeasonsHere" />
        ) : (
          <Table minWidth="40rem" className="relative" loading={seasons.isPending} columns={5}>
            <TableHead columns={['kvk.name', 'kvk.startScan', 'kvk.endScan', { id: 'kvk.col.marks', end: true }, { id: 'kvk.col.actions', srOnly: true }]} />
            <TableBody>
              {list.map((s) => (
                <tr key={s.id}>
                  <Td>
                    <bdi className="font-medium">{s.name}</bdi>
                    <span className={s.running ? 'ms-2 text-xs text-success' : 'ms-2 text-xs text-muted-foreground'}>
                      <FormattedMessage id={s.running ? 'kvk.running' : 'kvk.closed'} />
                    </span>
                    {s.published && (
                      <span className="ms-2 rounded bg-primary/10 px-1.5 py-0.5 text-xs text-primary">
                        <FormattedMessage id="kvk.published" />
                      </span>
                    )}
                  </Td>
                  <Td className="text-xs">
                    <FormattedDate value={s.startScan.takenAt} dateStyle="medium" />
                  </Td>
                  <Td className="text-xs">
                    {s.running ? <FormattedMessage id="kvk.latestRunning" /> : s.endScan && <FormattedDate value={s.endScan.takenAt} dateStyle="medium" />}
                  </Td>
                  <CountCell value={s.marks} />
                  <Td className="text-end">
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => {
                        setEditing(s.id);
                        setSaved(null);
                      }}
                    >
                      <FormattedMessage id="kvk.edit" />
                    </Button>
                  </Td>
                </tr>
              ))}
            </TableBody>
          </Table>
        )}
      </Card>
      {edited && <Marks season={edited} />}
    </div>
  );
}
