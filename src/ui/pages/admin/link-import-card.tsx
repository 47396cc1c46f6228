import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { createPlayerLinksApi, type LinkPreview, type LinkRow } from '../../../api/player-links';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { Hint } from '../../components/hint';
import { ErrorText, QueryError } from '../../components/query-error';
import { GovernorName } from '../../components/stats/cells';
import { Table, Td, Th } from '../../components/table';
import { cn } from '../../lib/cn';
import { useServerText } from '../../lib/server-text';
import { useApi } from '../../lib/use-api';
import { useSingleFlight } from '../../lib/use-single-flight';

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

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
  const input = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const preview = useMutation({ mutationFn: (file: File) => api.importPreview(file) });
  const clear = () => {
    preview.reset();
    setFileName(null);
    if (input.current) input.current.value = '';
  };
  const apply = useMutation({
    mutationFn: (previewToken: string) => api.importApply(previewToken),
    onSuccess: () => {
      clear();
      onLinked();
    },
  });
  const applyOnce = useSingleFlight(apply);

  function choose(file: File | undefined) {
    apply.reset();
    preview.reset();
    setFileName(file?.name ?? null);
    if (file) preview.mutate(file);
  }

  const data = preview.data;
  return (
    <Card className="grid min-w-0 gap-3" aria-label={intl.formatMessage({ id: 'stats.playerIds.import.title' })}>
      <CardTitle>
        <FormattedMessage id="stats.playerIds.import.title" />
      </CardTitle>
      <Hint id="stats.playerIds.import.hint" />
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="outline" onClick={() => input.current?.click()} disabled={preview.isPending || apply.isPending}>
          <FormattedMessage id="stats.playerIds.import.choose" />
        </Button>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => choose(e.target.files?.[0])}
        />
        <span dir="auto" className="min-w-0 truncate text-sm text-muted-foreground">
          {fileName ?? <FormattedMessage id="stats.playerIds.import.noFile" />}
        </span>
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
