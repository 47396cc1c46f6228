import { useMutation } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { useChild } from '../app-context';
import { saveBlob } from '../lib/back-office';
import { Button } from './button';

/** "Export CSV" (or `labelId`): the file is fetched with the bearer token, then saved. Failures become a notification. */
export function ExportCsvButton({
  fetchCsv,
  filename,
  disabled = false,
  labelId = 'list.exportCsv',
}: {
  fetchCsv: () => Promise<{ blob: Blob; filename: string | null }>;
  filename: string;
  disabled?: boolean;
  labelId?: string;
}) {
  const notifications = useChild('notifications');
  const exporting = useMutation({
    mutationFn: fetchCsv,
    onSuccess: ({ blob, filename: named }) => saveBlob(blob, named ?? filename),
    onError: (error) => notifications.send({ type: 'NOTIFY', notification: { kind: 'error', titleId: 'notify.error', text: (error as Error).message } }),
  });
  return (
    <Button variant="outline" size="sm" disabled={disabled || exporting.isPending} onClick={() => exporting.mutate()}>
      <svg viewBox="0 0 24 24" className="h-4 w-4" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M12 3v12m0 0l-4-4m4 4l4-4M4 17v3h16v-3" />
      </svg>
      <FormattedMessage id={exporting.isPending ? 'list.exporting' : labelId} />
    </Button>
  );
}
