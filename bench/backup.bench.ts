/**
 * npm run bench:backup — what a backup costs the players.
 *
 * A kingdom of 5,000 governors × 100 scans (500,000 governor rows with every stat) in a temporary
 * DATA_DIR, a server over it (its own process, as `npm start` runs it) and 20 players bidding on
 * one live item at 100 bids/s in all (5 a second each, within the accounts' frame budget), from this
 * process. Bid latency is CREATE_BID → the bidder's own BID_CREATED (or its ERROR).
 *
 * Phases: quiet (QUIET_S), then a backup taken as the server's schedule takes it (`npm run admin --
 * backup FILE --scheduled` in a child process at the lowest priority, server/backup/schedule.ts)
 * with the same bids going on until it ends, then quiet again. Reports the backup's time and size
 * and the bid p50/p99 of each phase; target: p99 during the backup within 20% of quiet. `-- --scans
 * N` for a smaller kingdom.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { backupInChildProcess } from '../server/backup/schedule';
import { openDatabase } from '../server/db/open';
import { nowMs } from './common';
import { account, bidders, bidPhase, killLiveChildren, startServer, summary } from './live-server';

const GOVERNORS = 5_000;
const scansAt = process.argv.indexOf('--scans');
const SCANS = scansAt >= 0 ? Number(process.argv[scansAt + 1]) : 100;
const PLAYERS = 20;
const RATE = 100;
const QUIET_S = 15;
const log = (line: string) => process.stderr.write(`${line}\n`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-bench-backup-'));
const dataDir = path.join(tmp, 'data');
const cleanup = () => {
  killLiveChildren();
  fs.rmSync(tmp, { recursive: true, force: true });
};
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));

/** The kingdom: migrated, then 5,000 governors in each of SCANS scans, stats growing scan to scan. */
async function buildKingdom(): Promise<void> {
  const db = await openDatabase(dataDir);
  await db.destroy();
  const sqlite = new SQLite(path.join(dataDir, 'kingdom.db'));
  const scan = sqlite.prepare("insert into scans (taken_at, kind, rows, file_name, sha256, source, uploaded_by, created_at) values (?, 'kingdom', ?, ?, ?, 'upload', null, ?)");
  const stats = ['power', 'killpoints', 'deads', 't1_kills', 't2_kills', 't3_kills', 't4_kills', 't5_kills', 'total_kills', 't45_kills', 'ranged', 'rss_gathered', 'rss_assistance', 'helps', 'acclaim', 'highest_acclaim'];
  const row = sqlite.prepare(
    `insert into scan_rows (scan_id, governor_id, name, alliance, kingdom, ${stats.join(', ')}) values (?, ?, ?, ?, 1234, ${stats.map(() => '?').join(', ')})`,
  );
  const start = Date.UTC(2026, 0, 1);
  for (let s = 0; s < SCANS; s++) {
    sqlite.transaction(() => {
      const at = start + s * 86_400_000;
      const id = Number(scan.run(at, GOVERNORS, `scan-${s}.csv`, s.toString(16).padStart(64, '0'), at).lastInsertRowid);
      for (let g = 0; g < GOVERNORS; g++) {
        const base = (g + 1) * 1_000 + s * 37;
        row.run(id, 10_000_000 + g, `Governor ${g}`, `A${g % 40}`, ...stats.map((_, k) => base * (k + 1) + ((g * 7919 + s * 104729 + k) % 997)));
      }
    })();
  }
  sqlite.close();
}

async function main(): Promise<void> {
  const built = nowMs();
  await buildKingdom();
  const dbBytes = fs.statSync(path.join(dataDir, 'kingdom.db')).size;
  log(`kingdom built: ${GOVERNORS} governors × ${SCANS} scans, ${(dbBytes / 2 ** 20).toFixed(0)} MB, in ${((nowMs() - built) / 1000).toFixed(1)} s`);
  const server = await startServer(dataDir);
  const admin = await account(server.http, 'admin');
  const { players, itemId } = await bidders(server, admin.token, PLAYERS);
  const next = { amount: 1 };
  // warm-up
  await bidPhase(players, itemId, next, RATE, sleep(3_000));

  const results = [summary('quiet', await bidPhase(players, itemId, next, RATE, sleep(QUIET_S * 1000)))];
  const file = path.join(tmp, 'backup.zip');
  let backupMs = 0;
  // the server's own way of taking its scheduled backup: a child process at the lowest priority
  const began = nowMs();
  const backup = backupInChildProcess(dataDir)(file).then(() => {
    backupMs = nowMs() - began;
  });
  results.push(summary('during backup', await bidPhase(players, itemId, next, RATE, backup)));
  await backup;
  results.push(summary('quiet again', await bidPhase(players, itemId, next, RATE, sleep(QUIET_S * 1000))));
  const quietP99 = Math.max(results[0].p99, results[2].p99);
  const report = {
    kingdom: { governors: GOVERNORS, scans: SCANS, databaseMB: +(dbBytes / 2 ** 20).toFixed(1) },
    backup: { seconds: +(backupMs / 1000).toFixed(1), zipMB: +(fs.statSync(file).size / 2 ** 20).toFixed(1) },
    rate: RATE,
    phases: results,
    p99DuringVsQuiet: +(results[1].p99 / quietP99).toFixed(2),
    target: 'p99 during the backup within 20% of quiet (ratio ≤ 1.2)',
  };
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  for (const p of players) p.socket.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
