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
 * The admin dashboard's health at a glance (issue 14, point 3). Every figure is one indexed count
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
  };
}
