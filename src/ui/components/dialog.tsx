import * as DialogPrimitive from '@radix-ui/react-dialog';
import type { ComponentProps, ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { cn } from '../lib/cn';
import { useReturnFocus } from '../lib/return-focus';

/**
 * A modal dialog in the middle of the screen (a sheet of the whole width on phones), scrolling
 * inside when it is taller than the screen; Escape, the close button and a click outside close it.
 */
export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export function DialogContent({ className, children, onOpenAutoFocus, onCloseAutoFocus, ...props }: ComponentProps<typeof DialogPrimitive.Content>) {
  const intl = useIntl();
  const focus = useReturnFocus({ onOpenAutoFocus, onCloseAutoFocus });
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/50" />
      <DialogPrimitive.Content
        className={cn(
          'fixed inset-x-2 top-2 bottom-2 z-50 mx-auto flex max-w-3xl flex-col rounded-lg border border-border bg-card text-foreground shadow-xl outline-none sm:inset-x-4 sm:top-[5vh] sm:bottom-auto sm:max-h-[90vh]',
          className,
        )}
        {...props}
        {...focus}
      >
        {children}
        <DialogPrimitive.Close
          className="absolute end-3 top-3 flex h-8 w-8 cursor-pointer items-center justify-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-primary"
          aria-label={intl.formatMessage({ id: 'dialog.close' })}
        >
          <svg viewBox="0 0 24 24" className="h-4 w-4" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/** The dialog's title bar (room left at the end for the close button). */
export function DialogHeader({ children, description }: { children: ReactNode; description?: ReactNode }) {
  return (
    <div className="shrink-0 border-b border-border px-5 py-4 pe-14">
      <DialogPrimitive.Title className="text-lg font-semibold">{children}</DialogPrimitive.Title>
      {description && <DialogPrimitive.Description className="mt-1 text-sm text-muted-foreground">{description}</DialogPrimitive.Description>}
    </div>
  );
}

/** The dialog's body: scrolls when the content is taller than the dialog. */
export function DialogBody({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('min-h-0 flex-1 overflow-y-auto px-5 py-4', className)} {...props} />;
}

/** A title for a dialog that lays out its own content (room left at the end for the close button). */
export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('pe-8 text-lg font-semibold wrap-anywhere', className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn('text-sm text-muted-foreground', className)} {...props} />;
}
