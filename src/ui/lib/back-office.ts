import { useSelector } from '@xstate/react';
import { endpoints } from '../../api/config';
import { useChild } from '../app-context';

/** The signed-in user's rank, for what a page shows. The server checks every call's rank; menus are not security. */
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
