import type { ComponentProps } from 'react';
import { useIntl } from 'react-intl';
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
