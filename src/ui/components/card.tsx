import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../lib/cn';

export function Card({ className, ...props }: ComponentProps<'section'>) {
  return <section className={cn('rounded-lg border border-border bg-card p-5 shadow-sm', className)} {...props} />;
}

export function CardTitle({ className, ...props }: ComponentProps<'h2'>) {
  return <h2 className={cn('mb-4 text-lg font-semibold', className)} {...props} />;
}

/** A card's title with its actions (an export, a "new" button) at the inline end, wrapping on phones. */
export function CardHeader({ title, titleId, className, children }: { title: ReactNode; titleId?: string; className?: string; children?: ReactNode }) {
  return (
    <div className={cn('mb-3 flex flex-wrap items-center justify-between gap-2', className)}>
      <CardTitle id={titleId} className="mb-0">
        {title}
      </CardTitle>
      {children}
    </div>
  );
}
