import { Slot } from '@radix-ui/react-slot';
import type { ReactElement, ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { cn } from '../lib/cn';
import { Label } from './label';

/**
 * The one form field: its label, an optional hint and its error, and the control
 * (the only child) wired to them — the field gives the control its `id`, `aria-describedby` (the
 * hint and the error, when shown) and `aria-invalid`, so no form repeats them. Texts come as locale
 * ids (`labelId`, `hintId`, `errorId`) or as nodes (`label`, `hint`, `error`: a server's text, say).
 * The control must pass these props on to its input (Input, PasswordInput, NativeSelect do).
 */
export interface FieldProps {
  id: string;
  label?: ReactNode;
  labelId?: string;
  hint?: ReactNode;
  hintId?: string;
  error?: ReactNode;
  errorId?: string;
  className?: string;
  children: ReactElement;
}

export function Field({ id, label, labelId, hint, hintId, error, errorId, className, children }: FieldProps) {
  const hintShown = hint ?? (hintId ? <FormattedMessage id={hintId} /> : null);
  const errorShown = error || (errorId ? <FormattedMessage id={errorId} /> : null);
  const describedBy = [hintShown ? `${id}-hint` : null, errorShown ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('grid min-w-0 content-start gap-1.5', className)}>
      <Label htmlFor={id}>{label ?? (labelId ? <FormattedMessage id={labelId} /> : null)}</Label>
      <Slot id={id} aria-describedby={describedBy} aria-invalid={errorShown ? true : undefined}>
        {children}
      </Slot>
      {hintShown && (
        <p id={`${id}-hint`} className="text-start text-xs text-muted-foreground">
          {hintShown}
        </p>
      )}
      {errorShown && (
        <p id={`${id}-error`} role="alert" dir="auto" className="text-start text-sm text-danger">
          {errorShown}
        </p>
      )}
    </div>
  );
}
