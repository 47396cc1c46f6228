import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { scansKeys, statsKeys, type Scan } from '../../../api/scans';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { Input } from '../../components/input';
import { Pagination } from '../../components/pagination';
import { Table, Td, Th } from '../../components/table';
import { ConfirmDialog } from '../../components/stats/confirm-dialog';
import { useScansApi } from '../../components/stats/scan-parts';
import { ErrorText, QueryError } from '../../components/query-error';
import { Dialog, DialogBody, DialogContent, DialogHeader } from '../../components/dialog';
import { Field } from '../../components/field';
import { ApiError } from '../../../api/client';
import { ImportCard, fromLocalInput, toLocalInput } from './scan-import-card';

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
  const scans = useQuery({ queryKey: scansKeys.list(page), queryFn: () => scansApi.list(page), placeholderData: keepPreviousData });
  const remove = useMutation({
    mutationFn: (id: number) => scansApi.remove(id),
    onSuccess: () => {
      setDoomed(null);
      void queryClient.invalidateQueries({ queryKey: scansKeys.all });
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
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
            void queryClient.invalidateQueries({ queryKey: scansKeys.all });
            void queryClient.invalidateQueries({ queryKey: statsKeys.all });
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

