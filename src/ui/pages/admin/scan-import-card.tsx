import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber } from 'react-intl';
import { scansKeys, statsKeys, type Scan, type ScanPreview, type UploadProgress } from '../../../api/scans';
import type { ScanIssue } from '../../../protocol/scans';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { FileChooser } from '../../components/file-chooser';
import { Input } from '../../components/input';
import { Label } from '../../components/label';
import { Spinner } from '../../components/loader';
import { Progress } from '../../components/progress';
import { cn } from '../../lib/cn';
import { useScansApi } from '../../components/stats/scan-parts';
import { QueryError } from '../../components/query-error';
import { useServerText } from '../../lib/server-text';
import { useDebounced } from '../../lib/use-debounced';
import { useFilePreview } from '../../lib/use-file-preview';

/**
 * The Scans page's import: a scanner file dropped or chosen, its upload and reading watched, then its
 * preview (errors, warnings, new, renamed and moved governors, when it was taken) and the apply.
 */
const ACCEPT = '.csv,.xlsx,.jsonl,.ndjson,.json,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Lists longer than this are cut, with "and N more" (a 5,000-row file may warn on every row). */
const LIST_MAX = 100;

const pad = (n: number) => String(n).padStart(2, '0');
/** Epoch ms as a datetime-local input's value (local time). */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
export function fromLocalInput(value: string): number | null {
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
    queryKey: scansKeys.compare(first.token, settled),
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
export function ImportCard() {
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
            void queryClient.invalidateQueries({ queryKey: scansKeys.all });
            void queryClient.invalidateQueries({ queryKey: statsKeys.all });
          }}
        />
      )}
    </Card>
  );
}

