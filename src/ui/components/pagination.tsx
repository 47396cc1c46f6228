import { FormattedMessage } from 'react-intl';
import { Button } from './button';

/**
 * Previous / next for a server-paginated list; the arrows point along the reading direction. A list
 * that answers with its number of pages and not its total gives `pages` instead.
 */
export function Pagination({ page, onPage, ...size }: { page: number; onPage: (page: number) => void } & ({ pageSize: number; total: number } | { pages: number })) {
  const total = 'total' in size ? size.total : null;
  const pages = 'pages' in size ? Math.max(1, size.pages) : Math.max(1, Math.ceil(size.total / Math.max(1, size.pageSize)));
  if (pages <= 1 && page === 1) return null;
  return (
    <nav className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
      <span className="text-muted-foreground">
        {total === null ? <FormattedMessage id="list.pageOfPages" values={{ page, pages }} /> : <FormattedMessage id="list.pageOf" values={{ page, pages, total }} />}
      </span>
      <span className="flex gap-2">
        <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          <span aria-hidden="true" className="rtl:rotate-180">‹</span>
          <FormattedMessage id="list.previous" />
        </Button>
        <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          <FormattedMessage id="list.next" />
          <span aria-hidden="true" className="rtl:rotate-180">›</span>
        </Button>
      </span>
    </nav>
  );
}
