import type { ComponentProps } from 'react';
import { useIntl } from 'react-intl';
import { cn } from '../lib/cn';
import { SkeletonRows } from './skeleton';

/**
 * A plain data table that scrolls sideways on narrow screens; cells align to the inline start.
 * While `loading` (give `columns`), skeleton rows fill the body under the headers, so a table that
 * is loading never looks like an empty one.
 */
export function Table({
  className,
  minWidth = '40rem',
  loading = false,
  columns = 1,
  skeletonRows = 5,
  children,
  ...props
}: ComponentProps<'table'> & { minWidth?: string; loading?: boolean; columns?: number; skeletonRows?: number }) {
  const intl = useIntl();
  return (
    <div className="max-w-full overflow-x-auto">
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

export function Th({ className, ...props }: ComponentProps<'th'>) {
  return <th className={cn('px-3 py-2 text-start text-xs font-medium text-muted-foreground', className)} {...props} />;
}

export function Td({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('px-3 py-2 text-start align-middle', className)} {...props} />;
}
