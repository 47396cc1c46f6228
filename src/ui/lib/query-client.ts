import { QueryClient } from '@tanstack/react-query';
import { isUnreachable } from './unreachable';

/**
 * Server lists (items, sales): cached briefly, refetched on focus. Realtime state stays in machines.
 * A query that could not reach the server and has nothing to show goes to the content area's
 * boundary, which shows Disconnected and a Retry where the data would be; an answer with an error
 * (a rank, a bad filter) stays with the page, which says it in its own words.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      retry: 1,
      throwOnError: (error, query) => query.state.data === undefined && isUnreachable(error),
    },
  },
});
