import { likeOperator } from '../db/dialect';
import { sql } from 'kysely';
import { Conflict, NotFound } from '../errors';
import { ACCOUNTS_PAGE_SIZE, ADMIN_ERRORS, type AdminUser } from '../../src/protocol/admin';
import type { Rank } from '../../src/protocol/ranks';
import { recordAudit, type AuditEntry } from '../audit/audit';
import { announceRevoked, revokeUserSessionsIn } from '../auth/sessions';
import type { Db } from '../db/open';
import type { UserRow } from '../db/schema';
import { writeTransaction } from '../db/write';

/**
 * Accounts as an admin runs them: listed and searched, disabled and enabled,
 * their sessions revoked. Nothing is deleted: the ledger keeps its history. Each change and its
 * audit entry land in one write transaction; the revoked sessions' sockets are closed right after
 * the commit (the socket servers listen for revocations: server/auth/sessions.ts).
 */
export type Actor = AuditEntry['actor'];

export function toAdminUser(row: UserRow): AdminUser {
  return {
    username: row.username,
    email: row.email,
    governorId: row.playerid,
    rank: row.rank,
    balance: row.balance,
    disabled: row.disabled_at !== null,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
  };
}

function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Accounts by username, 50 a page. `q` matches a username or an email (contains, any ASCII case)
 * or a governor id (the sign-up's, or any governor linked to the account; prefix).
 */
export async function listAccounts(db: Db, filter: { q?: string; rank?: Rank; page?: number }): Promise<{ users: AdminUser[]; total: number; page: number; pageSize: number }> {
  const page = filter.page ?? 1;
  let query = db.selectFrom('users as u');
  const text = filter.q?.trim() ?? '';
  if (text) {
    const contains = sql<string>`${`%${likeEscape(text)}%`} escape '\\'`;
    const prefix = sql<string>`${`${likeEscape(text)}%`} escape '\\'`;
    query = query.where((eb) => {
      const like = likeOperator(db);
      const anyOf = [eb('u.username', like, contains), eb('u.email', like, contains), eb('u.playerid', 'like', prefix)];
      if (/^\d{1,15}$/.test(text)) {
        anyOf.push(eb.exists(eb.selectFrom('governor_links as g').select('g.governor_id').whereRef('g.user_id', '=', 'u.id').where(sql<boolean>`cast(g.governor_id as text) like ${prefix}`)));
      }
      return eb.or(anyOf);
    });
  }
  if (filter.rank) query = query.where('u.rank', '=', filter.rank);
  const [rows, count] = await Promise.all([
    query.selectAll('u').orderBy('u.username').orderBy('u.id').limit(ACCOUNTS_PAGE_SIZE).offset((page - 1) * ACCOUNTS_PAGE_SIZE).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { users: rows.map(toAdminUser), total: Number(count.n), page, pageSize: ACCOUNTS_PAGE_SIZE };
}

async function target(db: Pick<Db, 'selectFrom'>, username: string): Promise<UserRow> {
  const row = await db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  if (!row) throw new NotFound(ADMIN_ERRORS.unknownUser);
  return row;
}

/**
 * Disables an account: it cannot sign in, every session is revoked and every socket it has open
 * (auction and user) is closed at once. Disabling a disabled account changes nothing. An admin may
 * not disable their own account, nor the last admin who can still sign in.
 */
export async function disableAccount(db: Db, username: string, actor: Actor, now: number): Promise<{ user: UserRow; revoked: string[] }> {
  const done = await writeTransaction(db, async (trx) => {
    const user = await target(trx, username);
    if (user.disabled_at !== null) return { user, revoked: [] as string[] };
    if (user.id === actor.id) throw new Conflict(ADMIN_ERRORS.selfDisable);
    if (user.rank === 'admin') {
      const { admins } = await trx
        .selectFrom('users')
        .select(sql<number>`count(*)`.as('admins'))
        .where('rank', '=', 'admin')
        .where('disabled_at', 'is', null)
        .where('id', '!=', user.id)
        .executeTakeFirstOrThrow();
      if (admins < 1) throw new Conflict(ADMIN_ERRORS.lastAdmin);
    }
    const updated = await trx.updateTable('users').set({ disabled_at: now, disabled_by: actor.id }).where('id', '=', user.id).returningAll().executeTakeFirstOrThrow();
    const revoked = await revokeUserSessionsIn(trx, user.id, now);
    await recordAudit(trx, { actor, action: 'account.disable', target: user.username, detail: { sessionsRevoked: revoked.length } }, now);
    return { user: updated, revoked };
  });
  announceRevoked(db, done.revoked);
  return done;
}

/** Enables a disabled account: it may sign in again (its old sessions stay revoked). */
export async function enableAccount(db: Db, username: string, actor: Actor, now: number): Promise<UserRow> {
  return writeTransaction(db, async (trx) => {
    const user = await target(trx, username);
    if (user.disabled_at === null) return user;
    const updated = await trx.updateTable('users').set({ disabled_at: null, disabled_by: null }).where('id', '=', user.id).returningAll().executeTakeFirstOrThrow();
    await recordAudit(trx, { actor, action: 'account.enable', target: user.username, detail: {} }, now);
    return updated;
  });
}

/** Signs an account out everywhere: every session revoked, every socket closed; it may sign in again. */
export async function revokeAccountSessions(db: Db, username: string, actor: Actor, now: number): Promise<{ user: UserRow; revoked: string[] }> {
  const done = await writeTransaction(db, async (trx) => {
    const user = await target(trx, username);
    const revoked = await revokeUserSessionsIn(trx, user.id, now);
    await recordAudit(trx, { actor, action: 'account.revoke-sessions', target: user.username, detail: { sessionsRevoked: revoked.length } }, now);
    return { user, revoked };
  });
  announceRevoked(db, done.revoked);
  return done;
}

/** How often an account's last-seen time is written at most. */
export const LAST_SEEN_EVERY_MS = 60_000;

/**
 * Notes that an account was seen (an authentication): written only when the stored time is a
 * minute old or more, so a busy account costs one small write a minute, never one a request.
 */
const written = new WeakMap<Db, Map<number, number>>();

export function noteSeen(db: Db, user: UserRow, now: number): void {
  let byUser = written.get(db);
  if (!byUser) written.set(db, (byUser = new Map()));
  const last = Math.max(user.last_seen_at ?? 0, byUser.get(user.id) ?? 0);
  if (now - last < LAST_SEEN_EVERY_MS) return;
  byUser.set(user.id, now);
  // bounded: a long-running server forgets accounts it has not seen for a while
  if (byUser.size > 10_000) for (const [id, at] of byUser) if (now - at >= LAST_SEEN_EVERY_MS) byUser.delete(id);
  void db
    .updateTable('users')
    .set({ last_seen_at: now })
    .where('id', '=', user.id)
    .execute()
    .catch(() => undefined);
}
