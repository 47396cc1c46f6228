import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { createKvkApi, type KvkStatus, type Mark } from '../../../api/kvk';
import { KVK_ERRORS, KVK_REASON_MAX } from '../../../protocol/kvk';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Dialog, DialogBody, DialogContent, DialogHeader } from '../../components/dialog';
import { Input } from '../../components/input';
import { Progress } from '../../components/progress';
import { cn } from '../../lib/cn';
import { useApi } from '../../lib/use-api';
import { LabelledField } from '../points/shared';

/** A status as a coloured tag: met green, not met red, exempt grey, zeroed amber. */
const STATUS_CLASSES: Record<KvkStatus, string> = {
  met: 'bg-success/15 text-success ring-success/30',
  'not-met': 'bg-danger/10 text-danger ring-danger/30',
  exempt: 'bg-muted text-muted-foreground ring-border',
  zeroed: 'bg-warning/15 text-warning ring-warning/30',
};

export function StatusTag({ status, className }: { status: KvkStatus; className?: string }) {
  return (
    <span data-status={status} className={cn('inline-flex items-center whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset', STATUS_CLASSES[status], className)}>
      <FormattedMessage id={`kvk.status.${status}`} />
    </span>
  );
}

/** A progress bar (0–100, computed by the server) with its percentage, named for screen readers. */
export function ProgressBar({ value, labelId, testId }: { value: number; labelId: string; testId?: string }) {
  const intl = useIntl();
  return (
    <span className="flex min-w-0 items-center gap-2" data-testid={testId} data-value={value}>
      <Progress
        value={value}
        className="h-2 min-w-12 flex-1"
        indicatorClassName={value >= 100 ? 'bg-success' : undefined}
        aria-label={intl.formatMessage({ id: labelId })}
        aria-valuetext={intl.formatNumber(value / 100, { style: 'percent' })}
      />
      <span className="w-10 shrink-0 text-end text-xs tabular-nums text-muted-foreground">{intl.formatNumber(value / 100, { style: 'percent' })}</span>
    </span>
  );
}

/** The server's KvK texts in the reader's language (a text it does not know stays as it is; a window's name after its text is kept). */
export function kvkError(intl: IntlShape, message: string): string {
  for (const [key, text] of Object.entries(KVK_ERRORS)) {
    // query errors (a bad sort or page) come from no form and keep the server's text
    if (!(`kvk.error.${key}` in intl.messages)) continue;
    if (message === text) return intl.formatMessage({ id: `kvk.error.${key}` });
    if (message.startsWith(`${text} (`)) return `${intl.formatMessage({ id: `kvk.error.${key}` })} ${message.slice(text.length + 1)}`;
  }
  return message;
}

export function KvkAlert({ error }: { error: unknown }) {
  const intl = useIntl();
  if (!error) return null;
  return (
    <Alert variant="error">
      <bdi>{kvkError(intl, (error as Error).message)}</bdi>
    </Alert>
  );
}

/**
 * Marking a governor zeroed or exempt, with a reason (leadership's decision: a suggestion is only
 * marked when someone confirms it here). Every KvK query is refreshed after.
 */
export function MarkDialog({
  seasonId,
  governor,
  initialMark,
  initialReason = '',
  onOpenChange,
}: {
  seasonId: number;
  governor: { governorId: number; name: string } | null;
  initialMark: Mark;
  initialReason?: string;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={governor !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg" aria-describedby={undefined}>
        {governor && <MarkForm key={`${governor.governorId}-${initialMark}`} seasonId={seasonId} governor={governor} initialMark={initialMark} initialReason={initialReason} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function MarkForm({ seasonId, governor, initialMark, initialReason, onDone }: { seasonId: number; governor: { governorId: number; name: string }; initialMark: Mark; initialReason: string; onDone: () => void }) {
  const intl = useIntl();
  const kvk = useApi(createKvkApi);
  const queryClient = useQueryClient();
  const [mark, setMark] = useState<Mark>(initialMark);
  const [reason, setReason] = useState(initialReason);
  const save = useMutation({
    mutationFn: () => kvk.mark(seasonId, governor.governorId, { mark, reason }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['kvk'] });
      onDone();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <>
      <DialogHeader>
        <FormattedMessage id="kvk.mark.title" values={{ name: <bdi>{governor.name || `#${governor.governorId}`}</bdi> }} />
      </DialogHeader>
      <DialogBody>
        <form className="grid gap-4" onSubmit={submit} noValidate data-testid="mark-form">
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">
              <FormattedMessage id="kvk.mark.kind" />
            </legend>
            {(['zeroed', 'exempt'] as const).map((m) => (
              <label key={m} className="flex cursor-pointer items-center gap-2 text-sm">
                <input type="radio" name="mark" value={m} checked={mark === m} onChange={() => setMark(m)} className="accent-primary" />
                <FormattedMessage id={`kvk.status.${m}`} />
              </label>
            ))}
          </fieldset>
          <LabelledField id="mark-reason" labelId="kvk.mark.reason">
            <Input id="mark-reason" value={reason} maxLength={KVK_REASON_MAX} dir="auto" onChange={(e) => setReason(e.target.value)} placeholder={intl.formatMessage({ id: 'kvk.mark.reasonPlaceholder' })} />
          </LabelledField>
          <KvkAlert error={save.error} />
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="outline" onClick={onDone}>
              <FormattedMessage id="stats.cancel" />
            </Button>
            <Button type="submit" disabled={save.isPending}>
              <FormattedMessage id="kvk.mark.save" />
            </Button>
          </div>
        </form>
      </DialogBody>
    </>
  );
}

/** Takes a governor's mark back (a small button in the standings and the editor). */
export function useUnmark(seasonId: number | undefined) {
  const kvk = useApi(createKvkApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (governorId: number) => kvk.unmark(seasonId!, governorId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['kvk'] }),
  });
}
