import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { createKvkApi, kvkKeys, type Mark } from '../../../api/kvk';
import { KVK_REASON_MAX } from '../../../protocol/kvk';
import { Button } from '../button';
import { Dialog, DialogBody, DialogContent, DialogHeader } from '../dialog';
import { Input } from '../input';
import { useApi } from '../../lib/use-api';
import { Field } from '../field';
import { KvkAlert } from './kvk-parts';

// Marking governors, which the KvK dashboard and the KvK management page share.

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
      await queryClient.invalidateQueries({ queryKey: kvkKeys.all });
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
        <form className="grid gap-4" onSubmit={submit} noValidate>
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
          <Field id="mark-reason" labelId="kvk.mark.reason">
            <Input id="mark-reason" value={reason} maxLength={KVK_REASON_MAX} dir="auto" onChange={(e) => setReason(e.target.value)} placeholder={intl.formatMessage({ id: 'kvk.mark.reasonPlaceholder' })} />
          </Field>
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
    onSuccess: () => queryClient.invalidateQueries({ queryKey: kvkKeys.all }),
  });
}
