import type { Db } from '../db/open';
import { isPostgres } from '../db/dialect';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Dashboard } from '../../src/protocol/admin';
import type { AppContext } from '../context';
import { DB_FILE } from '../db/open';

const HOUR_MS = 60 * 60 * 1000;

/** The running code's version (package.json), read once. */
export const VERSION: string = (() => {
  try {
    return (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
})();

/** The database's bytes on disk: SQLite's file and its write-ahead log, or PostgreSQL's own count. */
async function databaseBytes(db: Db, dataDir: string): Promise<number> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ bytes: number }>`select pg_database_size(current_database()) as bytes`.execute(db);
    return rows[0]?.bytes ?? 0;
  }
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += fs.statSync(path.join(dataDir, DB_FILE + suffix)).size;
    } catch {
      // not there (no WAL yet)
    }
  }
  return total;
}

/**
 * The backups' status (SQLite): the last backup recorded, and whether the schedule is behind by more
 * than two periods. On PostgreSQL null: its backups are pg_dump's, which the server cannot see.
 */
export async function readBackupStatus(ctx: AppContext, now: number): Promise<Dashboard['backup']> {
  if (isPostgres(ctx.db)) return null;
  const last = await ctx.db.selectFrom('backups').select(['taken_at', 'bytes', 'scheduled']).orderBy('taken_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  const schedule = ctx.config.backup;
  // with no backup yet, the schedule is late once the server has run two periods without one
  const since = last?.taken_at ?? ctx.startedAt;
  return {
    everyHours: schedule?.everyHours ?? null,
    keep: schedule?.keep ?? null,
    last: last ? { takenAt: last.taken_at, bytes: last.bytes, scheduled: last.scheduled === 1 } : null,
    overdue: schedule !== null && now - since > 2 * schedule.everyHours * HOUR_MS,
  };
}

/**
 * The admin dashboard's health at a glance. Every figure is one indexed count
 * or a read of memory, so the page can be reloaded freely.
 */
export async function readDashboard(ctx: AppContext, version = VERSION): Promise<Dashboard> {
  const now = ctx.now();
  const { db } = ctx;
  const [ranks, disabled, bids, live, lastScan] = await Promise.all([
    db.selectFrom('users').select(['rank', sql<number>`count(*)`.as('n')]).groupBy('rank').execute(),
    db.selectFrom('users').select(sql<number>`count(*)`.as('n')).where('disabled_at', 'is not', null).executeTakeFirstOrThrow(),
    db.selectFrom('bids').select(sql<number>`count(*)`.as('n')).where('created_at', '>=', now - HOUR_MS).executeTakeFirstOrThrow(),
    db.selectFrom('items').select(sql<number>`count(*)`.as('n')).where('state', '=', 'live').executeTakeFirstOrThrow(),
    db.selectFrom('scans').select(['id', 'taken_at', 'rows']).orderBy('taken_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst(),
  ]);
  return {
    accountsByRank: Object.fromEntries(ranks.map((r) => [r.rank, Number(r.n)])),
    disabledAccounts: Number(disabled.n),
    sockets: { auction: ctx.hub.count('auction'), user: ctx.hub.count('user') },
    bidsLastHour: Number(bids.n),
    liveItems: Number(live.n),
    lastScan: lastScan ? { id: lastScan.id, takenAt: lastScan.taken_at, rows: lastScan.rows } : null,
    botsOnline: ctx.bots?.onlineCount() ?? 0,
    databaseBytes: await databaseBytes(ctx.db, ctx.config.dataDir),
    version,
    uptimeSeconds: Math.max(0, Math.round((Date.now() - ctx.startedAt) / 1000)),
    backup: await readBackupStatus(ctx, now),
  };
}
