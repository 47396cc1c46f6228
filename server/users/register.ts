import { sql } from 'kysely';
import type { z } from 'zod';
import type { registerBody } from '../../src/protocol/auth';
import type { PasswordHasher } from '../auth/passwords';
import type { Db } from '../db/open';
import type { UserRow } from '../db/schema';
import { claimGovernor } from '../scans/directory';
import { findUserByEmail, findUserByUsername } from './users';

/** Items show `server` as the leader before the first bid, so no account may take that name. */
const RESERVED_USERNAMES = new Set(['server']);

export type RegisterResult = { ok: true; user: UserRow } | { ok: false; reason: 'emailTaken' | 'usernameTaken' };

function uniqueViolation(error: unknown): 'emailTaken' | 'usernameTaken' | null {
  const { code, message } = error as { code?: string; message?: string };
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE' || typeof message !== 'string') return null;
  if (message.includes('users.email')) return 'emailTaken';
  if (message.includes('users.username')) return 'usernameTaken';
  return null;
}

/** Creates an account; the first one on an empty database is the admin. */
export async function registerUser(
  db: Db,
  passwords: PasswordHasher,
  input: z.output<typeof registerBody>,
  now = Date.now(),
): Promise<RegisterResult> {
  if (await findUserByEmail(db, input.email)) return { ok: false, reason: 'emailTaken' };
  if (RESERVED_USERNAMES.has(input.username.toLowerCase()) || (await findUserByUsername(db, input.username))) {
    return { ok: false, reason: 'usernameTaken' };
  }
  const passwordHash = await passwords.hash(input.password);
  try {
    const user = await db.transaction().execute(async (trx) => {
      const { count } = await trx
        .selectFrom('users')
        .select(sql<number>`count(*)`.as('count'))
        .executeTakeFirstOrThrow();
      const created = await trx
        .insertInto('users')
        .values({
          email: input.email,
          username: input.username,
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
    // Two sign-ups racing for the same email or name: the database's unique index decides.
    const reason = uniqueViolation(error);
    if (reason) return { ok: false, reason };
    throw error;
  }
}
