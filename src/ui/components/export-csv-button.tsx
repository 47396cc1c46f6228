import { useMutation } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ExportFile } from '../../api/rest';
import { useChild } from '../app-context';
import { saveBlob } from '../lib/back-office';
import { Button } from './button';

type Fetched = { blob: Blob; filename: string | null };

/** "Export CSV" (or `labelId`): the file is fetched with the bearer token, then saved. Failures become a notification. */
export function ExportCsvButton({
  fetchCsv,
  filename,
  disabled = false,
  labelId = 'list.exportCsv',
}: {
  fetchCsv: () => Promise<Fetched>;
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

/**
 * "Export CSV" and "Export XLSX" side by side: the server writes the list with the columns titled
 * as the page titles them, in the reader's language (the page's own). `name` is the file's name
 * without its extension, when the server does not name it.
 */
export function ExportButtons({ fetchFile, name, disabled = false }: { fetchFile: (file: ExportFile) => Promise<Fetched>; name: string; disabled?: boolean }) {
  const { locale } = useIntl();
  return (
    <span className="flex flex-wrap gap-2">
      <ExportCsvButton fetchCsv={() => fetchFile({ format: 'csv', lang: locale })} filename={`${name}.csv`} disabled={disabled} />
      <ExportCsvButton fetchCsv={() => fetchFile({ format: 'xlsx', lang: locale })} filename={`${name}.xlsx`} disabled={disabled} labelId="list.exportXlsx" />
    </span>
  );
}
