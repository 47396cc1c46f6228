import { useSelector } from '@xstate/react';
import { endpoints } from '../../api/config';
import { createPointsApi, type PointsApi } from '../../api/points';
import { createStoreOfficeApi, type StoreOfficeApi } from '../../api/store-office';
import { useChild } from '../app-context';

/**
 * The back-office REST clients, made on first use by the (lazy) pages that need them, so the
 * sign-in bundle does not carry them. The server checks every call's rank; menus are not security.
 */
let apis: { points: PointsApi; store: StoreOfficeApi } | undefined;
export function backOffice() {
  if (!apis) {
    const base = endpoints().api;
    apis = { points: createPointsApi(base), store: createStoreOfficeApi(base) };
  }
  return apis;
}

export function useToken(): string | null {
  return useSelector(useChild('auth'), (s) => s.context.token);
}

export function useRank(): string | undefined {
  return useSelector(useChild('auth'), (s) => s.context.user?.rank);
}

/** An address the server gave (an upload is "/uploads/…") as one the browser can load from here. */
export function assetUrl(url: string): string {
  if (!url.startsWith('/')) return url;
  try {
    return new URL(url, endpoints().api).toString();
  } catch {
    return url;
  }
}

/** Saves a downloaded file under a name. */
export function saveBlob(blob: Blob, filename: string) {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
