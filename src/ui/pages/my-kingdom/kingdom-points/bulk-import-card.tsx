import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { createPointsApi, pointsKeys, type BulkPreview } from '../../../../api/points';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Card, CardTitle } from '../../../components/card';
import { FileChooser } from '../../../components/file-chooser';
import { Table, Td, Th } from '../../../components/table';
import { useApi } from '../../../lib/use-api';
import { SPREADSHEET_ACCEPT, useFilePreview } from '../../../lib/use-file-preview';
import { cn } from '../../../lib/cn';
import { ErrorText, QueryError } from '../../../components/query-error';
import { useServerText } from '../../../lib/server-text';
import { useSingleFlight } from '../../../lib/use-single-flight';

function PreviewTable({ preview }: { preview: BulkPreview }) {
  const say = useServerText();
  return (
    <Table minWidth="40rem">
      <thead>
        <tr>
          {['line', 'player', 'amount', 'reason', 'check'].map((c) => (
            <Th key={c}>
              <FormattedMessage id={`bulk.col.${c}`} />
            </Th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-border">
        {preview.rows.map((row) => (
          <tr key={row.line} data-valid={row.error ? 'false' : 'true'} className={cn(row.error && 'bg-danger/5')}>
            <Td className="tabular-nums text-muted-foreground">{row.line}</Td>
            <Td>
              <span className="flex flex-wrap items-baseline gap-x-2">
                {row.username ? <bdi className="font-medium">{row.username}</bdi> : null}
                {row.playerid && (
                  <span dir="ltr" className="tabular-nums text-xs text-muted-foreground">
                    {row.playerid}
                  </span>
                )}
                {!row.username && !row.playerid && '—'}
                {row.matchedBy && (
                  <span className="whitespace-nowrap rounded bg-muted px-1.5 py-0.5 text-xs text-muted-foreground">
                    <FormattedMessage id={`bulk.matched.${row.matchedBy}`} />
                  </span>
                )}
              </span>
            </Td>
            <Td className={cn('tabular-nums', row.amount !== null && row.amount < 0 && 'text-danger')}>
              {row.amount === null ? '—' : <FormattedNumber value={row.amount} signDisplay="exceptZero" />}
            </Td>
            <Td dir="auto" className="max-w-64 truncate text-start" title={row.reason ?? undefined}>
              {row.reason ?? '—'}
            </Td>
            <Td>
              {row.error ? (
                <bdi className="text-danger">
                  {say(row.error)}
                </bdi>
              ) : (
                <span className="text-success">
                  <FormattedMessage id="bulk.ok" />
                </span>
              )}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** Bulk award from a CSV or XLSX file: upload, preview with an error on each bad row, apply all or nothing. */
export function BulkImportCard() {
  const intl = useIntl();
  const points = useApi(createPointsApi);
  const queryClient = useQueryClient();
  const file = useFilePreview((chosen: File) => points.bulkPreview(chosen), { onChoose: () => apply.reset() });
  const { preview, clear } = file;
  const apply = useMutation({
    mutationFn: (previewToken: string) => points.bulkApply(previewToken),
    onSuccess: () => {
      clear();
      void queryClient.invalidateQueries({ queryKey: pointsKeys.all });
    },
  });
  const applyOnce = useSingleFlight(apply);

  const data = preview.data;
  const canApply = !!data && data.invalid === 0 && data.valid > 0 && !apply.isPending;
  return (
    <Card aria-label={intl.formatMessage({ id: 'bulk.title' })}>
      <CardTitle>
        <FormattedMessage id="bulk.title" />
      </CardTitle>
      <p className="mb-4 text-sm text-muted-foreground">
        <FormattedMessage id="bulk.hint" />
      </p>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <FileChooser
          file={file}
          accept={SPREADSHEET_ACCEPT}
          label={<FormattedMessage id="bulk.choose" />}
          noFile={<FormattedMessage id="bulk.noFile" />}
          disabled={preview.isPending || apply.isPending}
        />
      </div>
      {preview.isPending && (
        <p role="status" className="text-sm text-muted-foreground">
          <FormattedMessage id="bulk.reading" />
        </p>
      )}
      {preview.isError && <QueryError error={preview.error} />}
      {apply.isSuccess && (
        <Alert variant="success">
          <FormattedMessage id="bulk.applied" values={{ count: apply.data }} />
        </Alert>
      )}
      {apply.isError && (
        <Alert variant="error" className="mb-3">
          <FormattedMessage id="bulk.applyFailed" values={{ error: <ErrorText error={apply.error} /> }} />
        </Alert>
      )}
      {data && (
        <div className="grid gap-3">
          <p className="text-sm">
            <FormattedMessage id="bulk.summary" values={{ valid: data.valid, invalid: data.invalid }} />
          </p>
          {data.earlier.length > 0 && (
            <Alert variant="warning">
              <FormattedMessage
                id="bulk.earlier"
                values={{
                  count: data.earlier.length,
                  at: <FormattedDate value={data.earlier[0].at} dateStyle="medium" timeStyle="short" />,
                  by: <bdi>{data.earlier[0].by ?? '—'}</bdi>,
                  total: data.earlier[0].total,
                }}
              />
            </Alert>
          )}
          {data.invalid > 0 && (
            <Alert variant="error">
              <FormattedMessage id="bulk.fixFirst" />
            </Alert>
          )}
          {data.rows.length > 0 && <PreviewTable preview={data} />}
          <div className="flex flex-wrap gap-2">
            <Button disabled={!canApply} onClick={() => applyOnce(data.token)}>
              <FormattedMessage id="bulk.apply" values={{ count: data.valid }} />
            </Button>
            <Button variant="ghost" onClick={clear}>
              <FormattedMessage id="bulk.discard" />
            </Button>
          </div>
        </div>
      )}
    </Card>
  );
}
