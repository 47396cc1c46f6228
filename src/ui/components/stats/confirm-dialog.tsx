import * as DialogPrimitive from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { useReturnFocus } from '../../lib/return-focus';
import { Button } from '../button';

/** "Are you sure?" before something that cannot be undone: a title, a sentence, Cancel and the danger action. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  text,
  confirmId,
  onConfirm,
  busy,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  text: ReactNode;
  confirmId: string;
  onConfirm: () => void;
  busy?: boolean;
}) {
  const focus = useReturnFocus({});
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <DialogPrimitive.Content className="fixed start-1/2 top-1/2 z-50 grid w-[min(28rem,calc(100vw-2rem))] -translate-y-1/2 gap-3 rounded-lg border border-border bg-card p-5 text-foreground shadow-xl ltr:-translate-x-1/2 rtl:translate-x-1/2" {...focus}>
          <DialogPrimitive.Title className="text-lg font-semibold">{title}</DialogPrimitive.Title>
          <DialogPrimitive.Description className="text-sm text-muted-foreground">{text}</DialogPrimitive.Description>
          <div className="mt-2 flex flex-wrap justify-end gap-2">
            <DialogPrimitive.Close asChild>
              <Button variant="outline">
                <FormattedMessage id="stats.cancel" />
              </Button>
            </DialogPrimitive.Close>
            <Button variant="danger" disabled={busy} onClick={onConfirm}>
              <FormattedMessage id={confirmId} />
            </Button>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/**
 * The same dialog about one thing (a rule, a bot, a link): open while `subject` is set, closed by
 * `onClose`; its title, its sentence and its action are given the thing.
 */
export function ConfirmDialogFor<T>({
  subject,
  onClose,
  title,
  text,
  confirmId,
  onConfirm,
  busy,
}: {
  subject: T | null;
  onClose: () => void;
  title: (subject: T) => ReactNode;
  text: (subject: T) => ReactNode;
  confirmId: string;
  onConfirm: (subject: T) => void;
  busy?: boolean;
}) {
  return (
    <ConfirmDialog
      open={subject !== null}
      onOpenChange={(open) => !open && onClose()}
      title={subject !== null && title(subject)}
      text={subject !== null && text(subject)}
      confirmId={confirmId}
      busy={busy}
      onConfirm={() => subject !== null && onConfirm(subject)}
    />
  );
}
