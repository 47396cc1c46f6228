import { useMutation } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { createPlayerLinksApi, type LinkPreview, type LinkRow } from '../../../api/player-links';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { FileChooser } from '../../components/file-chooser';
import { Hint } from '../../components/hint';
import { ErrorText, QueryError } from '../../components/query-error';
import { GovernorName } from '../../components/stats/cells';
import { Table, Td, Th } from '../../components/table';
import { cn } from '../../lib/cn';
import { useServerText } from '../../lib/server-text';
import { useApi } from '../../lib/use-api';
import { SPREADSHEET_ACCEPT, useFilePreview } from '../../lib/use-file-preview';
import { useSingleFlight } from '../../lib/use-single-flight';

/** How each outcome reads: linked (green), a warning (amber), nothing to do, or left out (red). */
const TONE: Record<LinkRow['outcome'], string> = {
  link: 'text-success',
  unseen: 'text-warning',
  already: 'text-muted-foreground',
  invalid: 'text-danger',
  'unknown-account': 'text-danger',
  taken: 'text-danger',
  duplicate: 'text-danger',
};

function PreviewTable({ preview }: { preview: LinkPreview }) {
  const say = useServerText();
  return (
    <Table minWidth="36rem">
      <thead>
        <tr>
          {['line', 'governor', 'account', 'outcome'].map((c) => (
            <Th key={c}>
              <FormattedMessage id={`stats.playerIds.import.col.${c}`} />
            </Th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-border">
        {preview.rows.map((row) => (
          <tr key={row.line} data-outcome={row.outcome} className={cn(TONE[row.outcome] === 'text-danger' && 'bg-danger/5')}>
            <Td className="tabular-nums text-muted-foreground">{row.line}</Td>
            <Td>{row.governorId === null ? '—' : <GovernorName governorId={row.governorId} name={row.name} />}</Td>
            <Td>
              <bdi className="break-all">{row.username ?? '—'}</bdi>
            </Td>
            <Td>
              <span className={cn('font-medium', TONE[row.outcome])}>
                <FormattedMessage id={`stats.playerIds.import.outcome.${row.outcome}`} />
              </span>
              {row.text && <bdi className="block text-xs text-muted-foreground">{say(row.text)}</bdi>}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** Farms linked from a CSV or XLSX file (governor id, account): upload, preview each row's outcome, apply in one go. */
export function LinkImportCard({ onLinked }: { onLinked: () => void }) {
  const intl = useIntl();
  const api = useApi(createPlayerLinksApi);
  const file = useFilePreview((chosen: File) => api.importPreview(chosen), { onChoose: () => apply.reset() });
  const { preview, clear } = file;
  const apply = useMutation({
    mutationFn: (previewToken: string) => api.importApply(previewToken),
    onSuccess: () => {
      clear();
      onLinked();
    },
  });
  const applyOnce = useSingleFlight(apply);

  const data = preview.data;
  return (
    <Card className="grid min-w-0 gap-3" aria-label={intl.formatMessage({ id: 'stats.playerIds.import.title' })}>
      <CardTitle>
        <FormattedMessage id="stats.playerIds.import.title" />
      </CardTitle>
      <Hint id="stats.playerIds.import.hint" />
      <div className="flex flex-wrap items-center gap-3">
        <FileChooser
          file={file}
          accept={SPREADSHEET_ACCEPT}
          label={<FormattedMessage id="stats.playerIds.import.choose" />}
          noFile={<FormattedMessage id="stats.playerIds.import.noFile" />}
          disabled={preview.isPending || apply.isPending}
        />
      </div>
      {preview.isPending && (
        <p role="status" className="text-sm text-muted-foreground">
          <FormattedMessage id="stats.playerIds.import.reading" />
        </p>
      )}
      <QueryError error={preview.error} />
      {apply.isSuccess && (
        <Alert variant="success">
          <FormattedMessage id="stats.playerIds.import.applied" values={{ count: apply.data }} />
        </Alert>
      )}
      {apply.isError && (
        <Alert variant="error">
          <ErrorText error={apply.error} />
        </Alert>
      )}
      {data && (
        <div className="grid min-w-0 gap-3">
          <p className="text-sm">
            <FormattedMessage id="stats.playerIds.import.summary" values={{ toLink: data.toLink, leftOut: data.leftOut }} />
          </p>
          {data.unseen > 0 && (
            <Alert variant="warning">
              <FormattedMessage id="stats.playerIds.import.unseenWarning" values={{ count: data.unseen }} />
            </Alert>
          )}
          <PreviewTable preview={data} />
          <div className="flex flex-wrap gap-2">
            <Button disabled={data.toLink === 0 || apply.isPending} onClick={() => applyOnce(data.token)}>
              <FormattedMessage id="stats.playerIds.import.apply" values={{ count: data.toLink }} />
            </Button>
            <Button variant="ghost" onClick={clear}>
              <FormattedMessage id="stats.playerIds.import.discard" />
            </Button>
          </div>
        </div>
      )}
    </Card>
  );
}
