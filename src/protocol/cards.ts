import * as z from 'zod/mini';
import { endpoint, okAnswer, resultTrue } from './endpoint';
import { LOCALES } from './locales';

/**
 * Stat cards and share links on the wire: server-drawn
 * PNG images of CARD_WIDTH × CARD_HEIGHT, and links that show one card to anyone for
 * SHARE_LINK_DAYS days or until revoked.
 */

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 675;
export const CARD_THEMES = ['light', 'dark'] as const;
export type CardTheme = (typeof CARD_THEMES)[number];
/** How many standings a KvK card may show. */
export const CARD_TOPS = [10, 25] as const;
export const SHARE_LINK_DAYS = 30;
export const SHARE_LINK_TTL_MS = SHARE_LINK_DAYS * 24 * 60 * 60 * 1000;
/** A path a link may name: at most this long. */
export const SHARE_PATH_MAX = 300;
/** Links an account may hold alive at once (a bound on what one account can make). */
export const SHARE_LINKS_PER_USER = 200;

export const CARD_ERRORS = {
  badLang: `The language must be one of: ${LOCALES.join(', ')}.`,
  badTheme: `The theme must be one of: ${CARD_THEMES.join(', ')}.`,
  badTop: `top must be one of: ${CARD_TOPS.join(', ')}.`,
  badScan: 'The scan must be named by its id, a whole number from 1.',
  badGovernorId: 'A governor must be named by its id, a whole number from 1.',
  badSeasonId: 'A season must be named by its id, a whole number from 1.',
  badItemId: 'An item must be named by its id, a whole number from 1.',
  badAlliance: 'The alliance must be a tag of at most 64 characters.',
  badWindow: 'The window must be named by its name, at most 40 characters.',
  notInScan: 'The governor is not in that scan.',
  notSold: 'That item was not sold: it has no sale card.',
  unknownItem: 'No item has that id.',
  notYourSale: 'A player may make a card only of their own wins.',
  busy: 'Too many cards are being drawn right now. Try again in a few seconds.',
  badPath: 'Only a card can be shared: a path such as /cards/governor/123.png.',
  tooManyLinks: `You have ${SHARE_LINKS_PER_USER} live share links; revoke some first.`,
  unknownLink: 'No share link has that id.',
  notYourLink: 'Only the link’s creator or an admin may revoke it.',
  linkGone: 'This link has expired or was revoked.',
} as const;

const idText = (error: string) => z.optional(z.string({ error }).check(z.regex(/^[1-9]\d{0,14}$/, error)));

/** The query every card takes. */
const cardLook = {
  lang: z.optional(z.enum(LOCALES, { error: CARD_ERRORS.badLang })),
  theme: z.optional(z.enum(CARD_THEMES, { error: CARD_ERRORS.badTheme })),
};

/** GET cards/governor/:governorId.png?scan=&lang=&theme= */
export const governorCardQuery = z.object({ scan: idText(CARD_ERRORS.badScan), ...cardLook });
/** GET cards/kvk/:seasonId.png?window=&alliance=&top=&lang=&theme= */
export const kvkCardQuery = z.object({
  window: z.optional(z.string({ error: CARD_ERRORS.badWindow }).check(z.minLength(1, CARD_ERRORS.badWindow), z.maxLength(40, CARD_ERRORS.badWindow))),
  alliance: z.optional(z.string({ error: CARD_ERRORS.badAlliance }).check(z.minLength(1, CARD_ERRORS.badAlliance), z.maxLength(64, CARD_ERRORS.badAlliance))),
  top: z.optional(z.enum(['10', '25'], { error: CARD_ERRORS.badTop })),
  ...cardLook,
});
/** GET cards/items/:itemId.png?lang=&theme= */
export const itemCardQuery = z.object(cardLook);

/** POST cards/share {path}: path is a card's path with its query, as the card routes take it. */
export const shareBody = z.object({ path: z.string({ error: CARD_ERRORS.badPath }).check(z.minLength(1, CARD_ERRORS.badPath), z.maxLength(SHARE_PATH_MAX, CARD_ERRORS.badPath)) });
export type ShareBody = z.infer<typeof shareBody>;

export const shareLink = z.object({
  id: z.int(),
  /** The public address of the image. */
  url: z.string(),
  path: z.string(),
  /** The creator's username. */
  username: z.string(),
  createdAt: z.int(),
  expiresAt: z.int(),
  revokedAt: z.nullable(z.int()),
});
export type ShareLink = z.infer<typeof shareLink>;
export const shareAnswer = resultTrue({ url: z.string(), link: shareLink });
export const shareLinksAnswer = resultTrue({ links: z.array(shareLink) });
/** GET cards/shares?all=true: every link (admin); without it, the caller's own. */
export const shareLinksQuery = z.object({ all: z.optional(z.enum(['true', 'false'], { error: 'all must be true or false.' })) });

/**
 * The share links' endpoints. The card images themselves (cards/…/:id.png, cards/shared/:token.png)
 * answer PNG, not JSON: they stay the route file's own.
 */
export const CARDS_API = {
  share: endpoint({
    method: 'POST',
    path: 'cards/share',
    body: shareBody,
    answer: shareAnswer,
    errors: [400, 401, 403, 404, 409],
    tag: 'cards',
    summary: `A link that shows one card's image to anyone for 30 days or until its creator or an admin revokes it. path: the card's path with its query (/cards/governor/123.png?lang=ar&theme=dark), which the caller must be able to read.`,
  }),
  links: endpoint({
    method: 'GET',
    path: 'cards/shares',
    query: shareLinksQuery,
    answer: shareLinksAnswer,
    errors: [400, 401, 403],
    tag: 'cards',
    summary: "The caller's share links, newest first (at most 500); with all=true (admin) every account's",
  }),
  revoke: endpoint({
    method: 'DELETE',
    path: 'cards/shares/:id',
    // checked by the route, whose refusal (400, the unknown-link text) predates the contract
    params: { id: z.string() },
    answer: okAnswer,
    errors: [400, 401, 403, 404],
    tag: 'cards',
    summary: 'Revoke a share link: its creator or an admin. Its image answers 404 from then on.',
  }),
} as const;

/** The path of a card's image, the same the routes take and a share link keeps. */
export function cardPath(card: { kind: 'governor'; governorId: number; scan?: number } | { kind: 'kvk'; seasonId: number; window?: string; alliance?: string; top?: number } | { kind: 'items'; itemId: number }): string {
  const query = new URLSearchParams();
  switch (card.kind) {
    case 'governor':
      if (card.scan !== undefined) query.set('scan', String(card.scan));
      return withQuery(`/cards/governor/${card.governorId}.png`, query);
    case 'kvk':
      if (card.window) query.set('window', card.window);
      if (card.alliance) query.set('alliance', card.alliance);
      if (card.top !== undefined) query.set('top', String(card.top));
      return withQuery(`/cards/kvk/${card.seasonId}.png`, query);
    case 'items':
      return `/cards/items/${card.itemId}.png`;
  }
}

const withQuery = (path: string, query: URLSearchParams) => (query.size ? `${path}?${query.toString()}` : path);

/** What a card's path names, for a person reading a list of links: its kind, id and look. */
export function cardOfPath(path: string): { kind: 'governor' | 'kvk' | 'items'; id: string; lang: string | null; theme: string | null } | null {
  const match = /^\/cards\/(governor|kvk|items)\/(\d+)\.png(?:\?(.*))?$/.exec(path);
  if (!match) return null;
  const query = new URLSearchParams(match[3] ?? '');
  return { kind: match[1] as 'governor' | 'kvk' | 'items', id: match[2], lang: query.get('lang'), theme: query.get('theme') };
}
