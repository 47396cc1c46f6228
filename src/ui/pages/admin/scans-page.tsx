import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import type { Scan, ScanPreview, UploadProgress } from '../../../api/scans';
import type { ScanIssue } from '../../../protocol/scans';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { FileChooser } from '../../components/file-chooser';
import { Input } from '../../components/input';
import { Label } from '../../components/label';
import { Spinner } from '../../components/loader';
import { Pagination } from '../../components/pagination';
import { Progress } from '../../components/progress';
import { Table, Td, Th } from '../../components/table';
import { cn } from '../../lib/cn';
import { ConfirmDialog } from '../../components/stats/confirm-dialog';
import { useScansApi } from '../../components/stats/scan-parts';
import { ErrorText, QueryError } from '../../components/query-error';
import { Dialog, DialogBody, DialogContent, DialogHeader } from '../../components/dialog';
import { Field } from '../../components/field';
import { ApiError } from '../../../api/client';
import { useServerText } from '../../lib/server-text';
import { useDebounced } from '../../lib/use-debounced';
import { useFilePreview } from '../../lib/use-file-preview';

const ACCEPT = '.csv,.xlsx,.jsonl,.ndjson,.json,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Lists longer than this are cut, with "and N more" (a 5,000-row file may warn on every row). */
const LIST_MAX = 100;

const pad = (n: number) => String(n).padStart(2, '0');
/** Epoch ms as a datetime-local input's value (local time). */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
function fromLocalInput(value: string): number | null {
  if (!value) return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}

function Section({ titleId, count, children }: { titleId: string; count: number; children: ReactNode }) {
  return (
    <details className="rounded-md border border-border p-3" open={count > 0 && count <= 20}>
      <summary className="cursor-pointer text-sm font-medium">
        <FormattedMessage id={titleId} values={{ count }} />
      </summary>
      <div className="mt-2">{children}</div>
    </details>
  );
}

function More({ total }: { total: number }) {
  if (total <= LIST_MAX) return null;
  return (
    <p className="mt-1 text-xs text-muted-foreground">
      <FormattedMessage id="scans.more" values={{ count: total - LIST_MAX }} />
    </p>
  );
}

function Issues({ issues, kind }: { issues: ScanIssue[]; kind: 'error' | 'warning' }) {
  const say = useServerText();
  return (
    <>
      <ul className="grid gap-1 text-sm">
        {issues.slice(0, LIST_MAX).map((issue, i) => (
          <li key={`${issue.row}-${i}`} className="flex flex-wrap gap-x-2">
            <span className="tabular-nums text-muted-foreground">
              <FormattedMessage id="scans.row" values={{ row: issue.row }} />
            </span>
            {issue.governorId !== undefined && (
              <span dir="ltr" className="tabular-nums text-muted-foreground">
                {issue.governorId}
              </span>
            )}
            <bdi className={kind === 'error' ? 'text-danger' : 'text-warning'}>{say(issue.text)}</bdi>
          </li>
        ))}
      </ul>
      <More total={issues.length} />
    </>
  );
}

function Governors({ list, kind }: { list: ScanPreview['governors']['new']; kind: 'new' | 'renamed' | 'moved' }) {
  return (
    <>
      <ul className="grid gap-1 text-sm">
        {list.slice(0, LIST_MAX).map((g) => (
          <li key={g.governorId} className="flex flex-wrap items-baseline gap-x-2">
            <span dir="ltr" className="tabular-nums text-muted-foreground">
              {g.governorId}
            </span>
            {kind === 'renamed' && g.previousName !== undefined && (
              <>
                <bdi className="text-muted-foreground line-through">{g.previousName}</bdi>
                <span aria-hidden="true" className="rtl:rotate-180">→</span>
              </>
            )}
            <bdi className="font-medium">{g.name}</bdi>
            {kind === 'moved' ? (
              <span className="text-muted-foreground">
                <bdi>{g.previousAlliance || '—'}</bdi> <span aria-hidden="true" className="inline-block rtl:rotate-180">→</span> <bdi>{g.alliance || '—'}</bdi>
              </span>
            ) : (
              g.alliance && <bdi className="text-muted-foreground">[{g.alliance}]</bdi>
            )}
          </li>
        ))}
      </ul>
      <More total={list.length} />
    </>
  );
}

const FROM_IDS: Record<ScanPreview['takenAtFrom'], string> = {
  'file-name': 'scans.from.fileName',
  sheet: 'scans.from.sheet',
  workbook: 'scans.from.workbook',
  upload: 'scans.from.upload',
  given: 'scans.from.given',
};

function PreviewView({ preview: first, onApplied, onDiscard }: { preview: ScanPreview; onApplied: (scan: Scan) => void; onDiscard: () => void }) {
  const scansApi = useScansApi();
  const [when, setWhen] = useState(() => toLocalInput(first.takenAt));
  // the time as the field says it (the file's own, to the second, while the field is untouched)
  const edited = toLocalInput(first.takenAt) === when ? first.takenAt : fromLocalInput(when);
  const settled = useDebounced(edited, 400);
  // another time is compared again with the scan before it: the lists and warnings below follow the date
  const compared = useQuery({
    queryKey: ['scans', 'preview-compare', first.token, settled],
    queryFn: () => scansApi.compare(first.token, settled as number),
    enabled: settled !== null && settled !== first.takenAt,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const preview = settled !== null && settled !== first.takenAt && compared.data ? compared.data : first;
  const comparing = edited !== settled || compared.isFetching;
  const apply = useMutation({
    mutationFn: (skipInvalid: boolean) => scansApi.apply({ token: first.token, takenAt: edited ?? undefined, skipInvalid }),
    onSuccess: onApplied,
  });
  const hasErrors = preview.errors.length > 0;
  return (
    <div className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]">
        <div className="grid content-start gap-1.5">
          <Label htmlFor="scan-taken-at">
            <FormattedMessage id="scans.takenAt" />
          </Label>
          <Input id="scan-taken-at" type="datetime-local" className="dark:[color-scheme:dark]" value={when} onChange={(e) => setWhen(e.target.value)} aria-describedby="scan-taken-at-from" />
          <p id="scan-taken-at-from" className="text-xs text-muted-foreground">
            {preview === first ? (
              <FormattedMessage id={FROM_IDS[first.takenAtFrom]} values={{ sheet: first.sheet ?? '' }} />
            ) : (
              <FormattedMessage id="scans.from.changed" />
            )}
          </p>
        </div>
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
          {(
            [
              ['scans.count.rows', preview.rows],
              ['scans.count.valid', preview.valid],
              ['scans.count.errors', preview.errors.length],
              ['scans.count.warnings', preview.warnings.length],
            ] as const
          ).map(([id, n]) => (
            <div key={id} className="rounded-md bg-muted/60 p-2">
              <dt className="text-xs text-muted-foreground">
                <FormattedMessage id={id} />
              </dt>
              <dd className="text-lg font-semibold tabular-nums">
                <FormattedNumber value={n} />
              </dd>
            </div>
          ))}
        </dl>
      </div>
      <QueryError error={compared.error} />
      <p className="text-sm" aria-live="polite">
        <FormattedMessage id={preview.kind === 'seed' ? 'scans.kind.seed' : 'scans.kind.kingdom'} />
        <span className="text-muted-foreground">
          {' · '}
          {comparing ? (
            <FormattedMessage id="scans.comparing" />
          ) : preview.previousScan ? (
            <FormattedMessage id="scans.comparedWith" values={{ date: <FormattedDate value={preview.previousScan.takenAt} dateStyle="medium" />, id: preview.previousScan.id }} />
          ) : (
            <FormattedMessage id="scans.noEarlier" />
          )}
        </span>
      </p>
      <Section titleId="scans.columns" count={preview.columns.found.length}>
        <p className="flex flex-wrap gap-1.5 text-xs">
          {preview.columns.found.map((c) => (
            <span key={c.header} className="rounded bg-muted px-1.5 py-0.5" title={c.stat}>
              <bdi>{c.header}</bdi>
            </span>
          ))}
        </p>
        {preview.columns.ignored.length > 0 && (
          <p className="mt-2 text-xs text-muted-foreground">
            <FormattedMessage id="scans.ignored" values={{ columns: preview.columns.ignored.join(', ') }} />
          </p>
        )}
      </Section>
      <Section titleId="scans.newGovernors" count={preview.governors.new.length}>
        <Governors list={preview.governors.new} kind="new" />
      </Section>
      <Section titleId="scans.renamed" count={preview.governors.renamed.length}>
        <Governors list={preview.governors.renamed} kind="renamed" />
      </Section>
      <Section titleId="scans.moved" count={preview.governors.changedAlliance.length}>
        <Governors list={preview.governors.changedAlliance} kind="moved" />
      </Section>
      <Section titleId="scans.errors" count={preview.errors.length}>
        <Issues issues={preview.errors} kind="error" />
      </Section>
      <Section titleId="scans.warnings" count={preview.warnings.length}>
        <Issues issues={preview.warnings} kind="warning" />
      </Section>
      {hasErrors && (
        <Alert variant="error">
          <FormattedMessage id="scans.hasErrors" values={{ count: preview.errors.length }} />
        </Alert>
      )}
      <QueryError error={apply.error} />
      <div className="flex flex-wrap gap-2">
        {!hasErrors && (
          <Button disabled={apply.isPending || comparing || edited === null || preview.valid === 0} onClick={() => apply.mutate(false)}>
            <FormattedMessage id="scans.apply" values={{ count: preview.valid }} />
          </Button>
        )}
        {hasErrors && (
          <Button disabled={apply.isPending || comparing || edited === null || preview.valid === 0} onClick={() => apply.mutate(true)}>
            <FormattedMessage id="scans.applySkip" />
          </Button>
        )}
        <Button variant="ghost" onClick={onDiscard} disabled={apply.isPending}>
          <FormattedMessage id="scans.discard" />
        </Button>
        {apply.isPending && <Spinner className="h-5 w-5 self-center" />}
      </div>
    </div>
  );
}

/** Drop a scanner file (or choose it), watch it upload and be read, then the preview. */
function ImportCard() {
  const scansApi = useScansApi();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [applied, setApplied] = useState<Scan | null>(null);
  const [dragging, setDragging] = useState(false);
  const file = useFilePreview((chosen: File) => scansApi.preview(chosen, null, setProgress), { onChoose: () => setApplied(null), onSettled: () => setProgress(null) });
  const { preview, choose, clear: reset } = file;

  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="scans.import" />
      </CardTitle>
      <div
        className={cn('mb-4 grid justify-items-center gap-3 rounded-lg border-2 border-dashed border-border p-6 text-center', dragging && 'border-primary bg-primary/5')}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          choose(e.dataTransfer.files[0]);
        }}
      >
        <p className="text-sm text-muted-foreground">
          <FormattedMessage id="scans.hint" />
        </p>
        <FileChooser file={file} accept={ACCEPT} label={<FormattedMessage id="scans.choose" />} noFile={<FormattedMessage id="scans.noFile" />} nameClassName="max-w-full text-foreground" />
      </div>
      {progress?.phase === 'sending' && (
        <div role="status" className="mb-4 grid gap-1.5">
          <span className="text-sm text-muted-foreground">
            <FormattedMessage id="scans.uploading" values={{ percent: Math.round(progress.fraction * 100) }} />
          </span>
          <Progress value={progress.fraction * 100} />
        </div>
      )}
      {progress?.phase === 'reading' && (
        <div role="status" className="mb-4 flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner className="h-4 w-4" />
          <FormattedMessage id="scans.reading" />
        </div>
      )}
      <QueryError error={preview.error} />
      {applied && (
        <Alert variant="success" className="mb-3">
          <FormattedMessage id="scans.applied" values={{ id: applied.id, rows: applied.rows, date: <FormattedDate value={applied.takenAt} dateStyle="medium" /> }} />
        </Alert>
      )}
      {preview.data && (
        <PreviewView
          key={preview.data.token}
          preview={preview.data}
          onDiscard={reset}
          onApplied={(scan) => {
            setApplied(scan);
            reset();
            void queryClient.invalidateQueries({ queryKey: ['scans'] });
            void queryClient.invalidateQueries({ queryKey: ['stats'] });
          }}
        />
      )}
    </Card>
  );
}

/**
 * "Change date" of one scan: its new date, saved at once; when the server says paid automatic
 * points would overlap at that date (a 409 naming the runs), the sentence is shown and the button
 * becomes "Save anyway", which sends confirm.
 */
function RedateDialog({ scan, onClose, onSaved }: { scan: Scan; onClose: () => void; onSaved: (scan: Scan) => void }) {
  const scansApi = useScansApi();
  const [when, setWhen] = useState(() => toLocalInput(scan.takenAt));
  // the field's minutes: a date left as it was keeps its seconds
  const takenAt = toLocalInput(scan.takenAt) === when ? scan.takenAt : fromLocalInput(when);
  const [warned, setWarned] = useState<number | null>(null);
  const save = useMutation({
    mutationFn: (confirm: boolean) => scansApi.redate(scan.id, takenAt as number, confirm),
    onSuccess: onSaved,
    onError: (error) => setWarned(error instanceof ApiError && error.status === 409 ? takenAt : null),
  });
  const overlapAt = warned !== null && warned === takenAt;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-lg" aria-describedby="scan-redate-text">
        <DialogHeader>
          <FormattedMessage id="scans.changeDateTitle" values={{ id: scan.id }} />
        </DialogHeader>
        <DialogBody className="grid content-start gap-4">
          <p id="scan-redate-text" className="text-sm text-muted-foreground">
            <FormattedMessage id="scans.changeDateText" values={{ file: <bdi>{scan.fileName}</bdi> }} />
          </p>
          <Field id="scan-redate-at" labelId="scans.newDate">
            <Input type="datetime-local" className="dark:[color-scheme:dark]" value={when} onChange={(e) => setWhen(e.target.value)} />
          </Field>
          {save.error !== null && (
            <Alert variant={overlapAt ? 'warning' : 'error'}>
              <ErrorText error={save.error} />
            </Alert>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="outline" onClick={onClose} disabled={save.isPending}>
              <FormattedMessage id="stats.cancel" />
            </Button>
            <Button variant={overlapAt ? 'danger' : 'primary'} disabled={save.isPending || takenAt === null || takenAt === scan.takenAt} onClick={() => save.mutate(overlapAt)}>
              <FormattedMessage id={overlapAt ? 'scans.saveAnyway' : 'scans.saveDate'} />
            </Button>
          </div>
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}

function ScansList() {
  const scansApi = useScansApi();
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [doomed, setDoomed] = useState<Scan | null>(null);
  const [redating, setRedating] = useState<Scan | null>(null);
  const [redated, setRedated] = useState<Scan | null>(null);
  const scans = useQuery({ queryKey: ['scans', 'list', page], queryFn: () => scansApi.list(page), placeholderData: keepPreviousData });
  const remove = useMutation({
    mutationFn: (id: number) => scansApi.remove(id),
    onSuccess: () => {
      setDoomed(null);
      void queryClient.invalidateQueries({ queryKey: ['scans'] });
      void queryClient.invalidateQueries({ queryKey: ['stats'] });
    },
  });
  const list = scans.data?.scans ?? [];
  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="scans.list" />
      </CardTitle>
      <QueryError error={scans.error ?? remove.error} />
      {redated && (
        <Alert variant="success" className="mb-3">
          <FormattedMessage id="scans.dateChanged" values={{ id: redated.id, date: <FormattedDate value={redated.takenAt} dateStyle="medium" timeStyle="short" /> }} />
        </Alert>
      )}
      {scans.isSuccess && list.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <FormattedMessage id="scans.none" />
        </p>
      ) : (
        <Table minWidth="40rem">
          <thead>
            <tr>
              {['date', 'kind', 'rows', 'file', 'by'].map((c) => (
                <Th key={c}>
                  <FormattedMessage id={`scans.col.${c}`} />
                </Th>
              ))}
              <Th>
                <span className="sr-only">
                  <FormattedMessage id="scans.delete" />
                </span>
              </Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {list.map((s) => (
              <tr key={s.id}>
                <Td className="whitespace-nowrap">
                  <FormattedDate value={s.takenAt} dateStyle="medium" timeStyle="short" />
                  <span className="ms-1 text-xs text-muted-foreground">#{s.id}</span>
                </Td>
                <Td>
                  <FormattedMessage id={s.kind === 'seed' ? 'scans.kindShort.seed' : 'scans.kindShort.kingdom'} />
                </Td>
                <Td className="tabular-nums">
                  <FormattedNumber value={s.rows} />
                </Td>
                <Td className="max-w-48 truncate" title={s.fileName}>
                  <bdi>{s.fileName}</bdi>
                </Td>
                <Td>
                  <bdi>{s.uploadedBy ?? intl.formatMessage({ id: 'scans.bot' })}</bdi>
                </Td>
                <Td className="text-end">
                  <span className="inline-flex flex-wrap justify-end gap-2">
                    <Button size="sm" variant="outline" onClick={() => setRedating(s)} aria-label={intl.formatMessage({ id: 'scans.changeDateOf' }, { id: s.id })}>
                      <FormattedMessage id="scans.changeDate" />
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => setDoomed(s)}>
                      <FormattedMessage id="scans.delete" />
                    </Button>
                  </span>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {scans.data && <Pagination page={scans.data.page} pageSize={scans.data.pageSize} total={scans.data.total} onPage={setPage} />}
      {redating && (
        <RedateDialog
          key={redating.id}
          scan={redating}
          onClose={() => setRedating(null)}
          onSaved={(saved) => {
            setRedating(null);
            setRedated(saved);
            void queryClient.invalidateQueries({ queryKey: ['scans'] });
            void queryClient.invalidateQueries({ queryKey: ['stats'] });
          }}
        />
      )}
      <ConfirmDialog
        open={doomed !== null}
        onOpenChange={(open) => !open && setDoomed(null)}
        title={<FormattedMessage id="scans.deleteTitle" />}
        text={
          doomed && (
            <FormattedMessage
              id="scans.deleteText"
              values={{ id: doomed.id, rows: doomed.rows, date: intl.formatDate(doomed.takenAt, { dateStyle: 'medium', timeStyle: 'short' }) }}
            />
          )
        }
        confirmId="scans.delete"
        busy={remove.isPending}
        onConfirm={() => doomed && remove.mutate(doomed.id)}
      />
    </Card>
  );
}

/** Admin → Scans: import scanner files with a preview, list and delete scans. */
export default function ScansPage({ titleId }: { titleId: string }) {
  return (
    <div className="grid grid-cols-1 gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id={titleId} />
      </h1>
      <ImportCard />
      <ScansList />
    </div>
  );
}

