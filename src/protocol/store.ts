import * as z from 'zod/mini';
import { plainName } from './http';
import { RANKS } from './ranks';
import { MAX_PRICE, NO_LEADER } from './bid-rule';
import { ITEM_FORMATS, isSealed, type ItemFormat } from './socket';

/** The kingdom store on the wire (REST): items auctioned for kingdom points, and their sales. */
export const ITEM_STATES = ['scheduled', 'live', 'finished', 'cancelled'] as const;
export type ItemState = (typeof ITEM_STATES)[number];

export const ITEM_NAME_MAX = 100;
export const DESCRIPTION_MAX = 1000;
export { MAX_PRICE, NO_LEADER };
export const MIN_DURATION_S = 10;
export const MAX_DURATION_S = 30 * 24 * 3600;
export const MAX_EXTEND_WINDOW_S = 3600;
export const MAX_EXTENSIONS = 1000;
/**
 * The latest time (epoch ms) any client-sent time may name: 2100-01-01. With the largest duration
 * and every extension on top, an item's endsAt then stays far inside the safe integers (about
 * 4.1e12 against 9e15), and so does every sum the server or the client makes of them.
 */
export const MAX_TIME_MS = Date.UTC(2100, 0, 1);
/** The largest page number a query may ask for: any offset it gives stays a safe integer. */
export const MAX_PAGE = 1_000_000;
/** How far back a start may lie: a little clock skew, not a backdated auction. */
export const STARTS_AT_PAST_TOLERANCE_MS = 60_000;
/** Item images uploaded to the server: these types (checked by content), at most this large. */
export const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;

export const STORE_ERRORS = {
  itemNameRequired: 'Please give the item a name.',
  itemNameTooLong: `The item name may have at most ${ITEM_NAME_MAX} characters.`,
  descriptionTooLong: `The description may have at most ${DESCRIPTION_MAX} characters.`,
  imageUrl: 'The image must be an http(s) address or an uploaded image.',
  type: 'The item type must be "auction".',
  startPrice: `The start price must be a whole number from 0 to ${MAX_PRICE.toLocaleString('en')}.`,
  minIncrement: `The minimum increment must be a whole number from 1 to ${MAX_PRICE.toLocaleString('en')}.`,
  startsAt: 'The start must be a time (epoch milliseconds) that is not in the past and not after 2100.',
  duration: `The duration must be a whole number of seconds from ${MIN_DURATION_S} to ${MAX_DURATION_S.toLocaleString('en')}.`,
  extendWindow: `The extend window must be a whole number of seconds from 0 to ${MAX_EXTEND_WINDOW_S.toLocaleString('en')}.`,
  maxExtensions: `The maximum number of extensions must be a whole number from 0 to ${MAX_EXTENSIONS.toLocaleString('en')}.`,
  eligibility: 'Eligibility lists ranks (user, council, admin) and group names.',
  badState: 'The state must be scheduled, live, finished or cancelled.',
  unknownItem: 'There is no such item.',
  notCancellable: 'Only a scheduled or live item can be cancelled.',
  badPage: `The page must be a whole number from 1 to ${MAX_PAGE.toLocaleString('en')}.`,
  notEditable: 'Only a scheduled item can be edited: this one has started, finished or been cancelled.',
  badOutcome: 'The outcome must be sold, unsold or cancelled.',
  badTime: 'From and to must be times in epoch milliseconds, not after 2100.',
  fromAfterTo: 'The from date is after the to date: choose a from date on or before the to date.',
  uploadMissing: 'Please choose an image file (form field "file").',
  uploadTooLarge: `The image may be at most ${UPLOAD_MAX_BYTES / (1024 * 1024)} MB.`,
  uploadType: 'The image must be a PNG, JPEG, WebP or GIF file.',
  format: 'The format must be english, sealed-first or sealed-second.',
  reservePrice: `The reserve price must be a whole number from 1 to ${MAX_PRICE.toLocaleString('en')}.`,
  buyNowPrice: `The buy-now price must be a whole number from 1 to ${MAX_PRICE.toLocaleString('en')}.`,
  reserveBelowStart: 'The reserve price is below the start price: choose a reserve at or above the start price, or none.',
  buyNowBelowStart: 'The buy-now price is below the start price: choose a buy-now price at or above the start price, or none.',
  buyNowBelowReserve: 'The buy-now price is below the reserve price: choose a buy-now price at or above the reserve, or none.',
  buyNowSealed: 'A sealed item has no buy-now price: remove it, or choose the English format.',
} as const;

/**
 * What is wrong with an item's format and prices taken together (the sentence), or null: a reserve
 * below the start price, a buy-now price below the start price or the reserve, a buy-now price on a
 * sealed item. One check for the form, POST store/items and an edit (on the fields it leaves).
 */
export function formatFault(item: { format?: ItemFormat; start_price: number; reservePrice?: number | null; buyNowPrice?: number | null }): string | null {
  const reserve = item.reservePrice ?? null;
  const buyNow = item.buyNowPrice ?? null;
  if (reserve !== null && reserve < item.start_price) return STORE_ERRORS.reserveBelowStart;
  if (buyNow !== null && isSealed(item.format)) return STORE_ERRORS.buyNowSealed;
  if (buyNow !== null && buyNow < item.start_price) return STORE_ERRORS.buyNowBelowStart;
  if (buyNow !== null && reserve !== null && buyNow < reserve) return STORE_ERRORS.buyNowBelowReserve;
  return null;
}

const wholeIn = (min: number, max: number, error: string) => z.int({ error }).check(z.gte(min, error), z.lte(max, error));
const trimmed = z.transform((v: string) => v.trim());

export const eligibility = z.object({
  ranks: z.optional(z.array(z.enum(RANKS, { error: STORE_ERRORS.eligibility }), { error: STORE_ERRORS.eligibility })),
  groups: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(50), plainName()), { error: STORE_ERRORS.eligibility })),
});
export type Eligibility = z.infer<typeof eligibility>;

/** The fields of POST store/items, each checked alone (createItemBody checks them together too). */
export const createItemFields = z.object({
  itemName: z.pipe(
    z.string({ error: STORE_ERRORS.itemNameRequired }),
    z.pipe(trimmed, z.string().check(z.minLength(1, STORE_ERRORS.itemNameRequired), z.maxLength(ITEM_NAME_MAX, STORE_ERRORS.itemNameTooLong), plainName())),
  ),
  description: z.optional(z.string({ error: STORE_ERRORS.descriptionTooLong }).check(z.maxLength(DESCRIPTION_MAX, STORE_ERRORS.descriptionTooLong))),
  imageUrl: z.optional(
    z.string({ error: STORE_ERRORS.imageUrl }).check(z.maxLength(500, STORE_ERRORS.imageUrl), z.regex(/^(https?:\/\/\S+|\/uploads\/[\w.-]+)$/, STORE_ERRORS.imageUrl)),
  ),
  type: z.optional(z.literal('auction', { error: STORE_ERRORS.type })),
  start_price: wholeIn(0, MAX_PRICE, STORE_ERRORS.startPrice),
  minIncrement: wholeIn(1, MAX_PRICE, STORE_ERRORS.minIncrement),
  startsAt: z.optional(wholeIn(0, MAX_TIME_MS, STORE_ERRORS.startsAt)),
  duration: wholeIn(MIN_DURATION_S, MAX_DURATION_S, STORE_ERRORS.duration),
  extendWindow: wholeIn(0, MAX_EXTEND_WINDOW_S, STORE_ERRORS.extendWindow),
  maxExtensions: wholeIn(0, MAX_EXTENSIONS, STORE_ERRORS.maxExtensions),
  eligibility: z.optional(eligibility),
  /** Absent: english. */
  format: z.optional(z.enum(ITEM_FORMATS, { error: STORE_ERRORS.format })),
  reservePrice: z.optional(wholeIn(1, MAX_PRICE, STORE_ERRORS.reservePrice)),
  buyNowPrice: z.optional(wholeIn(1, MAX_PRICE, STORE_ERRORS.buyNowPrice)),
});

export const createItemBody = createItemFields.check(z.refine((body) => formatFault(body) === null, { error: (issue) => formatFault(issue.input as z.output<typeof createItemFields>) ?? STORE_ERRORS.format }));
export type CreateItemBody = z.input<typeof createItemBody>;

/** An item as REST returns it: the socket's Item plus what the store manages. */
export const storeItem = z.looseObject({
  itemId: z.int(),
  itemName: z.string(),
  description: z.string(),
  imageUrl: z.nullable(z.string()),
  type: z.string(),
  state: z.enum(ITEM_STATES),
  start_price: z.int(),
  minIncrement: z.int(),
  amount: z.int(),
  username: z.string(),
  startsAt: z.int(),
  endsAt: z.int(),
  timer: z.int(),
  timestamp: z.int(),
  extendWindow: z.int(),
  maxExtensions: z.int(),
  extensions: z.int(),
  eligibility: eligibility,
  /** Absent: english. */
  format: z.optional(z.enum(ITEM_FORMATS)),
  /** Council and admin only. */
  reservePrice: z.optional(z.int()),
  /** Whether the amount reaches the reserve, sent only for an item that has one (absent: no reserve); on a sealed item still running, whether any bid does. */
  reserveMet: z.optional(z.boolean()),
  buyNowPrice: z.optional(z.int()),
  /** Sealed items still running: how many players have bid. */
  bids: z.optional(z.int()),
});
export type StoreItem = z.infer<typeof storeItem>;

/** `GET store/watchlist`: the live and scheduled items the reader watches (live by end, then scheduled by start), shaped as GET store/items shapes them for the reader. */
export const watchlistAnswer = z.object({ result: z.literal(true), items: z.array(storeItem) });
export type WatchlistAnswer = z.infer<typeof watchlistAnswer>;

export const sale = z.object({ itemId: z.int(), itemName: z.string(), username: z.string(), amount: z.int(), at: z.int() });
export type Sale = z.infer<typeof sale>;

// ── additions for the auction engine (server) and the store pages (client) ────────────────────

/** GET store/items pages, GET store/history and store/my-history pages. */
export const STORE_ITEMS_PAGE_SIZE = 500;
export const SALES_PAGE_SIZE = 50;
/** HISTORY on the auction socket: this many latest bids, and this many most recently finished items. */
export const HISTORY_BIDS = 50;
export const HISTORY_FINISHED_ITEMS = 50;

const pageParam = z.optional(
  z.pipe(
    z.string({ error: STORE_ERRORS.badPage }),
    z.pipe(z.transform((v: string) => Number(v)), wholeIn(1, MAX_PAGE, STORE_ERRORS.badPage)),
  ),
);

/** GET store/items?state=&page= (query strings). */
export const storeItemsQuery = z.object({
  state: z.optional(z.enum(ITEM_STATES, { error: STORE_ERRORS.badState })),
  page: pageParam,
});

/** GET store/my-history?page=. */
export const pageQuery = z.object({ page: pageParam });

/** GET store/history?user=&page= (council, admin). */
export const salesQuery = z.object({
  user: z.optional(z.string().check(z.maxLength(64))),
  page: pageParam,
});

// ── the bid rule (bid-rule.ts: no schema library, so the pages that only bid load little) ──────
export { bidFault, isEligible, leastBid, nextMinimum, pointsForBid, type BidFault } from './bid-rule';

// ── the store's back office: history of finished items, editing, duplicating, uploads ────────

export const HISTORY_OUTCOMES = ['sold', 'unsold', 'cancelled'] as const;
export type HistoryOutcome = (typeof HISTORY_OUTCOMES)[number];

const timeParam = z.optional(
  z.pipe(
    z.string({ error: STORE_ERRORS.badTime }),
    z.pipe(
      z.transform((v: string) => (v.trim() === '' ? undefined : Number(v))),
      z.optional(wholeIn(0, MAX_TIME_MS, STORE_ERRORS.badTime)),
    ),
  ),
);

/** GET store/history and store/history.csv: user = the buyer's username; from/to epoch ms, inclusive, on the item's end. */
export const historyQuery = z.object({
  user: z.optional(z.string().check(z.maxLength(64))),
  from: timeParam,
  to: timeParam,
  outcome: z.optional(
    z.pipe(
      z.string({ error: STORE_ERRORS.badOutcome }),
      z.pipe(z.transform((v: string) => (v === '' ? undefined : v)), z.optional(z.enum(HISTORY_OUTCOMES, { error: STORE_ERRORS.badOutcome }))),
    ),
  ),
  page: pageParam,
});

/** A sealed bid, shown to everyone once its item has ended. */
export const sealedHistoryBid = z.object({ username: z.string(), amount: z.int(), at: z.int() });
export type SealedHistoryBid = z.infer<typeof sealedHistoryBid>;

/**
 * A finished item: sold (buyer and price), unsold or cancelled (both null); `at` is when it ended or
 * was cancelled. `winningMax`: the buyer's maximum bid when one stood at the end (council and admin
 * only); `sealedBids`: every bid of a sealed item, highest first.
 */
export const historyEntry = z.object({
  itemId: z.int(),
  itemName: z.string(),
  outcome: z.enum(HISTORY_OUTCOMES),
  username: z.nullable(z.string()),
  amount: z.nullable(z.int()),
  at: z.int(),
  format: z.optional(z.enum(ITEM_FORMATS)),
  winningMax: z.optional(z.int()),
  sealedBids: z.optional(z.array(sealedHistoryBid)),
});
export type HistoryEntry = z.infer<typeof historyEntry>;

/**
 * POST store/items/:itemId (edit a scheduled item): any of the creation fields; imageUrl null removes
 * the image, reservePrice and buyNowPrice null remove them (the fields then checked together by
 * `formatFault` with those the item keeps).
 */
export const editItemBody = z.object({
  ...z.partial(createItemFields).shape,
  imageUrl: z.optional(z.nullable(createItemFields.shape.imageUrl.def.innerType)),
  reservePrice: z.optional(z.nullable(createItemFields.shape.reservePrice.def.innerType)),
  buyNowPrice: z.optional(z.nullable(createItemFields.shape.buyNowPrice.def.innerType)),
});
export type EditItemBody = z.input<typeof editItemBody>;

/** What a duplicate's name ends with, in every language (the name is the item's, not the interface's). */
export const COPY_SUFFIX = ' (copy)';

/**
 * A duplicate's name: the original's with ' (copy)', the original shortened (by whole characters,
 * trailing spaces dropped) when both would not fit in ITEM_NAME_MAX.
 */
export function copyName(name: string): string {
  const chars = Array.from(name);
  while (chars.length > 0 && chars.join('').length + COPY_SUFFIX.length > ITEM_NAME_MAX) chars.pop();
  return chars.join('').trimEnd() + COPY_SUFFIX;
}

/** POST store/items/:itemId/duplicate: the copy starts now unless startsAt says when. */
export const duplicateItemBody = z.object({
  startsAt: z.optional(wholeIn(0, MAX_TIME_MS, STORE_ERRORS.startsAt)),
});

export const uploadAnswer = z.object({ url: z.string() });
