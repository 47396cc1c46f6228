import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';

/**
 * A styled native <select>: used where the page must stay light (the language switcher on the
 * public pages). The chevron sits at the inline end, so it mirrors in Arabic.
 */
export function NativeSelect({ className, children, ...props }: ComponentProps<'select'>) {
  return (
    <span className={cn('relative inline-flex h-9', className)}>
      <select
        className="h-full w-full cursor-pointer appearance-none rounded-md border border-input bg-card ps-3 pe-8 text-sm text-foreground focus-visible:outline-2 focus-visible:outline-primary aria-invalid:border-danger"
        {...props}
      >
        {children}
      </select>
      <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 end-2.5 flex items-center text-xs text-muted-foreground">
        ▾
      </span>
    </span>
  );
}
