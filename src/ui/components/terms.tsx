import { FormattedMessage } from 'react-intl';
import { cn } from '../lib/cn';
import type { Term } from '../lib/item-terms';

/** An item's terms (lib/item-terms.ts) as tags: on a store card, in Store History. */
export function TermTags({ terms, className }: { terms: Term[]; className?: string }) {
  if (terms.length === 0) return null;
  return (
    <span className={cn('inline-flex flex-wrap gap-1.5', className)}>
      {terms.map((t) => (
        <span
          key={t.key}
          className={cn(
            'inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium',
            t.tone === 'muted' && 'bg-muted text-muted-foreground',
            t.tone === 'success' && 'bg-success/15 text-success',
            t.tone === 'warning' && 'bg-warning/15 text-warning',
          )}
        >
          <FormattedMessage id={t.id} values={t.values} />
        </span>
      ))}
    </span>
  );
}

/** An item's terms as one quiet line under its name ("Sealed, second price · Reserve 800"): in lists. */
export function TermLine({ terms }: { terms: Term[] }) {
  if (terms.length === 0) return null;
  return (
    <span className="block text-xs text-muted-foreground">
      {terms.map((t, i) => (
        <span key={t.key}>
          {i > 0 && ' · '}
          <FormattedMessage id={t.id} values={t.values} />
        </span>
      ))}
    </span>
  );
}
