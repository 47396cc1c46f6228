import { createElement, lazy, type ComponentType, type FunctionComponent } from 'react';

/** How many times a Retry asked the pages whose code failed to load to try again. */
let retries = 0;

/** The content area's Retry: each page whose code failed to load fetches it again at its next render. */
export function retryFailedPages(): void {
  retries += 1;
}

/**
 * React.lazy, but one that can try again. React.lazy keeps a failed import for good, so after the
 * server was unreachable a page would stay broken until a full reload; this one makes a fresh lazy
 * component after a Retry (never by itself, so a page out of reach is not fetched in a loop).
 */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): FunctionComponent<P> {
  let failedAt: number | null = null;
  const fresh = () =>
    lazy(() =>
      load().catch((error: unknown) => {
        failedAt = retries;
        throw error;
      }),
    );
  let current = fresh();
  function LazyPage(props: P) {
    if (failedAt !== null && retries > failedAt) {
      failedAt = null;
      current = fresh();
    }
    return createElement(current, props);
  }
  return LazyPage;
}
