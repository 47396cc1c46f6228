import * as z from 'zod/mini';
import type { KyInstance } from 'ky';
import { CARDS_API, cardOfPath, type ShareLink } from '../protocol/cards';
import { ApiError } from './client';
import { call, keyOf, scopeOf } from './contract';

/** Stat cards and share links. */
export type { ShareLink };
export { cardOfPath };

const failure = z.object({ result: z.literal(false), error: z.string() });

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
    share: async (path) => (await call(client, CARDS_API.share, { body: { path } })).url,
    links: async (all = false) => (await call(client, CARDS_API.links, { query: all ? { all: 'true' } : {} })).links,
    revoke: async (id) => void (await call(client, CARDS_API.revoke, { params: { id } })),
  };
}

/** The cards' queries' keys: a page reads and invalidates these, never a key of its own. */
export const cardsKeys = {
  all: scopeOf(CARDS_API.links),
  /** A card's image (a PNG, outside the contracts), by its path. */
  image: (path: string) => [...scopeOf(CARDS_API.links), 'image', path] as const,
  /** The caller's links, or (all) every account's; the caller's key is a prefix of the other, so invalidating it refreshes both. */
  links: (all = false) => keyOf(CARDS_API.links, { query: all ? { all: 'true' } : {} }),
} as const;
