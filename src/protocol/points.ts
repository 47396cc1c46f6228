import * as z from 'zod/mini';
import { endpoint, resultTrue } from './endpoint';
import { plainReason, queryInt } from './http';

/** The points ledger on the wire: every change of a balance is one append-only transaction. */
export const TRANSACTION_KINDS = ['grant', 'deduct', 'purchase', 'refund', 'automatic'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** Larger than any kingdom's economy; a typo with extra zeros is refused, not booked. */
export const MAX_POINTS_DELTA = 1_000_000_000;
export const REASON_MAX_LENGTH = 200;
/** Who made a change no person made (a purchase, an automatic award), in the CSV export. */
export const SYSTEM_ACTOR = 'System';
export const TRANSACTIONS_PAGE_SIZE = 50;
export const PLAYERS_PAGE_SIZE = 50;
/** Bulk award files (CSV or XLSX): at most this large and this many rows; a preview can be applied for 10 minutes. */
export const BULK_MAX_BYTES = 2 * 1024 * 1024;
export const BULK_MAX_ROWS = 5_000;
export const BULK_TOKEN_TTL_MS = 10 * 60_000;

export const POINTS_ERRORS = {
  usernameRequired: 'Please name the player whose points change.',
  deltaWhole: 'The amount must be a whole number of points other than 0.',
  deltaTooLarge: `The amount may be at most ${MAX_POINTS_DELTA.toLocaleString('en')} points either way.`,
  reasonRequired: 'Please give a reason: every change of points is kept with its reason.',
  reasonTooLong: `The reason may have at most ${REASON_MAX_LENGTH} characters.`,
  unknownUser: 'No player has this username.',
  moreThanBalance: 'This would deduct more than the balance.',
  belowReserved: 'This would take the balance below the points reserved by leading bids.',
  badPage: 'The page must be a whole number from 1.',
  badKind: 'The kind must be grant, deduct, purchase, refund or automatic.',
  badTime: 'From and to must be times in epoch milliseconds.',
  fromAfterTo: 'The from date is after the to date: choose a from date on or before the to date.',
  unknownActor: 'No account has this username (who made the change).',
  badQuery: 'The search text may have at most 64 characters.',
  bulkNoFile: 'Please choose a CSV or XLSX file (form field "file").',
  bulkTooLarge: `The file may be at most ${BULK_MAX_BYTES / (1024 * 1024)} MB.`,
  bulkType: 'The file must be a CSV file or an Excel workbook (.xlsx); save older .xls files as .xlsx.',
  bulkUnreadable: 'The file could not be read as CSV or XLSX.',
  bulkEncoding: 'The CSV file must be saved as UTF-8 (in Excel: "CSV UTF-8").',
  bulkHeader: 'The header row must name a player column ("player", "governor id" or "username") and an "amount" column (and a "reason" column).',
  bulkEmpty: 'The file has no rows to apply.',
  bulkTooManyRows: `The file may have at most ${BULK_MAX_ROWS.toLocaleString('en')} rows.`,
  bulkTokenRequired: 'Please send the token of the preview to apply.',
  bulkTokenUnknown: 'This preview has expired or does not exist: upload the file again.',
  bulkTokenUsed: 'This preview has already been applied.',
  bulkHasErrors: 'Some rows have errors: correct the file and upload it again. Nothing was applied.',
} as const;

/** Texts that name a value (src/protocol/texts.ts: the client reads the values back to translate). */
export const POINTS_TEMPLATES = {
  /** A bulk award refused at apply time: its line, its player and the ledger's reason (`{message}`). */
  bulkRefusal: 'Line {line} ({username}): {message} Nothing was applied.',
} as const;

/** The reasons the system writes on ledger entries (a person's reasons are their own words). */
export const LEDGER_REASONS = {
  won: 'Won "{item}"',
} as const;

/** Texts of a bad row in a bulk award file. */
export const BULK_ROW_ERRORS = {
  noPlayer: 'Give the governor id or the username of the player.',
  bothIds: 'Give either the governor id or the username, not both.',
  unknownPlayer: 'No player has this governor id or username.',
  unknownUsername: 'No player has this username.',
  unknownPlayerId: 'No player has this governor id.',
  ambiguousPlayerId: 'Several players have this governor id: use the username instead.',
  amount: 'The amount must be a whole number of points other than 0.',
  amountTooLarge: `The amount may be at most ${MAX_POINTS_DELTA.toLocaleString('en')} points either way.`,
  reasonRequired: 'The reason is missing.',
  reasonTooLong: `The reason may have at most ${REASON_MAX_LENGTH} characters.`,
  moreThanBalance: "This would deduct more than the player's balance.",
  belowReserved: "This would take the player's balance below the points reserved by their leading bids.",
} as const;

export const transactionBody = z.object({
  username: z.pipe(
    z.string({ error: POINTS_ERRORS.usernameRequired }),
    z.pipe(z.transform((v: string) => v.trim()), z.string().check(z.minLength(1, POINTS_ERRORS.usernameRequired))),
  ),
  // a whole number past 2^53 ("100000000000000000000" typed or sent) is still told the cap, not "whole number"
  delta: z.number({ error: POINTS_ERRORS.deltaWhole }).check(
    z.refine((n) => Number.isInteger(n) && n !== 0, POINTS_ERRORS.deltaWhole),
    z.refine((n) => Math.abs(n) <= MAX_POINTS_DELTA, POINTS_ERRORS.deltaTooLarge),
    z.meta({ type: 'integer', minimum: -MAX_POINTS_DELTA, maximum: MAX_POINTS_DELTA }),
  ),
  reason: z.pipe(
    z.string({ error: POINTS_ERRORS.reasonRequired }),
    z.pipe(
      z.transform((v: string) => v.trim()),
      z.string().check(z.minLength(1, POINTS_ERRORS.reasonRequired), z.maxLength(REASON_MAX_LENGTH, POINTS_ERRORS.reasonTooLong), plainReason()),
    ),
  ),
});
export type TransactionBody = z.input<typeof transactionBody>;

/**
 * A query-string whole number from `min` (query values arrive as text; an empty one counts as
 * absent), at most 2100-01-01 in epoch ms: a time, or a page whose offset stays a safe integer.
 */
const QUERY_INT_MAX = Date.UTC(2100, 0, 1);
const pointsQueryInt = (error: string, min = 0) => queryInt(error, min, QUERY_INT_MAX);

/** GET points/transactions and points/transactions.csv: every filter optional; from/to epoch ms, inclusive. */
export const transactionsQuery = z.object({
  username: z.optional(z.string().check(z.maxLength(64))),
  kind: z.optional(
    z.pipe(
      z.string({ error: POINTS_ERRORS.badKind }),
      z.pipe(z.transform((v: string) => (v === '' ? undefined : v)), z.optional(z.enum(TRANSACTION_KINDS, { error: POINTS_ERRORS.badKind }))),
    ),
  ),
  actor: z.optional(z.string().check(z.maxLength(64))),
  from: pointsQueryInt(POINTS_ERRORS.badTime),
  to: pointsQueryInt(POINTS_ERRORS.badTime),
  page: pointsQueryInt(POINTS_ERRORS.badPage, 1),
});
export type TransactionsQuery = z.input<typeof transactionsQuery>;

export const transaction = z.object({
  id: z.int(),
  username: z.string(),
  delta: z.int(),
  kind: z.enum(TRANSACTION_KINDS),
  reason: z.string(),
  actor: z.nullable(z.string()),
  balanceAfter: z.int(),
  at: z.int(),
});
export type Transaction = z.infer<typeof transaction>;

// ── the back office: players, bulk awards, the ledger check ──────────────────────────────────

/** GET points/players?q=&page=: q matches a username (contains, any case) or a governor id (prefix). */
export const playersQuery = z.object({
  q: z.optional(z.string({ error: POINTS_ERRORS.badQuery }).check(z.maxLength(64, POINTS_ERRORS.badQuery))),
  page: pointsQueryInt(POINTS_ERRORS.badPage, 1),
});

export const pointsPlayer = z.object({
  username: z.string(),
  playerid: z.string(),
  rank: z.string(),
  balance: z.int(),
  reserved: z.int(),
  available: z.int(),
});
export type PointsPlayer = z.infer<typeof pointsPlayer>;

/** How a bulk row's player was found: by the governor id or by the username the file gives. */
export const BULK_MATCHES = ['playerid', 'username'] as const;
export type BulkMatch = (typeof BULK_MATCHES)[number];

/**
 * One row of a bulk award file as the preview shows it; `error` null when it can be applied;
 * `matchedBy` says whether the player was found by governor id or by username (null: not found).
 */
export const bulkRow = z.object({
  line: z.int(),
  username: z.nullable(z.string()),
  playerid: z.nullable(z.string()),
  matchedBy: z.nullable(z.enum(BULK_MATCHES)),
  amount: z.nullable(z.int()),
  reason: z.nullable(z.string()),
  error: z.nullable(z.string()),
});
export type BulkRow = z.infer<typeof bulkRow>;

/** An earlier apply of the same file (same SHA-256): applying it again pays every row again. */
export const bulkEarlier = z.object({ at: z.int(), by: z.nullable(z.string()), rows: z.int(), total: z.int() });
export type BulkEarlier = z.infer<typeof bulkEarlier>;
/** Earlier applies a preview names, newest first. */
export const BULK_EARLIER_MAX = 5;
export const bulkPreview = z.object({ rows: z.array(bulkRow), valid: z.int(), invalid: z.int(), token: z.string(), earlier: z.array(bulkEarlier) });
export type BulkPreview = z.infer<typeof bulkPreview>;

export const bulkApplyBody = z.object({
  token: z.string({ error: POINTS_ERRORS.bulkTokenRequired }).check(z.minLength(1, POINTS_ERRORS.bulkTokenRequired), z.maxLength(100, POINTS_ERRORS.bulkTokenUnknown)),
});

/** An account whose books do not add up: its balance is not its ledger's sum, or reserved is not what it leads (or exceeds the balance). */
export const ledgerMismatch = z.object({ username: z.string(), balance: z.int(), ledgerSum: z.int(), reserved: z.int(), leadingSum: z.int() });
export type LedgerMismatch = z.infer<typeof ledgerMismatch>;
export const ledgerCheck = z.object({ ok: z.boolean(), accounts: z.int(), mismatches: z.array(ledgerMismatch) });
export type LedgerCheck = z.infer<typeof ledgerCheck>;

const paged = { page: z.int(), pageSize: z.int(), total: z.int() };
/** POST points/bulk/preview's answer: a multipart upload, so its route is the route file's own, not a contract. */
export const bulkPreviewAnswer = resultTrue(bulkPreview.shape);

/** The points ledger's JSON endpoints (the ledger's CSV and XLSX downloads and the bulk preview's upload stay the route file's own). */
export const POINTS_API = {
  change: endpoint({
    method: 'POST',
    path: 'points/transactions',
    body: transactionBody,
    answer: resultTrue({ transaction, balance: z.int() }),
    errors: [400, 401, 403, 404, 409],
    tag: 'points',
    summary: "Grant (delta > 0) or deduct (delta < 0) a player's kingdom points",
  }),
  transactions: endpoint({
    method: 'GET',
    path: 'points/transactions',
    query: transactionsQuery,
    answer: resultTrue({ transactions: z.array(transaction), ...paged }),
    errors: [400, 401, 403, 404],
    tag: 'points',
    summary: 'The ledger, newest first, 50 a page; filters: player (username), kind, who made the change (actor = username), from/to (epoch ms, inclusive)',
  }),
  players: endpoint({
    method: 'GET',
    path: 'points/players',
    query: playersQuery,
    answer: resultTrue({ players: z.array(pointsPlayer), ...paged }),
    errors: [400, 401, 403],
    tag: 'points',
    summary: 'Players by username, 50 a page, with their points; q matches a username (contains, any case) or a governor id (prefix)',
  }),
  ledgerCheck: endpoint({
    method: 'GET',
    path: 'points/ledger-check',
    answer: resultTrue(ledgerCheck.shape),
    errors: [401, 403],
    tag: 'points',
    summary: "Proves the books: every balance equals its ledger's sum and every reserved equals the amounts its account leads on live items; names every account that does not match",
  }),
  bulkApply: endpoint({
    method: 'POST',
    path: 'points/bulk/apply',
    body: bulkApplyBody,
    answer: resultTrue({ applied: z.int() }),
    errors: [400, 401, 403, 409],
    tag: 'points',
    summary:
      'Apply a previewed bulk award, all or nothing: every row becomes a ledger entry (grant or deduct by sign) with its reason, and each player hears VIRTUAL_BALANCE_UPDATE. ' +
      'Refused (nothing applied) when a row has an error, the preview expired or was applied, or a balance would now go below what is reserved.',
  }),
} as const;
