import type { KyInstance } from 'ky';
import { useRuntime } from '../app-context';

/**
 * An API module (a function of the one REST core, src/api/http.ts) for this app, made once per
 * module and kept: `const kingdom = useApi(createKingdomApi)`. The module never sees a token.
 */
const made = new WeakMap<KyInstance, Map<(http: KyInstance) => unknown, unknown>>();

export function apiOf<T>(http: KyInstance, factory: (http: KyInstance) => T): T {
  let byFactory = made.get(http);
  if (!byFactory) made.set(http, (byFactory = new Map()));
  if (!byFactory.has(factory)) byFactory.set(factory, factory(http));
  return byFactory.get(factory) as T;
}

export function useApi<T>(factory: (http: KyInstance) => T): T {
  return apiOf(useRuntime().http, factory);
}
