import type { User } from '../../src/protocol/auth';
import type { Db } from '../db/open';
import type { UserRow } from '../db/schema';

/** The account as the wire shows it (POST auth/me and friends): never the hash. */
export function toWireUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    rank: row.rank,
    balance: row.balance,
    reserved: row.reserved,
    available: row.balance - row.reserved,
    playerid: row.playerid,
    email: row.email,
    locale: row.locale,
  };
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

/** Case-insensitive (the column is COLLATE NOCASE). */
export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

export async function setUserRank(db: Db, id: number, rank: string): Promise<UserRow> {
  return db.updateTable('users').set({ rank }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
