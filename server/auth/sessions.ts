import { randomUUID } from 'node:crypto';
import { MAX_SESSIONS, publish } from '../cluster/events';
import type { Db } from '../db/open';
import type { SessionRow } from '../db/schema';
import type { Queryable } from '../db/write';
import { TOKEN_LIFETIME_MS } from './tokens';

export async function createSession(db: Db, userId: number, now = Date.now()): Promise<SessionRow> {
  const session: SessionRow = {
    id: randomUUID(),
    user_id: userId,
    created_at: now,
    expires_at: now + TOKEN_LIFETIME_MS,
    revoked_at: null,
  };
  await db.insertInto('sessions').values(session).execute();
  return session;
}

/** The session if it exists, belongs to the user, is not revoked and has not expired. */
export async function findActiveSession(db: Db, sessionId: string, userId: number, now = Date.now()): Promise<SessionRow | null> {
  const row = await db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ?? null;
}

/** Told the ids of sessions just revoked (the sockets close theirs at once). */
export type RevokedListener = (sessionIds: string[]) => void;

/** Listeners by database: every test server has its own. */
const revokedListeners = new WeakMap<Db, Set<RevokedListener>>();

/** Calls `listener` after each revocation made through this module on `db`; returns the unsubscribe. */
export function onSessionsRevoked(db: Db, listener: RevokedListener): () => void {
  let set = revokedListeners.get(db);
  if (!set) revokedListeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Tells the listeners (the sockets) of sessions revoked inside a transaction, once it has committed. */
export function announceRevoked(db: Db, sessionIds: string[]): void {
  revoked(db, sessionIds);
}

/** Revokes every live session of the user inside the caller's write transaction; call announceRevoked after the commit. */
export async function revokeUserSessionsIn(trx: Queryable, userId: number, now: number): Promise<string[]> {
  const rows = await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).returning('id').execute();
  return rows.map((r) => r.id);
}

function revoked(db: Db, sessionIds: string[]): void {
  if (sessionIds.length === 0) return;
  tellRevoked(db, sessionIds);
  // the other processes close theirs too (PostgreSQL; nothing on SQLite). If this is lost, each
  // process's heartbeat sweep still finds the revoked sessions.
  for (let i = 0; i < sessionIds.length; i += MAX_SESSIONS) {
    publish(db, { k: 'revoked', s: sessionIds.slice(i, i + MAX_SESSIONS) }).catch(() => undefined);
  }
}

/** Tells this process's listeners (its sockets) of revoked sessions; `revoked` events from other processes come here. */
export function tellRevoked(db: Db, sessionIds: string[]): void {
  for (const listener of revokedListeners.get(db) ?? []) listener(sessionIds);
}

export async function revokeSession(db: Db, sessionId: string, now = Date.now()): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
  revoked(db, [sessionId]);
}

/** Revokes every live session of the user (an account disabled); returns the revoked ids. */
export async function revokeUserSessions(db: Db, userId: number, now = Date.now()): Promise<string[]> {
  const rows = await db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).returning('id').execute();
  const ids = rows.map((r) => r.id);
  revoked(db, ids);
  return ids;
}

/** Revokes every live session of the user but `keep`; returns the revoked ids (their sockets must close). */
export async function revokeOtherSessions(db: Db, userId: number, keep: string, now = Date.now()): Promise<string[]> {
  const rows = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('id', '!=', keep)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  const ids = rows.map((r) => r.id);
  revoked(db, ids);
  return ids;
}
