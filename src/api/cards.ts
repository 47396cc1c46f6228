import * as z from 'zod/mini';
import type { KyInstance } from 'ky';
import { cardOfPath, shareAnswer, shareLink, type ShareLink } from '../protocol/cards';
import { ApiError } from './client';
import { answer } from './rest';

/** Stat cards and share links. */
export type { ShareLink };
export { cardOfPath };

const failure = z.object({ result: z.literal(false), error: z.string() });
const linksAnswer = z.object({ result: z.literal(true), links: z.array(shareLink) });
const okAnswer = z.object({ result: z.literal(true) });

export interface CardsApi {
  /** A card's image (its path as cardPath gives it) fetched with the token; the server's sentence if it refuses. */
  image(path: string): Promise<Blob>;
  /** A link that shows the card to anyone for 30 days (POST cards/share). */
  share(path: string): Promise<string>;
  /** The caller's links, or (admin) every account's. */
  links(all?: boolean): Promise<ShareLink[]>;
  revoke(id: number): Promise<void>;
}

export function createCardsApi(client: KyInstance): CardsApi {
  return {
    async image(path) {
      const response = await client.get(path.replace(/^\//, ''), { timeout: 30_000 });
      if (!response.ok) {
        const bad = failure.safeParse(await response.json().catch(() => null));
        throw new ApiError(bad.success ? bad.data.error : `${response.status} ${response.statusText}`, response.status);
      }
      return response.blob();
    },
    async share(path) {
      return (await answer(await client.post('cards/share', { json: { path } }), shareAnswer)).url;
    },
    async links(all = false) {
      return (await answer(await client.get('cards/shares', { searchParams: all ? { all: 'true' } : {} }), linksAnswer)).links;
    },
    async revoke(id) {
      await answer(await client.delete(`cards/shares/${id}`), okAnswer);
    },
  };
}
