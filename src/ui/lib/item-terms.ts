import type { ItemFormat } from '../../protocol/socket';

/**
 * How an item is sold, as the messages that say it: its format (when sealed), the reserve (its amount
 * for council and admin, who read it; met or not for everyone else, when the item has one) and the
 * buy-now price. The store's card, Store Management's list and Store History all draw from this one
 * list, so an item's terms read the same everywhere.
 */
export interface TermsSource {
  format?: ItemFormat | null;
  /** The reserve's amount: only council and admin are sent it. */
  reservePrice?: number | null;
  /** Whether the reserve is met: only for an item that has one. */
  reserveMet?: boolean | null;
  buyNowPrice?: number | null;
}

export interface Term {
  key: 'format' | 'reserve' | 'reserveMet' | 'buyNow';
  id: string;
  values?: Record<string, number>;
  tone: 'muted' | 'success' | 'warning';
}

export function termsOf(item: TermsSource): Term[] {
  const terms: Term[] = [];
  if (item.format && item.format !== 'english') terms.push({ key: 'format', id: `manage.format.${item.format}`, tone: 'muted' });
  if (item.reservePrice !== undefined && item.reservePrice !== null) terms.push({ key: 'reserve', id: 'manage.terms.reserve', values: { amount: item.reservePrice }, tone: 'muted' });
  else if (item.reserveMet !== undefined && item.reserveMet !== null)
    terms.push({ key: 'reserveMet', id: item.reserveMet ? 'store.reserveMet' : 'store.reserveNotMet', tone: item.reserveMet ? 'success' : 'warning' });
  if (item.buyNowPrice !== undefined && item.buyNowPrice !== null) terms.push({ key: 'buyNow', id: 'manage.terms.buyNow', values: { amount: item.buyNowPrice }, tone: 'muted' });
  return terms;
}
