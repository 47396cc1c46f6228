import crypto from 'node:crypto';
import type { Db } from '../db/open';
import { CardCache } from './cache';
import { cardData, type CardData, type CardRequest, type Viewer } from './data';
import type { CardPool } from './pool';

/** Bumped when the drawing changes, so cards drawn before get new ETags. */
export const CARD_DRAWING_VERSION = 4;

/** A card whose data was read: its ETag is known before anything is drawn. */
export interface PreparedCard {
  etag: string;
  data: CardData;
  request: CardRequest;
}

/**
 * Cards by content: the data is read (and the reader's right to it checked) on every request, its
 * hash with the language and theme is the ETag, and the PNG is drawn by the pool only when no card
 * of that hash is cached or being drawn. A conditional request that matches is answered without
 * drawing.
 */
export class CardService {
  private readonly cache: CardCache;
  private readonly drawing = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly db: Db,
    private readonly pool: CardPool,
    /** The uploads folder (a sale card's item image); null: cards are drawn without images. */
    private readonly uploads: string | null,
    cache = new CardCache(),
  ) {
    this.cache = cache;
  }

  async prepare(request: CardRequest, viewer: Viewer): Promise<PreparedCard> {
    const data = await cardData(this.db, request, viewer);
    const hash = crypto.createHash('sha256').update(JSON.stringify([CARD_DRAWING_VERSION, request.lang, request.theme, data])).digest('base64url');
    return { etag: `"${hash.slice(0, 32)}"`, data, request };
  }

  /** Stops the drawing workers (the server closes). */
  close(): Promise<void> {
    return this.pool.close();
  }

  /** The card's PNG: from the cache, or drawn once however many ask for it at the same time. */
  png(card: PreparedCard): Promise<Buffer> {
    const cached = this.cache.get(card.etag);
    if (cached) return Promise.resolve(cached);
    const inFlight = this.drawing.get(card.etag);
    if (inFlight) return inFlight;
    const drawn = this.pool.draw(card.data, card.request.lang, card.request.theme, this.uploads).then(
      (png) => {
        this.cache.set(card.etag, png);
        this.drawing.delete(card.etag);
        return png;
      },
      (error: unknown) => {
        this.drawing.delete(card.etag);
        throw error;
      },
    );
    this.drawing.set(card.etag, drawn);
    return drawn;
  }
}

/** Whether an If-None-Match header names this ETag (a list, weak or strong, or *). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
