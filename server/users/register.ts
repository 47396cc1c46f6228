import { sql } from 'kysely';
import type { z } from 'zod/mini';
import { AUTH_ERRORS, normaliseUsername, usernameFold, usernameProblem, type registerBody } from '../../src/protocol/auth';
import type { PasswordHasher } from '../auth/passwords';
import type { Db } from '../db/open';
import { uniqueViolation, writeTransaction } from '../db/write';
import type { UserRow } from '../db/schema';
import { claimGovernor } from '../scans/directory';
import { findUserByEmail, findUserByUsername } from './users';

export type RegisterRefusal = 'emailTaken' | 'usernameTaken' | 'playerIdTaken' | 'usernameCharacters' | 'usernameDigits' | 'usernameReserved';
export type RegisterResult = { ok: true; user: UserRow } | { ok: false; reason: RegisterRefusal };

function refusalOf(error: unknown): RegisterRefusal | null {
  const columns = uniqueViolation(error)?.columns ?? [];
  if (columns.includes('users.email')) return 'emailTaken';
  if (columns.includes('users.username')) return 'usernameTaken';
  if (columns.includes('users.playerid')) return 'playerIdTaken';
  return null;
}

const REFUSALS = new Map<string, RegisterRefusal>(
  (['usernameCharacters', 'usernameDigits', 'usernameReserved'] as const).map((key) => [AUTH_ERRORS[key], key]),
);

/**
 * Whether another account's name reads the same as this one (same letters once case, width and
 * Cyrillic or Greek look-alikes are folded): `аlice` with a Cyrillic а is alice's name.
 */
async function looksTaken(db: Db, username: string): Promise<boolean> {
  const fold = usernameFold(username);
  const names = await db.selectFrom('users').select('username').execute();
  return names.some((row) => usernameFold(row.username) === fold);
}

/** Creates an account; the first one on an empty database is the admin. */
export async function registerUser(
  db: Db,
  passwords: PasswordHasher,
  input: z.output<typeof registerBody>,
  now = Date.now(),
): Promise<RegisterResult> {
  if (await findUserByEmail(db, input.email)) return { ok: false, reason: 'emailTaken' };
  // the schema has normalised and checked the name; again here for any other caller
  const username = normaliseUsername(input.username);
  const problem = usernameProblem(username);
  if (problem) return { ok: false, reason: REFUSALS.get(problem) ?? 'usernameReserved' };
  if ((await findUserByUsername(db, username)) || (await looksTaken(db, username))) return { ok: false, reason: 'usernameTaken' };
  // one account per governor id: bulk awards by governor id must reach exactly one player
  if (await db.selectFrom('users').select('id').where('playerid', '=', input.playerid).executeTakeFirst()) return { ok: false, reason: 'playerIdTaken' };
  const passwordHash = await passwords.hash(input.password);
  try {
    // one write at a time: two first sign-ups at once cannot both become the admin
    const user = await writeTransaction(db, async (trx) => {
      const { count } = await trx
        .selectFrom('users')
        .select(sql<number>`count(*)`.as('count'))
        .executeTakeFirstOrThrow();
      const created = await trx
        .insertInto('users')
        .values({
          email: input.email,
          username,
          playerid: input.playerid,
          password_hash: passwordHash,
          rank: count === 0 ? 'admin' : 'user',
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      // the sign-up's player id is the account's claimed main governor, until an admin says otherwise
      await claimGovernor(trx, created.id, input.playerid, now);
      return created;
    });
    return { ok: true, user };
  } catch (error) {
    // Two sign-ups racing for the same email, name or governor id: the database's unique index decides.
    const reason = refusalOf(error);
    if (reason) return { ok: false, reason };
    throw error;
  }
}
