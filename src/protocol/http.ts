import * as z from 'zod/mini';

/** Texts of the server's own HTTP refusals, any route's (the account and sign-in texts are AUTH_ERRORS). */
export const HTTP_ERRORS = {
  bodyTooLarge: 'The request body is too large.',
  jsonOnly: 'Send the request body as JSON (Content-Type: application/json).',
  badRequest: 'The request is not valid.',
  notFound: 'There is no API route at this address.',
  internal: 'Something went wrong on the server. Please try again later.',
  uploadIncomplete: 'The upload was cut off before its end: please send the file again.',
  invalidUtf8: 'The request body is not valid UTF-8 text.',
  busy: 'The server is busy. Please try again in a moment.',
  nulCharacter: 'The request may not contain the NUL character (\\u0000).',
  unpackedTooLarge: 'The workbook is too large once unpacked (an XLSX is a zip): send fewer rows or columns, or save it as CSV.',
  hiddenCharacters: 'Names and reasons may not contain control, text-direction or broken (lone surrogate) characters.',
  readersBusy: 'Too many files are being read right now. Please send yours again in a minute.',
  readOutOfMemory: 'Reading this file takes more memory than the server allows: send fewer rows or columns, or save it as CSV.',
  readStopped: 'Reading the file stopped before it finished. Nothing was stored: please send it again.',
  badPage: 'The page must be a whole number from 1.',
} as const;

/** A NUL anywhere in a request's text (PostgreSQL cannot store it; no text of ours needs it). */
export const hasNul = (text: string) => text.includes('\u0000');

/**
 * What no stored name (an alliance's tag or name, a rule's, a season's, a bot's, a kingdom's, a
 * reason) may hold: controls (NUL among them), lone surrogates, line and paragraph separators, and
 * the text-direction marks, embeddings, overrides and isolates, which make a name read as another.
 * Joiners stay allowed: Persian, Indic scripts and emoji sequences need them.
 */
const HIDDEN_IN_NAMES = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** Why a stored name cannot be taken as it is written, or null. */
export const nameTextProblem = (text: string): string | null => (HIDDEN_IN_NAMES.test(text) ? HTTP_ERRORS.hiddenCharacters : null);

/** The check every stored name's schema carries: `z.string().check(..., plainName())`. */
export const plainName = () => z.refine<string>((text) => nameTextProblem(text) === null, { error: HTTP_ERRORS.hiddenCharacters });

/** The same rule for a ledger entry's reason, a sentence rather than a name: line breaks and tabs are its own. */
const HIDDEN_IN_REASONS = new RegExp(`(?![\\t\\n\\r])${HIDDEN_IN_NAMES.source}`, 'u');
export const plainReason = () => z.refine<string>((text) => !HIDDEN_IN_REASONS.test(text), { error: HTTP_ERRORS.hiddenCharacters });

/** A path id's refusal that names nothing (404) rather than a request that is wrong (400): see pathId. */
export const NAMES_NOTHING = 'namesNothing';

/**
 * An id in a path (`/scans/:scanId`): a positive whole number of at most `digits` digits, handed
 * to the route as a number. Anything else is refused with `text`: a 400, or a 404 with
 * `{ notFound: true }` for routes whose contract says a malformed id names nothing (the store's
 * items). The one schema for every path id.
 */
export function pathId(text: string, options: { digits?: number; notFound?: boolean } = {}) {
  const digits = options.digits ?? 15;
  const shape = new RegExp(`^\\d{1,${digits}}$`);
  return z.pipe(
    z.string().check(
      z.refine((v: string) => shape.test(v) && Number(v) >= 1, { error: text, abort: true, params: options.notFound ? { [NAMES_NOTHING]: true } : {} }),
    ),
    z.transform((v: string) => Number(v)),
  );
}

/** A query-string whole number from `min` to `max`, refused with `error` (query values arrive as text; an empty one counts as absent). */
export const queryInt = (error: string, min = 1, max = Number.MAX_SAFE_INTEGER) =>
  z.optional(
    z.pipe(
      z.string({ error }),
      z.pipe(z.transform((v: string) => (v.trim() === '' ? undefined : Number(v))), z.optional(z.int({ error }).check(z.gte(min, error), z.lte(max, error)))),
    ),
  );

/** A page of a list in the query (`page`): a whole number from 1 to 1,000,000. */
export const queryPageOf = (error: string) => queryInt(error, 1, 1_000_000);
