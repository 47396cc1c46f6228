import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps, ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { cn } from '../lib/cn';
import { SkeletonRows } from './skeleton';

/**
 * A plain data table that scrolls sideways on narrow screens; cells align to the inline start.
 * While `loading` (give `columns`), skeleton rows fill the body under the headers, so a table that
 * is loading never looks like an empty one. Every header cell names its column (`Th`, scope="col";
 * a column of icons or buttons gets an sr-only name through `srOnly`).
 */
export function Table({
  className,
  minWidth = '40rem',
  loading = false,
  columns = 1,
  skeletonRows = 5,
  wrapperClassName,
  children,
  ...props
}: ComponentProps<'table'> & { minWidth?: string; loading?: boolean; columns?: number; skeletonRows?: number; wrapperClassName?: string }) {
  const intl = useIntl();
  return (
    // positioned, so a header's sr-only name (absolutely placed) stays inside the scroller instead of widening the page
    <div className={cn('relative max-w-full overflow-x-auto', wrapperClassName)}>
      <table className={cn('w-full text-sm', className)} style={{ minWidth }} aria-busy={loading || undefined} {...props}>
        {children}
        {loading && (
          <tbody data-testid="table-skeleton" aria-label={intl.formatMessage({ id: 'app.loading' })} className="divide-y divide-border">
            <SkeletonRows rows={skeletonRows} columns={columns} />
          </tbody>
        )}
      </table>
    </div>
  );
}

/** A column's header cell; `srOnly` names a column whose cells are icons or buttons without showing the name. */
export function Th({ className, srOnly = false, children, ...props }: ComponentProps<'th'> & { srOnly?: boolean }) {
  return (
    <th scope="col" className={cn('px-3 py-2 text-start text-xs font-medium text-muted-foreground', className)} {...props}>
      {srOnly ? <span className="sr-only">{children}</span> : children}
    </th>
  );
}

export function Td({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('px-3 py-2 text-start align-middle', className)} {...props} />;
}

/**
 * A column of a `TableHead`: a locale id, or `{ id | label, end, srOnly, className }` — `end` for
 * numbers (aligned to the inline end), `srOnly` for a column of buttons named only for screen readers.
 */
export type Column = string | { id?: string; label?: ReactNode; end?: boolean; srOnly?: boolean; className?: string };

/** Columns of numbers: each named by its locale id, aligned to the inline end. */
export const endColumns = (ids: readonly string[]): Column[] => ids.map((id) => ({ id, end: true }));

/** A table's header row from its columns' names, so no table spells out a `Th` per column. */
export function TableHead({ columns, className }: { columns: readonly Column[]; className?: string }) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((column, i) => {
          const c = typeof column === 'string' ? { id: column } : column;
          return (
            <Th key={c.id ?? i} srOnly={c.srOnly} className={cn(c.end && 'text-end', c.className)}>
              {c.label ?? <FormattedMessage id={c.id} />}
            </Th>
          );
        })}
      </tr>
    </thead>
  );
}

/** A table's body, its rows ruled apart. */
export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody className={cn('divide-y divide-border', className)} {...props} />;
}

const cardRowVariants = cva('', {
  variants: {
    until: {
      md: 'max-md:grid max-md:grid-cols-2 max-md:gap-x-3 max-md:rounded-md max-md:border max-md:border-border max-md:p-2',
      lg: 'max-lg:grid max-lg:grid-cols-2 max-lg:gap-x-3 max-lg:rounded-md max-lg:border max-lg:border-border max-lg:p-2',
    },
  },
  defaultVariants: { until: 'md' },
});

/**
 * A row that becomes a card below the `until` breakpoint (a bordered grid of its cells, the table's
 * header hidden there), so every action of a row stays on a phone's screen.
 */
export function CardRow({ until, className, ...props }: ComponentProps<'tr'> & VariantProps<typeof cardRowVariants>) {
  return <tr className={cn(cardRowVariants({ until }), className)} {...props} />;
}
