/**
 * An API client whose code (and the schemas it checks answers with) loads on its first call:
 * the first page stays small, and every later call goes straight to the loaded client.
 */
export function lazyClient<T extends object>(load: () => Promise<T>): T {
  let loaded: Promise<T> | null = null;
  return new Proxy({} as T, {
    get(_, method) {
      return (...args: unknown[]) =>
        (loaded ??= load()).then((client) => (client[method as keyof T] as (...a: unknown[]) => unknown)(...args));
    },
  });
}
