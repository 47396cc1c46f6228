import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';

/** A grey placeholder in the shape of what is loading (a line of text, a cell, a card). */
export function Skeleton({ className, ...props }: ComponentProps<'span'>) {
  return <span aria-hidden="true" data-skeleton="" className={cn('block h-4 animate-pulse rounded bg-muted', className)} {...props} />;
}

/** Placeholder rows for a table body while its rows load: as many cells as the table has columns. */
export function SkeletonRows({ rows = 5, columns }: { rows?: number; columns: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        <tr key={r}>
          {Array.from({ length: columns }, (_, c) => (
            <td key={c} className="px-3 py-2.5">
              {/* uneven widths read as text rather than as a grid of bars */}
              <Skeleton className={['w-3/4', 'w-1/2', 'w-2/3', 'w-5/6'][(r + c) % 4]} />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}
