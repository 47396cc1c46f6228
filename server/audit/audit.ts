import type { Queryable } from '../db/write';

/**
 * The audit log's one writer (DESIGN.md, "Administration"): every leadership action is recorded
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
  action: string;
  /** What it acted on, as a person reads it: a username, an item's name, a scan's id… */
  target: string;
  /** What changed, kept small (it is stored as JSON and shown in one table cell). */
  detail?: Record<string, unknown>;
}

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
