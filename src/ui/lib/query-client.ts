import { QueryClient } from '@tanstack/react-query';

/** Server lists (items, sales): cached briefly, refetched on focus. Realtime state stays in machines. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 10_000, retry: 1 } },
});
