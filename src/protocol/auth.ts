import * as z from 'zod/mini';
import { LOCALES } from './locales';
import { RANKS } from './ranks';

// zod/mini: the same schemas as classic zod, tree-shaken, so the client's first page stays small.

/**
 * At least eight characters with a digit, an uppercase letter, a lowercase letter and a
 * special character (anything that is not a letter or digit).
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const PASSWORD_RULE = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[^A-Za-z0-9]).{8,}$/;
export const USERNAME_MAX_LENGTH = 32;
export const EMAIL_MAX_LENGTH = 254;
/** Governor ids are all digits; twelve is more than any game server hands out. */
export const PLAYER_ID_RULE = /^[1-9]\d{0,11}$/;
/** A governor id as stored: trimmed, without leading zeros ("051000002" is governor 51000002, whose claim it would dodge). */
export const normalisePlayerId = (id: string) => id.trim().replace(/^0+(?=\d)/, '');
export const EMAIL_RULE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isStrongPassword(value: string): boolean {
  return value.length <= PASSWORD_MAX_LENGTH && PASSWORD_RULE.test(value);
}

/** The server's answers to bad sign-up, sign-in and account input, word for word. */
export const AUTH_ERRORS = {
  invalidBody: 'The request body is not valid JSON.',
  emailRequired: 'Please fill in a valid email',
  passwordRequired: 'Please fill in a password',
  usernameRequired: 'Please fill in a valid username',
  usernameTooLong: `The username may have at most ${USERNAME_MAX_LENGTH} characters.`,
  playerIdRequired: 'Please fill in a valid governer id',
  playerIdDigits: 'The governor id must be a whole number from 1, of at most 12 digits.',
  weakPassword:
    'Password must contain minimum eight characters, at least one uppercase letter, one number and one special character!',
  emailTaken: 'An account with this email already exists.',
  usernameTaken: 'This username is already taken.',
  usernameCharacters: 'The username may not contain invisible, control or text-direction characters.',
  usernameDigits: 'The username may not be digits only: it would read as a governor id.',
  usernameReserved: 'This username is reserved.',
  playerIdTaken: 'Another account has already claimed this governor id. If it is yours, please ask an admin.',
  lastAdmin: 'The last admin cannot be demoted: make another account admin first.',
  wrongCredentials: 'The email or password is incorrect.',
  tooManyAttempts: 'Too many sign-in attempts. Please wait a minute and try again.',
  tooManySignUps: 'Too many accounts were created from this address. Please try again later.',
  unauthenticated: 'You are not signed in, or your session has ended. Please sign in again.',
  forbidden: 'You do not have the rank needed for this.',
  wrongOldPassword: 'The current password is incorrect.',
  samePassword: 'The new password must differ from the current one.',
  unknownUser: 'No user has this username.',
  invalidRank: 'The rank must be user, council or admin.',
  invalidLocale: 'This language is not offered.',
} as const;

const trimLower = z.transform((v: string) => v.trim().toLowerCase());

export const loginBody = z.object({
  email: z.pipe(
    z.string({ error: AUTH_ERRORS.emailRequired }),
    z.pipe(trimLower, z.string().check(z.minLength(1, AUTH_ERRORS.emailRequired), z.maxLength(EMAIL_MAX_LENGTH, AUTH_ERRORS.emailRequired))),
  ),
  password: z.string({ error: AUTH_ERRORS.passwordRequired }).check(
    z.minLength(1, AUTH_ERRORS.passwordRequired),
    z.maxLength(PASSWORD_MAX_LENGTH, AUTH_ERRORS.wrongCredentials),
  ),
  /** The language picked on the sign-in page, if one was: it becomes the account's (else the account's own stays). */
  locale: z.optional(z.enum(LOCALES, { error: AUTH_ERRORS.invalidLocale })),
});
export type LoginBody = z.infer<typeof loginBody>;

// ── usernames: one form per name, nothing hidden, nothing that passes for a reserved name ─────

/**
 * Characters a username may not hold: controls, format characters (zero-width joiners and spaces,
 * the right-to-left override and every other direction mark), private-use, unassigned and
 * surrogate code points, line and paragraph separators, default-ignorable characters (the Hangul
 * fillers among them), any space but the plain one, and more than two combining marks in a row.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]|(?! )\p{Zs}|\p{M}{3}/u;

/** Names no account may have, nor anything that looks like them: `server` leads every item before its first bid. */
export const RESERVED_USERNAMES = ['server', 'system', 'admin'] as const;

/** Cyrillic and Greek letters that look like Latin ones (lowercase, after NFKC). */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a', в: 'b', с: 'c', ԁ: 'd', е: 'e', ё: 'e', һ: 'h', і: 'i', ї: 'i', ј: 'j', к: 'k', ӏ: 'l', м: 'm', н: 'h', о: 'o', р: 'p', ԛ: 'q', г: 'r', ѕ: 's', т: 't', ц: 'u', ѵ: 'v', ԝ: 'w', х: 'x', у: 'y', ү: 'y', з: '3', ь: 'b', п: 'n', ѡ: 'w',
  α: 'a', β: 'b', ϲ: 'c', ε: 'e', η: 'n', ι: 'i', ϳ: 'j', κ: 'k', μ: 'u', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y', ω: 'w', ϱ: 'p', ϵ: 'e', ς: 's',
};

/**
 * A username's look-alike form: NFKC, lowercase, Cyrillic and Greek homoglyphs as the Latin letters
 * they pass for. Two names with the same fold are the same name to a reader.
 */
export function usernameFold(name: string): string {
  return [...name.normalize('NFKC').toLowerCase()].map((c) => HOMOGLYPHS[c] ?? c).join('');
}

/**
 * The skeleton reserved names are compared on: the fold, without accents and marks, without
 * anything but letters and digits, with the digits and letters that stand in for each other made
 * one (0 o, 1 l i |, 3 e, 5 s, rn m, vv w). `s.e.r.v.e.r`, `ѕerver`, `Adm1n` and `SYSTEM` all
 * meet their reserved name here.
 */
export function usernameSkeleton(name: string): string {
  return usernameFold(name)
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .replace(/[0]/g, 'o')
    .replace(/[1il|!]/g, 'l')
    .replace(/3/g, 'e')
    .replace(/5/g, 's')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w');
}

const RESERVED_SKELETONS = new Set(RESERVED_USERNAMES.map(usernameSkeleton));

/** Why a (normalised, trimmed) username cannot be taken, whoever else exists; null when it can. */
export function usernameProblem(name: string): string | null {
  if (HIDDEN.test(name)) return AUTH_ERRORS.usernameCharacters;
  if (/^\d+$/.test(name)) return AUTH_ERRORS.usernameDigits;
  if (RESERVED_SKELETONS.has(usernameSkeleton(name))) return AUTH_ERRORS.usernameReserved;
  return null;
}

/** A username as stored: NFKC (one form for what looks the same), trimmed. */
export const normaliseUsername = (name: string) => name.normalize('NFKC').trim();

export const registerBody = z.object({
  username: z.pipe(
    z.string({ error: AUTH_ERRORS.usernameRequired }),
    z.pipe(
      z.transform(normaliseUsername),
      z.string().check(
        z.minLength(1, AUTH_ERRORS.usernameRequired),
        z.maxLength(USERNAME_MAX_LENGTH, AUTH_ERRORS.usernameTooLong),
        z.refine((name) => usernameProblem(name) === null, { error: (issue) => usernameProblem(issue.input as string) ?? AUTH_ERRORS.usernameRequired }),
      ),
    ),
  ),
  playerid: z.pipe(
    z.union([z.string(), z.number()], { error: AUTH_ERRORS.playerIdRequired }),
    z.pipe(
      z.transform((v: string | number) => normalisePlayerId(String(v))),
      z.string().check(z.minLength(1, AUTH_ERRORS.playerIdRequired), z.regex(PLAYER_ID_RULE, AUTH_ERRORS.playerIdDigits)),
    ),
  ),
  email: z.pipe(
    z.string({ error: AUTH_ERRORS.emailRequired }),
    z.pipe(trimLower, z.string().check(z.maxLength(EMAIL_MAX_LENGTH, AUTH_ERRORS.emailRequired), z.regex(EMAIL_RULE, AUTH_ERRORS.emailRequired))),
  ),
  password: z
    .string({ error: AUTH_ERRORS.weakPassword })
    .check(z.maxLength(PASSWORD_MAX_LENGTH, AUTH_ERRORS.weakPassword), z.regex(PASSWORD_RULE, AUTH_ERRORS.weakPassword)),
});
export type RegisterBody = z.input<typeof registerBody>;

export const changePasswordBody = z.object({
  oldPassword: z
    .string({ error: AUTH_ERRORS.wrongOldPassword })
    .check(z.minLength(1, AUTH_ERRORS.wrongOldPassword), z.maxLength(PASSWORD_MAX_LENGTH, AUTH_ERRORS.wrongOldPassword)),
  newPassword: z
    .string({ error: AUTH_ERRORS.weakPassword })
    .check(z.maxLength(PASSWORD_MAX_LENGTH, AUTH_ERRORS.weakPassword), z.regex(PASSWORD_RULE, AUTH_ERRORS.weakPassword)),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export const localeBody = z.object({ locale: z.enum(LOCALES, { error: AUTH_ERRORS.invalidLocale }) });
export const rankBody = z.object({ rank: z.enum(RANKS, { error: AUTH_ERRORS.invalidRank }) });

/** The signed-in user as POST auth/me returns it. `rank` stays a string: unknown ranks are shown as such. */
export const user = z.object({
  id: z.int(),
  username: z.string(),
  rank: z.string(),
  balance: z.int(),
  reserved: z.int(),
  available: z.int(),
  playerid: z.string(),
  email: z.string(),
  locale: z.string(),
});
export type User = z.infer<typeof user>;

export const loginSuccess = z.object({ result: z.literal(true), token: z.object({ access_token: z.string() }), error: z.null() });
export const loginRefusal = z.object({ result: z.literal(false), token: z.null(), error: z.string() });
export const loginAnswer = z.union([loginSuccess, loginRefusal]);
export type LoginAnswer = z.infer<typeof loginAnswer>;

export const meSuccess = z.object({ result: z.literal(true), user, error: z.null() });
export const meRefusal = z.object({ result: z.literal(false), user: z.null(), error: z.string() });
export const meAnswer = z.union([meSuccess, meRefusal]);
export type MeAnswer = z.infer<typeof meAnswer>;

export const statusAnswer = z.object({ status: z.string(), error: z.optional(z.nullable(z.string())) });
export type StatusAnswer = z.infer<typeof statusAnswer>;

/** A schema issue, as zod reports it (only what `firstIssue` reads). */
interface Issue {
  message: string;
  code?: string;
  path?: readonly PropertyKey[];
  expected?: string;
}

/** zod's own text for an issue the schema gave no text of its own. */
const ZOD_DEFAULT = 'Invalid input';

const EXPECTED: Record<string, string> = {
  boolean: 'true or false',
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  array: 'a list',
  object: 'an object',
};

/**
 * The first message of a schema error, for a `{result:false, error}` answer: the schema's own text,
 * or, where it has none (zod's bare "Invalid input"), one that names the field and what it must be.
 */
export function firstIssue(error: { issues: readonly Issue[] }): string {
  const issue = error.issues[0];
  if (!issue) return AUTH_ERRORS.invalidBody;
  if (issue.message !== ZOD_DEFAULT) return issue.message;
  const path = issue.path ?? [];
  const field = path.length ? path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('') : 'The request';
  if (issue.code === 'invalid_type' && issue.expected && EXPECTED[issue.expected]) return `${field} must be ${EXPECTED[issue.expected]}.`;
  if (issue.code === 'invalid_union' || issue.code === 'invalid_value') return `${field} is not one of the forms or values allowed here.`;
  return `${field} is not valid here.`;
}
