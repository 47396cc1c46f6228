import * as z from 'zod/mini';
import { endpoint, resultTrue } from './endpoint';
import { BULK_MAX_BYTES, BULK_MAX_ROWS, BULK_TOKEN_TTL_MS, POINTS_ERRORS } from './points';
import { PLAYER_ID_ERRORS } from './scans-api';

/**
 * Linking governors (farms) to accounts in bulk, from a CSV or XLSX file of (governor id, account)
 * rows: previewed with each row's outcome, then applied in one transaction. The file limits and
 * the preview's life are the bulk awards' (the same readers read both kinds of file).
 */
export const LINKS_MAX_BYTES = BULK_MAX_BYTES;
export const LINKS_MAX_ROWS = BULK_MAX_ROWS;
export const LINKS_TOKEN_TTL_MS = BULK_TOKEN_TTL_MS;

export const LINK_IMPORT_ERRORS = {
  header: 'The header row must name a "governor id" column and an "account" column.',
  nothingToLink: 'No row of this preview links a governor: nothing was applied.',
} as const;

/** Why a row is refused or warned about (the preview's `text`); a template's holes are filled by the server. */
export const LINK_ROW_TEXTS = {
  badGovernorId: 'This is not a governor id (a whole number from 1).',
  noAccount: 'The row names no account.',
  unseen: 'No scan has seen this governor id: check it before applying. It will be linked.',
  already: 'Already linked to this account: nothing to do.',
} as const;

export const LINK_ROW_TEMPLATES = {
  /** A governor linked to another account is never moved by a file: a person moves it, on its own. */
  taken: 'Linked to {username}: a file does not move a link; move it on its own above.',
  duplicate: 'The same governor id is on line {line}: only that row counts.',
  /** At apply time: a row's governor was linked to another account since the preview. */
  takenSince: 'Line {line}: governor {governorId} has been linked to {username} since the preview. Nothing was applied.',
} as const;

/** The texts a links import shares with bulk awards (same readers, same limits) and with Player IDs. */
export const LINK_FILE_ERRORS = {
  unknownAccount: PLAYER_ID_ERRORS.unknownUser,
  noFile: POINTS_ERRORS.bulkNoFile,
  tooLarge: POINTS_ERRORS.bulkTooLarge,
  empty: POINTS_ERRORS.bulkEmpty,
  tooManyRows: POINTS_ERRORS.bulkTooManyRows,
  tokenRequired: POINTS_ERRORS.bulkTokenRequired,
  tokenUnknown: POINTS_ERRORS.bulkTokenUnknown,
  tokenUsed: POINTS_ERRORS.bulkTokenUsed,
} as const;

/**
 * A row's outcome: `link` and `unseen` (a warning) will be linked; `already` changes nothing;
 * `invalid`, `unknown-account`, `taken` (linked to another account) and `duplicate` are left out.
 */
export const LINK_OUTCOMES = ['link', 'unseen', 'already', 'invalid', 'unknown-account', 'taken', 'duplicate'] as const;
export type LinkOutcome = (typeof LINK_OUTCOMES)[number];
/** The outcomes an apply links. */
export const LINKING_OUTCOMES: readonly LinkOutcome[] = ['link', 'unseen'];

/**
 * One row of the file as the preview shows it: its line (the spreadsheet's row number, the header
 * counted), the governor id and account as found (the account's own spelling when known), the
 * governor's name in the latest scan that saw it, the outcome and its sentence (null for `link`).
 */
export const linkRow = z.object({
  line: z.int(),
  governorId: z.nullable(z.int()),
  username: z.nullable(z.string()),
  name: z.nullable(z.string()),
  outcome: z.enum(LINK_OUTCOMES),
  text: z.nullable(z.string()),
});
export type LinkRow = z.infer<typeof linkRow>;

/** POST player-ids/import/preview: every row; `toLink` rows will be linked (verified), the rest are left out. */
export const linkPreview = z.object({ token: z.string(), rows: z.array(linkRow), toLink: z.int(), unseen: z.int(), leftOut: z.int() });
export type LinkPreview = z.infer<typeof linkPreview>;

export const linkApplyBody = z.object({
  token: z.string({ error: LINK_FILE_ERRORS.tokenRequired }).check(z.minLength(1, LINK_FILE_ERRORS.tokenRequired), z.maxLength(100, LINK_FILE_ERRORS.tokenUnknown)),
});

/** POST player-ids/import/preview's answer: a multipart upload, so its route is the route file's own, not a contract. */
export const linkPreviewAnswer = resultTrue(linkPreview.shape);

export const PLAYER_LINKS_API = {
  apply: endpoint({
    method: 'POST',
    path: 'player-ids/import/apply',
    body: linkApplyBody,
    answer: resultTrue({ linked: z.int() }),
    errors: [400, 401, 403, 409],
    tag: 'scans',
    summary:
      "Apply a previewed file of links in one transaction: each row to link becomes a verified link of its governor to its account, audited as one entry. Refused (nothing linked) when the preview expired, was applied, links nothing, or a row's governor has been linked to another account since.",
  }),
} as const;
