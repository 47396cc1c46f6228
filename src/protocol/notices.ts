import * as z from 'zod/mini';
import { HTTP_ERRORS, queryPageOf } from './http';

/**
 * Notices and the watchlist: what reaches a player about the items they watch, lead or bid on, and
 * about their points, kept per account for NOTICE_KEEP_MS. Live as `NOTICE` on the user socket; listed
 * with an unread count by `GET notices?page=`; marked read by `POST notices/read {upTo}`.
 */

/** Kinds on the wire. */
export const NOTICE_KINDS = ['started', 'ending', 'outbid', 'won', 'lost', 'max-exhausted', 'max-dropped', 'points', 'automatic'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** Where a player wants each kind: in the app, by Discord direct message (when linked), both or neither. */
export const NOTICE_CHANNELS = ['app', 'discord', 'both', 'none'] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];

/** "Ending soon" lead times a player may choose, in minutes. */
export const ENDING_LEAD_MINUTES = [15, 5, 1] as const;
export type EndingLead = (typeof ENDING_LEAD_MINUTES)[number];

/** A notice is kept this long, then purged. */
export const NOTICE_KEEP_MS = 30 * 24 * 3600_000;
/** One page of `GET notices`. */
export const NOTICES_PAGE_SIZE = 30;
/** A player watches at most this many items at once. */
export const MAX_WATCHES = 200;

export const NOTICE_ERRORS = {
  badUpTo: 'upTo must be the id of a notice (a whole number from 1).',
  badKind: `A notice kind is one of: ${NOTICE_KINDS.join(', ')}.`,
  badChannel: `Each kind goes to one of: ${NOTICE_CHANNELS.join(', ')}.`,
  badLead: `The "ending soon" lead time is one of: ${ENDING_LEAD_MINUTES.join(', ')} minutes.`,
  tooManyWatches: `You already watch ${MAX_WATCHES} items: stop watching one first.`,
} as const;

/** What a notice says; `amount` is points (a bid, a price, a grant; negative for a deduction). */
export const notice = z.object({
  id: z.int().check(z.positive()),
  kind: z.enum(NOTICE_KINDS),
  at: z.int().check(z.nonnegative()),
  read: z.boolean(),
  itemId: z.optional(z.int()),
  itemName: z.optional(z.string()),
  amount: z.optional(z.int()),
});
export type Notice = z.infer<typeof notice>;

/** `GET notices?page=`: newest first. */
export const noticesQuery = z.object({ page: queryPageOf(HTTP_ERRORS.badPage) });
export const noticesAnswer = z.object({
  result: z.literal(true),
  unread: z.int().check(z.nonnegative()),
  page: z.int(),
  pages: z.int(),
  notices: z.array(notice),
});
export type NoticesAnswer = z.infer<typeof noticesAnswer>;

/** `POST notices/read {upTo}`: every notice of the account up to that id is read. */
export const noticesReadBody = z.object({
  upTo: z.int({ error: NOTICE_ERRORS.badUpTo }).check(z.positive(NOTICE_ERRORS.badUpTo), z.lte(Number.MAX_SAFE_INTEGER, NOTICE_ERRORS.badUpTo)),
});
export const noticesReadAnswer = z.object({ result: z.literal(true), unread: z.int().check(z.nonnegative()) });

/** `GET notices/preferences`, `PUT notices/preferences`: a channel per kind and the "ending soon" lead. */
export const noticePreferences = z.object({
  channels: z.record(z.enum(NOTICE_KINDS, { error: NOTICE_ERRORS.badKind }), z.enum(NOTICE_CHANNELS, { error: NOTICE_ERRORS.badChannel })),
  endingLeadMinutes: z.union([z.literal(15), z.literal(5), z.literal(1)], { error: NOTICE_ERRORS.badLead }),
});
export type NoticePreferences = z.infer<typeof noticePreferences>;
export const noticePreferencesAnswer = z.object({ result: z.literal(true), preferences: noticePreferences });

/** Every kind in the app, ending soon 5 minutes before the end: what a player has until they choose. */
export const DEFAULT_NOTICE_PREFERENCES: NoticePreferences = {
  channels: Object.fromEntries(NOTICE_KINDS.map((kind) => [kind, 'app'])) as NoticePreferences['channels'],
  endingLeadMinutes: 5,
};

/** `POST/DELETE store/items/:itemId/watch` → `{result, watching}`. */
export const watchAnswer = z.object({ result: z.literal(true), itemId: z.int(), watching: z.boolean() });
