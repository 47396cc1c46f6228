import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';

export interface CheckboxProps extends Omit<ComponentProps<'input'>, 'type' | 'checked' | 'onChange'> {
  checked?: boolean;
  onCheckedChange?: (checked: boolean) => void;
}

/**
 * A checkbox: the browser's own input (its role, keyboard, label and form behaviour), drawn as the
 * rest of the design (a primary box with a tick). It replaced Radix's checkbox, a button that plays
 * one, which cost /signin (its "Remember me") 2 KB of script for no behaviour the input lacks.
 * `className` places the box (margins); the box itself is fixed.
 */
export function Checkbox({ className, onCheckedChange, ...props }: CheckboxProps) {
  return (
    <span className={cn('relative inline-flex h-4 w-4 shrink-0', className)}>
      <input
        type="checkbox"
        className="peer m-0 h-4 w-4 cursor-pointer appearance-none rounded border border-input bg-transparent checked:border-primary checked:bg-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:cursor-not-allowed disabled:opacity-50"
        onChange={(event) => onCheckedChange?.(event.currentTarget.checked)}
        {...props}
      />
      <svg viewBox="0 0 12 12" className="pointer-events-none absolute inset-0.5 hidden h-3 w-3 text-primary-foreground peer-checked:block" aria-hidden="true">
        <path d="M2.5 6.5l2.5 2.5 4.5-5" fill="none" stroke="currentColor" strokeWidth="1.8" />
      </svg>
    </span>
  );
}
