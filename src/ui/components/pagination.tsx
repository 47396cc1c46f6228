import { FormattedMessage } from 'react-intl';
import { Button } from './button';

/** Previous / next for a server-paginated list; the arrows point along the reading direction. */
export function Pagination({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  if (total <= pageSize && page === 1) return null;
  return (
    <nav className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
      <span className="text-muted-foreground">
        <FormattedMessage id="list.pageOf" values={{ page, pages, total }} />
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
