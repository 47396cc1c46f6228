import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    <input
      className={cn(
        'flex h-10 w-full rounded-md border border-input bg-card px-3 text-sm text-foreground placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-primary aria-invalid:border-danger disabled:opacity-50',
        className,
      )}
      {...props}
    />
  );
}
