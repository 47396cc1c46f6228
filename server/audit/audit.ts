import { nocase } from '../db/dialect';
import { sql } from 'kysely';
import type { Queryable } from '../db/write';
import type { AuditAction } from '../../src/protocol/admin';

/**
 * The audit log's one writer: every leadership action is recorded
 * with who, what and when, in the same transaction as the change it describes where there is one,
 * so an action and its entry land together or not at all. The table is append-only (a trigger).
 *
 * Actions are dotted names, the area first: `rank.change`, `points.grant`, `points.bulk`,
 * `scan.apply`, `scan.delete`, `item.create`, `item.edit`, `item.cancel`, `settings.change`,
 * `group.change`, `season.create`, `rule.apply`, `bot.register`, `account.disable`…
 */
export interface AuditEntry {
  /** Who acted: a user (id and username), or the system (id null, "system"), or a bot (id null, its name). */
  actor: { id: number | null; name: string };
  /** One of AUDIT_ACTIONS (the log's filter offers exactly those: a new action is added there). */
  action: AuditAction;
  /** What it acted on, as a person reads it: a username, an item's name, a scan's id… */
  target: string;
  /** What changed, kept small (it is stored as JSON and shown in one table cell). */
  detail?: Record<string, unknown>;
}

/** The actor of what no signed-in person did: `npm run admin` in a shell, the scheduler. */
export const SHELL_ACTOR: AuditEntry['actor'] = { id: null, name: 'system' };

/** Longest stored detail; a larger one is cut and marked, so one action cannot bloat the log. */
export const AUDIT_DETAIL_MAX = 2_000;

export async function recordAudit(db: Queryable, entry: AuditEntry, at: number): Promise<void> {
  let detail = JSON.stringify(entry.detail ?? {});
  if (detail.length > AUDIT_DETAIL_MAX) detail = JSON.stringify({ truncated: detail.slice(0, AUDIT_DETAIL_MAX - 40) });
  await db
    .insertInto('audit_log')
    .values({ at, actor_id: entry.actor.id, actor: entry.actor.name, action: entry.action, target: entry.target.slice(0, 200), detail })
    .execute();
}

/** Who acted, by account id (null: the system), read inside the caller's transaction. */
export async function actorOf(db: Queryable, actorId: number | null): Promise<AuditEntry['actor']> {
  if (actorId === null) return SHELL_ACTOR;
  const row = await db.selectFrom('users').select('username').where('id', '=', actorId).executeTakeFirst();
  // an id with no account (a test's engine, a deleted fixture) is kept by name only: actor_id references users
  return row ? { id: actorId, name: row.username } : { id: null, name: `#${actorId}` };
}

/** recordAudit with the actor given by account id: the domain code that only knows the id records this way. */
export async function recordAuditBy(db: Queryable, actorId: number | null, action: AuditAction, target: string, detail: Record<string, unknown>, at: number): Promise<void> {
  await recordAudit(db, { actor: await actorOf(db, actorId), action, target, detail }, at);
}

// ── reading it (GET audit, GET audit.csv) ─────────────────────────────────────────────────────

export interface AuditFilter {
  /** The actor's name as recorded (any ASCII case). */
  actor?: string;
  /** An exact action (`points.grant`) or an area (`points` matches every `points.…`). */
  action?: string;
}

export interface AuditRow {
  at: number;
  actor: string;
  action: string;
  target: string;
  detail: Record<string, unknown>;
}

function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filtered(db: Queryable, filter: AuditFilter) {
  let query = db.selectFrom('audit_log');
  const actor = filter.actor?.trim();
  if (actor) query = query.where(nocase(db, sql`actor`), '=', nocase(db, sql`${actor}`));
  const action = filter.action?.trim();
  if (action) {
    query = action.includes('.')
      ? query.where('action', '=', action)
      : query.where((eb) => eb.or([eb('action', '=', action), eb('action', 'like', sql<string>`${`${likeEscape(action)}.%`} escape '\\'`)]));
  }
  return query;
}

function toRow(r: { at: number; actor: string; action: string; target: string; detail: string }): AuditRow {
  let detail: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(r.detail);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) detail = parsed as Record<string, unknown>;
  } catch {
    detail = { text: r.detail };
  }
  return { at: r.at, actor: r.actor, action: r.action, target: r.target, detail };
}

/** Newest first, a page at a time. */
export async function listAudit(db: Queryable, filter: AuditFilter, page: number, pageSize: number): Promise<{ entries: AuditRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(db, filter).select(['at', 'actor', 'action', 'target', 'detail']).orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute(),
    filtered(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { entries: rows.map(toRow), total: Number(count.n) };
}

/** Every matching entry, newest first, in chunks below the last id (the CSV export). */
export async function* allAudit(db: Queryable, filter: AuditFilter, chunk = 2000): AsyncGenerator<AuditRow[]> {
  let below = Number.MAX_SAFE_INTEGER;
  for (;;) {
    const rows = await filtered(db, filter).select(['id', 'at', 'actor', 'action', 'target', 'detail']).where('id', '<', below).orderBy('id', 'desc').limit(chunk).execute();
    if (rows.length === 0) return;
    yield rows.map(toRow);
    below = rows[rows.length - 1].id;
    if (rows.length < chunk) return;
  }
}
