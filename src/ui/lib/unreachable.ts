/**
 * Whether an error means the server could not be reached (rather than that it answered with an
 * error, or that the code is wrong): fetch's network failure, ky's timeout, or a page's code that
 * failed to load (a dynamic import or a preloaded stylesheet).
 */
const NETWORK = /Failed to fetch|NetworkError|Load failed|network error|dynamically imported module|Importing a module script failed|preload CSS|Unable to preload/i;

export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TimeoutError') return true;
  return NETWORK.test(error.message);
}
