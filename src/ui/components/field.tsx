import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Label } from './label';

/** A labelled form field with its error message (a locale id) below it. */
export function Field({ id, label, error, children }: { id: string; label: ReactNode; error?: string; children: ReactNode }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          <FormattedMessage id={error} />
        </p>
      )}
    </div>
  );
}
