import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { automaticPointsKeys, createAutomaticPointsApi, type Rule, type RuleBody, type RulePreview, type RuleStat } from '../../../../api/automatic-points';
import { MAX_POINTS_DELTA } from '../../../../protocol/points';
import { RULE_NAME_MAX, RULE_PER_MAX, RULE_STATS, rulePoints } from '../../../../protocol/automatic-points';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Card, CardHeader, CardTitle } from '../../../components/card';
import { PageTitle } from '../../../components/page-header';
import { Checkbox } from '../../../components/checkbox';
import { Input } from '../../../components/input';
import { Spinner } from '../../../components/loader';
import { NativeSelect } from '../../../components/native-select';
import { endColumns, Table, TableBody, TableHead, Td } from '../../../components/table';
import { useApi } from '../../../lib/use-api';
import { readWhole } from '../../../lib/numbers';
import { Field } from '../../../components/field';
import { ConfirmDialog, ConfirmDialogFor } from '../../../components/stats/confirm-dialog';
import { CountCell, NumCell } from '../../../components/stats/cells';
import { QueryError } from '../../../components/query-error';
import { Empty, GovernorLink, ScanField, useScans } from '../../../components/stats/scan-parts';
import { Hint } from '../../../components/hint';

const statLabel = (stat: RuleStat) => `auto.stat.${stat}`;

interface Draft {
  name: string;
  stat: RuleStat;
  per: string;
  points: string;
  cap: string;
  auto: boolean;
  seasonId: string;
}

const emptyDraft: Draft = { name: '', stat: 'killpoints', per: '1000000', points: '10', cap: '', auto: false, seasonId: '' };
const toDraft = (r: Rule): Draft => ({ name: r.name, stat: r.stat, per: String(r.per), points: String(r.points), cap: r.cap === null ? '' : String(r.cap), auto: r.auto, seasonId: r.seasonId === null ? '' : String(r.seasonId) });

type Errors = Partial<Record<keyof Draft, string>>;

/** The form's own checks, in the reader's language (the server checks again and says why in English). */
function check(d: Draft, intl: ReturnType<typeof useIntl>): { body: RuleBody | null; errors: Errors } {
  const errors: Errors = {};
  const whole = (v: string) => readWhole(v, intl.locale);
  const name = d.name.trim();
  if (name.length < 1 || name.length > RULE_NAME_MAX) errors.name = intl.formatMessage({ id: 'auto.error.name' }, { max: RULE_NAME_MAX });
  const per = whole(d.per);
  if (!(per >= 1 && per <= RULE_PER_MAX)) errors.per = intl.formatMessage({ id: 'auto.error.per' });
  const points = whole(d.points);
  if (!(points >= 1 && points <= MAX_POINTS_DELTA)) errors.points = intl.formatMessage({ id: 'auto.error.points' }, { max: MAX_POINTS_DELTA });
  const cap = d.cap.trim() === '' ? null : whole(d.cap);
  if (cap !== null && !(cap >= 1 && cap <= MAX_POINTS_DELTA)) errors.cap = intl.formatMessage({ id: 'auto.error.cap' }, { max: MAX_POINTS_DELTA });
  const seasonId = d.stat === 'dkp' ? whole(d.seasonId) : null;
  if (d.stat === 'dkp' && !(seasonId !== null && seasonId >= 1)) errors.seasonId = intl.formatMessage({ id: 'auto.error.season' });
  if (Object.keys(errors).length) return { body: null, errors };
  return { body: { name, stat: d.stat, per, points, cap, auto: d.auto, seasonId }, errors };
}

/** Where a DKP rule names its season: the seasons' list, or its id when the list cannot be read. */
function SeasonField({ value, onChange, error }: { value: string; onChange: (v: string) => void; error?: string }) {
  const intl = useIntl();
  const api = useApi(createAutomaticPointsApi);
  const seasons = useQuery({ queryKey: automaticPointsKeys.seasons, queryFn: () => api.seasons(), retry: false });
  return (
    <Field id="rule-season" labelId="auto.season" error={error}>
      {seasons.isSuccess ? (
        <NativeSelect id="rule-season" className="w-full" value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={!!error}>
          <option value="">{intl.formatMessage({ id: seasons.data.length ? 'auto.chooseSeason' : 'auto.noSeasons' })}</option>
          {seasons.data.map((s) => (
            <option key={s.id} value={String(s.id)}>
              {s.name}
            </option>
          ))}
        </NativeSelect>
      ) : (
        <Input id="rule-season" inputMode="numeric" dir="ltr" value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={!!error} placeholder={intl.formatMessage({ id: 'auto.seasonId' })} />
      )}
    </Field>
  );
}

function RuleForm({ editing, onDone }: { editing: Rule | null; onDone: () => void }) {
  const intl = useIntl();
  const api = useApi(createAutomaticPointsApi);
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => (editing ? toDraft(editing) : emptyDraft));
  const [errors, setErrors] = useState<Errors>({});
  const save = useMutation({
    mutationFn: (body: RuleBody) => (editing ? api.update(editing.id, body) : api.create(body)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: automaticPointsKeys.rules });
      onDone();
    },
  });
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  function submit(e: FormEvent) {
    e.preventDefault();
    const { body, errors: found } = check(draft, intl);
    setErrors(found);
    if (body) save.mutate(body);
  }
  // the rule's arithmetic on an example: three "per" and a half of gain
  const whole = (v: string) => readWhole(v, intl.locale);
  const per = whole(draft.per);
  const points = whole(draft.points);
  const cap = draft.cap.trim() === '' ? null : whole(draft.cap);
  const example = per >= 1 && points >= 1 && (cap === null || cap >= 1) ? { gain: Math.floor(per * 3.5), points: rulePoints({ per, points, cap }, Math.floor(per * 3.5)) } : null;
  const field = (key: 'name' | 'per' | 'points' | 'cap', labelId: string, props: Record<string, unknown> = {}) => (
    <Field id={`rule-${key}`} labelId={labelId} error={errors[key]}>
      <Input id={`rule-${key}`} value={draft[key]} aria-invalid={!!errors[key]} onChange={(e) => set({ [key]: e.target.value })} {...props} />
    </Field>
  );
  return (
    <form noValidate onSubmit={submit} className="grid min-w-0 grid-cols-1 gap-4 rounded-md border border-border p-4" aria-label={intl.formatMessage({ id: editing ? 'auto.editRule' : 'auto.newRule' })}>
      <h3 className="text-base font-semibold">
        <FormattedMessage id={editing ? 'auto.editRule' : 'auto.newRule'} />
      </h3>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {field('name', 'auto.name', { maxLength: RULE_NAME_MAX, dir: 'auto' })}
        <Field id="rule-stat" labelId="auto.stat">
          <NativeSelect id="rule-stat" className="w-full" value={draft.stat} onChange={(e) => set({ stat: e.target.value as RuleStat })}>
            {RULE_STATS.map((s) => (
              <option key={s} value={s}>
                {intl.formatMessage({ id: statLabel(s) })}
              </option>
            ))}
          </NativeSelect>
        </Field>
        {draft.stat === 'dkp' && <SeasonField value={draft.seasonId} onChange={(seasonId) => set({ seasonId })} error={errors.seasonId} />}
        {field('per', 'auto.per', { inputMode: 'numeric', dir: 'ltr' })}
        {field('points', 'auto.points', { inputMode: 'numeric', dir: 'ltr' })}
        {field('cap', 'auto.cap', { inputMode: 'numeric', dir: 'ltr', placeholder: intl.formatMessage({ id: 'auto.noCap' }) })}
      </div>
      <label className="flex items-start gap-3 text-sm">
        <Checkbox className="mt-0.5" checked={draft.auto} onCheckedChange={(on) => set({ auto: on === true })} aria-label={intl.formatMessage({ id: 'auto.auto' })} />
        <span>
          <span className="font-medium">
            <FormattedMessage id="auto.auto" />
          </span>
          <span className="block text-muted-foreground">
            <FormattedMessage id="auto.autoHint" />
          </span>
        </span>
      </label>
      {example && (
        <p className="text-sm text-muted-foreground">
          <FormattedMessage
            id="auto.example"
            values={{ gain: <FormattedNumber value={example.gain} />, stat: intl.formatMessage({ id: statLabel(draft.stat) }), points: <FormattedNumber value={example.points} /> }}
          />
        </p>
      )}
      <QueryError error={save.error} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={save.isPending}>
          <FormattedMessage id={editing ? 'auto.saveRule' : 'auto.createRule'} />
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          <FormattedMessage id="stats.cancel" />
        </Button>
      </div>
    </form>
  );
}

function RulesCard({ rules }: { rules: Rule[] }) {
  const intl = useIntl();
  const api = useApi(createAutomaticPointsApi);
  const queryClient = useQueryClient();
  const [form, setForm] = useState<{ editing: Rule | null } | null>(null);
  const [deleting, setDeleting] = useState<Rule | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => api.remove(id),
    onSuccess: async () => {
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: automaticPointsKeys.rules });
    },
  });
  return (
    <Card className="min-w-0">
      <CardHeader title={<FormattedMessage id="auto.rules" />}>
        {!form && (
          <Button size="sm" onClick={() => setForm({ editing: null })}>
            <FormattedMessage id="auto.newRule" />
          </Button>
        )}
      </CardHeader>
      {form && <RuleForm key={form.editing?.id ?? 'new'} editing={form.editing} onDone={() => setForm(null)} />}
      <QueryError error={remove.error} />
      {rules.length === 0 ? (
        !form && <Empty textId="auto.noRules" />
      ) : (
        <Table minWidth="40rem" className="mt-3">
          {/* the actions' header is relative: its hidden label stays inside the table's scroller, so a narrow page does not scroll sideways */}
          <TableHead columns={['auto.name', 'auto.pays', { id: 'auto.cap', end: true }, 'auto.auto', { id: 'auto.actions', srOnly: true, className: 'relative' }]} />
          <TableBody>
            {rules.map((r) => (
              <tr key={r.id}>
                <Td>
                  <bdi className="font-medium">{r.name}</bdi>
                  {r.seasonName && <bdi className="block text-xs text-muted-foreground">{r.seasonName}</bdi>}
                </Td>
                <Td>
                  <FormattedMessage
                    id="auto.rate"
                    values={{ points: <FormattedNumber value={r.points} />, per: <FormattedNumber value={r.per} />, stat: intl.formatMessage({ id: statLabel(r.stat) }) }}
                  />
                </Td>
                <Td className="text-end tabular-nums">{r.cap === null ? '—' : <FormattedNumber value={r.cap} />}</Td>
                <Td>
                  <FormattedMessage id={r.auto ? 'auto.on' : 'auto.off'} />
                </Td>
                <Td className="text-end">
                  <span className="inline-flex gap-1">
                    <Button size="sm" variant="ghost" onClick={() => setForm({ editing: r })} aria-label={intl.formatMessage({ id: 'auto.editNamed' }, { name: r.name })}>
                      <FormattedMessage id="auto.edit" />
                    </Button>
                    <Button size="sm" variant="ghost" className="text-danger" onClick={() => setDeleting(r)} aria-label={intl.formatMessage({ id: 'auto.deleteNamed' }, { name: r.name })}>
                      <FormattedMessage id="auto.delete" />
                    </Button>
                  </span>
                </Td>
              </tr>
            ))}
          </TableBody>
        </Table>
      )}
      <ConfirmDialogFor
        subject={deleting}
        onClose={() => setDeleting(null)}
        title={() => <FormattedMessage id="auto.deleteTitle" />}
        text={(r) => <FormattedMessage id="auto.deleteText" values={{ name: <bdi>{r.name}</bdi> }} />}
        confirmId="auto.delete"
        busy={remove.isPending}
        onConfirm={(r) => remove.mutate(r.id)}
      />
    </Card>
  );
}

function PreviewView({ preview, rule, onApplied }: { preview: RulePreview; rule: Rule; onApplied: () => void }) {
  const api = useApi(createAutomaticPointsApi);
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const accounts = new Set(preview.awards.map((a) => a.username)).size;
  const apply = useMutation({
    mutationFn: () => api.apply(rule.id, preview.token),
    onSuccess: async () => {
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: automaticPointsKeys.runs });
      onApplied();
    },
    onError: () => setConfirming(false),
  });
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <p className="text-sm">
        <FormattedMessage id="auto.previewTotal" values={{ total: <FormattedNumber value={preview.total} />, accounts, governors: preview.awards.length }} />
      </p>
      {preview.overlaps.length > 0 && (
        <Alert variant="info">
          <FormattedMessage id="auto.overlaps" values={{ runs: preview.overlaps.map((o) => `#${o.id}`).join(', ') }} />
        </Alert>
      )}
      {preview.awards.length > 0 && (
        <Table minWidth="36rem">
          <TableHead columns={['auto.account', 'stat.governor', ...endColumns(['auto.gain', 'auto.pointsPaid'])]} />
          <TableBody>
            {preview.awards.map((a) => (
              <tr key={a.governorId}>
                <Td>
                  <bdi className="font-medium">{a.username}</bdi>
                  {!a.verified && (
                    <span className="ms-2 inline-block rounded bg-warning/15 px-1.5 py-0.5 text-xs text-warning">
                      <FormattedMessage id="auto.unverified" />
                    </span>
                  )}
                </Td>
                <Td>
                  <GovernorLink governorId={a.governorId} name={a.name} />
                </Td>
                <NumCell value={a.gain} />
                <CountCell value={a.points} className="font-medium" />
              </tr>
            ))}
          </TableBody>
        </Table>
      )}
      {preview.unlinked.length > 0 && (
        <details className="min-w-0 rounded-md border border-border p-3">
          <summary className="cursor-pointer text-sm font-medium">
            <FormattedMessage id="auto.unlinked" values={{ count: preview.unlinked.length, points: <FormattedNumber value={preview.unlinkedTotal} /> }} />
          </summary>
          <Table minWidth="28rem" className="mt-2">
            <TableHead columns={['stat.governor', ...endColumns(['auto.gain', 'auto.pointsPaid'])]} />
            <TableBody>
              {preview.unlinked.map((u) => (
                <tr key={u.governorId}>
                  <Td>
                    <GovernorLink governorId={u.governorId} name={u.name} />
                  </Td>
                  <NumCell value={u.gain} />
                  <CountCell value={u.points} />
                </tr>
              ))}
            </TableBody>
          </Table>
        </details>
      )}
      {preview.awards.length === 0 && <Empty textId="auto.nothingToPay" />}
      <QueryError error={apply.error} />
      {preview.awards.length > 0 && (
        <Button className="justify-self-start" onClick={() => setConfirming(true)} disabled={apply.isPending}>
          <FormattedMessage id="auto.apply" values={{ total: preview.total }} />
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={<FormattedMessage id="auto.applyTitle" />}
        text={<FormattedMessage id="auto.applyText" values={{ total: <FormattedNumber value={preview.total} />, accounts, name: <bdi>{rule.name}</bdi> }} />}
        confirmId="auto.applyConfirm"
        busy={apply.isPending}
        onConfirm={() => apply.mutate()}
      />
    </div>
  );
}

function RunCard({ rules }: { rules: Rule[] }) {
  const api = useApi(createAutomaticPointsApi);
  const intl = useIntl();
  const scans = useScans();
  const list = scans.data?.scans ?? [];
  const [ruleId, setRuleId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [applied, setApplied] = useState<{ total: number } | null>(null);
  const rule = rules.find((r) => String(r.id) === ruleId) ?? null;
  // defaults: the latest scan and the one taken before it (the list is newest first)
  const toId = to ? Number(to) : list[0]?.id;
  const fromId = from ? Number(from) : list.find((s) => s.id !== toId && list.findIndex((x) => x.id === toId) < list.indexOf(s))?.id;
  const preview = useMutation({ mutationFn: () => api.preview(rule!.id, fromId!, toId!), onMutate: () => setApplied(null) });
  const ready = rule !== null && fromId !== undefined && toId !== undefined;
  // a new choice drops the preview made for the old one
  const choose = (set: (value: string) => void) => (value: string) => {
    set(value);
    preview.reset();
  };
  return (
    <Card className="min-w-0" aria-labelledby="auto-run-title">
      <CardTitle id="auto-run-title">
        <FormattedMessage id="auto.run" />
      </CardTitle>
      <Hint id="auto.runHint" className="mb-4" />
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <Field id="run-rule" labelId="auto.rule">
          <NativeSelect id="run-rule" className="w-full sm:w-64" value={ruleId} onChange={(e) => choose(setRuleId)(e.target.value)}>
            <option value="">{intl.formatMessage({ id: 'auto.chooseRule' })}</option>
            {rules.map((r) => (
              <option key={r.id} value={String(r.id)}>
                {r.name}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <ScanField id="run-from" labelId="migrants.from" value={from} onChange={choose(setFrom)} scans={list} defaultLabelId="migrants.fromDefault" />
        <ScanField id="run-to" labelId="migrants.to" value={to} onChange={choose(setTo)} scans={list} defaultLabelId="migrants.toDefault" />
        <Button onClick={() => preview.mutate()} disabled={!ready || preview.isPending}>
          <FormattedMessage id="auto.preview" />
        </Button>
      </div>
      {scans.isSuccess && list.length < 2 && <Empty textId="migrants.needTwo" />}
      {preview.isPending && <Spinner />}
      <QueryError error={preview.error} />
      {applied && (
        <Alert variant="success">
          <FormattedMessage id="auto.applied" values={{ total: <FormattedNumber value={applied.total} /> }} />
        </Alert>
      )}
      {preview.data && rule && !applied && (
        <PreviewView
          key={preview.data.token}
          preview={preview.data}
          rule={rule}
          onApplied={() => {
            setApplied({ total: preview.data.total });
          }}
        />
      )}
    </Card>
  );
}

function RunsCard() {
  const api = useApi(createAutomaticPointsApi);
  const runs = useQuery({ queryKey: automaticPointsKeys.runsPage(1), queryFn: () => api.runs(1) });
  return (
    <Card className="min-w-0" aria-labelledby="auto-runs-title">
      <CardTitle id="auto-runs-title">
        <FormattedMessage id="auto.runs" />
      </CardTitle>
      <QueryError error={runs.error} />
      {runs.data && runs.data.runs.length === 0 && <Empty textId="auto.noRuns" />}
      {runs.data && runs.data.runs.length > 0 && (
        <Table minWidth="40rem">
          <TableHead columns={['auto.when', 'auto.rule', 'auto.scans', ...endColumns(['auto.entries', 'auto.total']), 'auto.by']} />
          <TableBody>
            {runs.data.runs.map((r) => (
              <tr key={r.id}>
                <Td className="whitespace-nowrap">
                  <FormattedDate value={r.at} dateStyle="medium" timeStyle="short" />
                </Td>
                <Td>
                  <bdi>{r.ruleName}</bdi>
                </Td>
                <Td className="whitespace-nowrap tabular-nums">
                  {/* from → to in the reading direction: the arrow turns in right-to-left */}
                  <bdi>#{r.fromScanId}</bdi>{' '}
                  <span aria-hidden="true" className="inline-block rtl:rotate-180">
                    →
                  </span>{' '}
                  <bdi>#{r.toScanId}</bdi>
                </Td>
                <CountCell value={r.entries} />
                <CountCell value={r.total} />
                <Td>{r.appliedBy ? <bdi>{r.appliedBy}</bdi> : <FormattedMessage id={r.auto ? 'auto.byItself' : 'points.system'} />}</Td>
              </tr>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}

/** Kingdom Settings → Automatic Points: rules, a run from preview to the ledger, the runs so far. */
export default function AutomaticPointsPage({ titleId }: { titleId: string }) {
  const api = useApi(createAutomaticPointsApi);
  const rules = useQuery({ queryKey: automaticPointsKeys.rules, queryFn: () => api.rules() });
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <PageTitle titleId={titleId} />
      <Hint id="auto.hint" />
      <QueryError error={rules.error} />
      {rules.isPending && <Spinner />}
      {rules.data && (
        <>
          <RulesCard rules={rules.data} />
          <RunCard rules={rules.data} />
          <RunsCard />
        </>
      )}
    </div>
  );
}
