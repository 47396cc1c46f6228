import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { useChild } from '../../app-context';
import { Button } from '../../components/button';
import { Label } from '../../components/label';
import { saveBlob } from '../../lib/back-office';

/** A labelled filter or form control. */
export function LabelledField({ id, labelId, children, error }: { id: string; labelId: string; children: ReactNode; error?: string }) {
  return (
    <div className="grid min-w-0 content-start gap-1.5">
      <Label htmlFor={id}>
        <FormattedMessage id={labelId} />
      </Label>
      {children}
      {error && (
        <p role="alert" dir="auto" className="text-start text-xs text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

/** A value that follows its source after a pause (search as you type without a call per key). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return current;
}

/** "Export CSV": the file is fetched with the bearer token, then saved. Failures become a notification. */
export function ExportCsvButton({ fetchCsv, filename, disabled = false }: { fetchCsv: () => Promise<{ blob: Blob; filename: string | null }>; filename: string; disabled?: boolean }) {
  const notifications = useChild('notifications');
  const exporting = useMutation({
    mutationFn: fetchCsv,
    onSuccess: ({ blob, filename: named }) => saveBlob(blob, named ?? filename),
    onError: (error) => notifications.send({ type: 'NOTIFY', notification: { kind: 'error', titleId: 'notify.error', text: (error as Error).message } }),
  });
  return (
    <Button variant="outline" size="sm" disabled={disabled || exporting.isPending} onClick={() => exporting.mutate()} data-testid="export-csv">
      <svg viewBox="0 0 24 24" className="h-4 w-4" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M12 3v12m0 0l-4-4m4 4l4-4M4 17v3h16v-3" />
      </svg>
      <FormattedMessage id={exporting.isPending ? 'list.exporting' : 'list.exportCsv'} />
    </Button>
  );
}

/** Whether a From–To period ends before it starts (dates as YYYY-MM-DD or epoch ms; an empty end is open). */
export function periodBackwards(from: string | number | undefined, to: string | number | undefined): boolean {
  if (from === undefined || to === undefined || from === '' || to === '') return false;
  return from > to;
}

/** Today as YYYY-MM-DD (for the date filters' file names). */
export const today = () => new Date().toISOString().slice(0, 10);
