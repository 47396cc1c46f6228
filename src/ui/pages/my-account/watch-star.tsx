import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useIntl } from 'react-intl';
import { createNoticesApi, noticesKeys } from '../../../api/notices';
import type { StoreItem } from '../../../protocol/store';
import { useChild } from '../../app-context';
import { useErrorText } from '../../components/query-error';
import { cn } from '../../lib/cn';
import { useApi } from '../../lib/use-api';

/** The watchlist's query: the store's cards and the notices page read the same one. */
const WATCHLIST_KEY = noticesKeys.watchlist;

/** The items the reader watches (live by end, then scheduled by start), as the server lists them. */
export function useWatchlist() {
  const api = useApi(createNoticesApi);
  return useQuery({ queryKey: WATCHLIST_KEY, queryFn: () => api.watchlist(), throwOnError: false });
}

/**
 * A star that watches an item (its start and "ending soon" become notices) or stops watching it:
 * a toggle button, pressed while the server says the item is watched.
 */
export function WatchStar({ itemId, itemName, className }: { itemId: number; itemName: string; className?: string }) {
  const intl = useIntl();
  const api = useApi(createNoticesApi);
  const client = useQueryClient();
  const notifications = useChild('notifications');
  const errorText = useErrorText();
  const watchlist = useWatchlist();
  const watching = watchlist.data?.some((it) => it.itemId === itemId) ?? false;
  const toggle = useMutation({
    mutationFn: (watch: boolean) => api.watch(itemId, watch),
    onSuccess: (watched) => {
      // at once on every card; the list itself (the item's shape) comes with the refetch
      client.setQueryData<StoreItem[]>(WATCHLIST_KEY, (items) => (watched || !items ? items : items.filter((it) => it.itemId !== itemId)));
      return client.invalidateQueries({ queryKey: WATCHLIST_KEY });
    },
    onError: (error) => notifications.send({ type: 'NOTIFY', notification: { kind: 'error', titleId: 'notify.error', text: errorText(error) } }),
  });
  const pressed = toggle.isPending ? toggle.variables : watching;
  return (
    <button
      type="button"
      aria-pressed={pressed}
      aria-label={intl.formatMessage({ id: pressed ? 'store.unwatch' : 'store.watch' }, { item: itemName })}
      title={intl.formatMessage({ id: pressed ? 'store.unwatch' : 'store.watch' }, { item: itemName })}
      disabled={toggle.isPending || watchlist.isPending}
      onClick={() => toggle.mutate(!watching)}
      className={cn(
        'flex h-8 w-8 shrink-0 cursor-pointer items-center justify-center rounded-md hover:bg-muted disabled:cursor-default',
        pressed ? 'text-warning' : 'text-muted-foreground',
        className,
      )}
    >
      <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" fill={pressed ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
        <path d="m12 3 2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3l-5.6 2.9 1.1-6.2L3 9.6l6.2-.9z" />
      </svg>
    </button>
  );
}
