import { sql } from 'kysely';
import { AUTH_ERRORS, type User } from '../../src/protocol/auth';
import { publish } from '../cluster/events';
import type { Db } from '../db/open';
import type { UserRow } from '../db/schema';
import { writeTransaction } from '../db/write';
import { Conflict } from '../errors';
import { recordAudit, SHELL_ACTOR, type AuditEntry } from '../audit/audit';

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

/**
 * Sets an account's rank; refuses (409) to take the rank admin from the last admin, so the
 * kingdom always has someone who can run it. Checked and written in one write transaction: two
 * admins demoting each other at once cannot both succeed. The change is audited in the same
 * transaction (by `actor`: the shell's `npm run admin` records as the system).
 */
export async function setUserRank(db: Db, id: number, rank: string, actor: AuditEntry['actor'] = SHELL_ACTOR, now = Date.now()): Promise<UserRow> {
  let changed = false;
  const updated = await writeTransaction(db, async (trx) => {
    const current = await trx.selectFrom('users').select(['rank', 'username']).where('id', '=', id).executeTakeFirstOrThrow();
    if (current.rank === 'admin' && rank !== 'admin') {
      const { admins } = await trx
        .selectFrom('users')
        .select(sql<number>`count(*)`.as('admins'))
        .where('rank', '=', 'admin')
        .executeTakeFirstOrThrow();
      if (admins <= 1) throw new Conflict(AUTH_ERRORS.lastAdmin);
    }
    const updated = await trx.updateTable('users').set({ rank }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    if (current.rank !== rank) {
      await recordAudit(trx, { actor, action: 'rank.change', target: current.username, detail: { from: current.rank, to: rank } }, now);
      // the server processes' sockets of this account hear of it at the commit (PostgreSQL; nothing on SQLite)
      await publish(trx, { k: 'account', user: id });
      changed = true;
    }
    return updated;
  });
  if (changed) tellRankChanged(db, id);
  return updated;
}

/** Told the id of an account whose rank just changed (committed): a channel its new rank may not hold closes at once. */
export type RankListener = (userId: number) => void;
const rankListeners = new WeakMap<Db, Set<RankListener>>();

/** Calls `listener` after each rank change on `db` (this process's, and other processes' through tellRankChanged); returns the unsubscribe. */
export function onRankChanged(db: Db, listener: RankListener): () => void {
  let set = rankListeners.get(db);
  if (!set) rankListeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Tells this process's listeners that an account's rank changed; `account` events from other processes come here. */
export function tellRankChanged(db: Db, userId: number): void {
  for (const listener of rankListeners.get(db) ?? []) listener(userId);
}
