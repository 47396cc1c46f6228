import * as z from 'zod/mini';

/** The points ledger on the wire: every change of a balance is one append-only transaction. */
export const TRANSACTION_KINDS = ['grant', 'deduct', 'purchase', 'refund', 'automatic'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** Larger than any kingdom's economy; a typo with extra zeros is refused, not booked. */
export const MAX_POINTS_DELTA = 1_000_000_000;
export const REASON_MAX_LENGTH = 200;
export const TRANSACTIONS_PAGE_SIZE = 50;

export const POINTS_ERRORS = {
  usernameRequired: 'Please name the player whose points change.',
  deltaWhole: 'The amount must be a whole number of points other than 0.',
  deltaTooLarge: `The amount may be at most ${MAX_POINTS_DELTA.toLocaleString('en')} points either way.`,
  reasonRequired: 'Please give a reason: every change of points is kept with its reason.',
  reasonTooLong: `The reason may have at most ${REASON_MAX_LENGTH} characters.`,
  unknownUser: 'No player has this username.',
  belowReserved: 'This would take the balance below the points reserved by leading bids.',
  badPage: 'The page must be a whole number from 1.',
} as const;

export const transactionBody = z.object({
  username: z.pipe(
    z.string({ error: POINTS_ERRORS.usernameRequired }),
    z.pipe(z.transform((v: string) => v.trim()), z.string().check(z.minLength(1, POINTS_ERRORS.usernameRequired))),
  ),
  delta: z.int({ error: POINTS_ERRORS.deltaWhole }).check(
    z.refine((n) => n !== 0, POINTS_ERRORS.deltaWhole),
    z.refine((n) => Math.abs(n) <= MAX_POINTS_DELTA, POINTS_ERRORS.deltaTooLarge),
  ),
  reason: z.pipe(
    z.string({ error: POINTS_ERRORS.reasonRequired }),
    z.pipe(
      z.transform((v: string) => v.trim()),
      z.string().check(z.minLength(1, POINTS_ERRORS.reasonRequired), z.maxLength(REASON_MAX_LENGTH, POINTS_ERRORS.reasonTooLong)),
    ),
  ),
});
export type TransactionBody = z.input<typeof transactionBody>;

export const transactionsQuery = z.object({
  username: z.optional(z.string().check(z.maxLength(64))),
  page: z.optional(
    z.pipe(
      z.string({ error: POINTS_ERRORS.badPage }),
      z.pipe(z.transform((v: string) => Number(v)), z.int({ error: POINTS_ERRORS.badPage }).check(z.gte(1, POINTS_ERRORS.badPage))),
    ),
  ),
});

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
