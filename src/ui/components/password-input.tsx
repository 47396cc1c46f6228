import { useState, type ComponentProps } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { cn } from '../lib/cn';
import { passwordScore } from '../lib/password-score';
import { Input } from './input';

/** A password input with show/hide, and optionally the strength indicator under it. */
export function PasswordInput({ strength = false, className, value, ...props }: ComponentProps<'input'> & { strength?: boolean }) {
  const intl = useIntl();
  const [shown, setShown] = useState(false);
  const score = passwordScore(String(value ?? ''));
  const colours = ['bg-danger', 'bg-danger', 'bg-warning', 'bg-primary', 'bg-success'];
  return (
    <div className="grid gap-1.5">
      <div className="relative">
        <Input type={shown ? 'text' : 'password'} value={value} className={cn('pe-10', className)} {...props} />
        <button
          type="button"
          onClick={() => setShown((s) => !s)}
          aria-label={intl.formatMessage({ id: shown ? 'password.hide' : 'password.show' })}
          className="absolute inset-y-0 end-0 flex w-10 cursor-pointer items-center justify-center text-muted-foreground hover:text-foreground"
        >
          <svg viewBox="0 0 24 24" className="h-4 w-4" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" />
            <circle cx="12" cy="12" r="3" />
            {shown && <path d="M3 3l18 18" />}
          </svg>
        </button>
      </div>
      {strength && (
        <div
          role="meter"
          aria-label={intl.formatMessage({ id: 'password.meter' })}
          aria-valuemin={0}
          aria-valuemax={4}
          aria-valuenow={score}
          aria-valuetext={intl.formatMessage({ id: `password.strength.${score}` })}
          data-score={score}
        >
          <div className="flex gap-1" aria-hidden="true">
            {[1, 2, 3, 4].map((i) => (
              <span key={i} className={cn('h-1 flex-1 rounded-full', score >= i ? colours[score] : 'bg-muted')} />
            ))}
          </div>
          {/* nothing typed yet: no verdict, only the empty bars */}
          {String(value ?? '') !== '' && (
            <p className="mt-1 text-xs text-muted-foreground">
              <FormattedMessage id="password.strength" values={{ level: <FormattedMessage id={`password.strength.${score}`} /> }} />
            </p>
          )}
        </div>
      )}
    </div>
  );
}
