/**
 * npm run bench:backup — what a backup costs the players.
 *
 * A kingdom of 5,000 governors × 100 scans (500,000 governor rows with every stat) in a temporary
 * DATA_DIR, a server over it (its own process, as `npm start` runs it) and 20 players bidding on
 * one live item at 100 bids/s in all (5 a second each, within the accounts' frame budget), from this
 * process. Bid latency is CREATE_BID → the bidder's own BID_CREATED (or its ERROR).
 *
 * Phases: quiet (QUIET_S), then `npm run admin -- backup FILE` (its own process, as the server's
 * scheduled backup runs) with the same bids going on until it ends, then quiet again. Reports the
 * backup's time and size and the bid p50/p99 of each phase; target: p99 during the backup within
 * 20% of quiet. `-- --scans N` for a smaller kingdom.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { WebSocket } from 'ws';
import { openDatabase } from '../server/db/open';
import { nowMs, quantile } from './common';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const GOVERNORS = 5_000;
const scansAt = process.argv.indexOf('--scans');
const SCANS = scansAt >= 0 ? Number(process.argv[scansAt + 1]) : 100;
const PLAYERS = 20;
const RATE = 100;
const QUIET_S = 15;
const PASSWORD = 'Bench!pass1';
const log = (line: string) => process.stderr.write(`${line}\n`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-bench-backup-'));
const dataDir = path.join(tmp, 'data');
const children: ChildProcess[] = [];
const cleanup = () => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
};
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

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

async function startServer(): Promise<{ http: string; auction: string }> {
  const [port, auctionPort, userPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), AUCTION_PORT: String(auctionPort), USER_PORT: String(userPort), DATA_DIR: dataDir, DATABASE_URL: '', BACKUP_DIR: '', LOG_LEVEL: 'warn', SIGNUPS_PER_HOUR: '1000' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  const http = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${http}/openapi.json`)).ok) return { http, auction: `ws://127.0.0.1:${auctionPort}` };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('the server did not start within 30 s');
}

async function json(http: string, method: string, url: string, body?: unknown, token?: string): Promise<Record<string, unknown>> {
  const response = await fetch(http + url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function account(http: string, name: string): Promise<{ username: string; token: string }> {
  const username = `${name}${Math.random().toString(36).slice(2, 8)}`;
  const email = `${username}@bench.test`;
  await json(http, 'POST', '/auth/register', { email, password: PASSWORD, username, playerid: String(Math.floor(1e7 + Math.random() * 8e7)) });
  const login = await json(http, 'POST', '/auth/login', { email, password: PASSWORD });
  return { username, token: (login.token as { access_token: string }).access_token };
}

interface Player {
  username: string;
  socket: WebSocket;
}

async function connect(url: string, token: string): Promise<WebSocket> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'AUTHENTICATION', access_token: `Bearer ${token}` }));
  await new Promise<void>((resolve) => {
    const onMessage = (data: Buffer) => {
      if ((JSON.parse(data.toString()) as { type: string }).type === 'HISTORY') {
        socket.off('message', onMessage);
        resolve();
      }
    };
    socket.on('message', onMessage);
  });
  return socket;
}

/** Bids at RATE a second round the players until `until` resolves; answers each bid's latency (ms). */
async function bidPhase(players: Player[], itemId: number, next: { amount: number }, until: Promise<unknown>): Promise<{ latencies: number[]; unanswered: number }> {
  const pending = new Map<string, number>();
  const latencies: number[] = [];
  const listeners = players.map((p) => {
    const onMessage = (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as { type: string; data?: { amount?: number; username?: string; requestId?: string } };
      let key: string | null = null;
      if (frame.type === 'BID_CREATED' && frame.data?.username === p.username) key = `${p.username}:${frame.data.amount}`;
      else if (frame.type === 'ERROR' && frame.data?.requestId) key = frame.data.requestId;
      if (key === null) return;
      const sent = pending.get(key);
      if (sent === undefined) return;
      pending.delete(key);
      latencies.push(nowMs() - sent);
    };
    p.socket.on('message', onMessage);
    return () => p.socket.off('message', onMessage);
  });
  let i = 0;
  let done = false;
  void until.then(() => (done = true));
  const begun = nowMs();
  while (!done) {
    // keep to the schedule: bid n goes at begun + n / RATE seconds
    const due = begun + (i * 1000) / RATE;
    const wait = due - nowMs();
    if (wait > 0) await sleep(wait);
    const p = players[i % players.length];
    const amount = next.amount++;
    const requestId = `${p.username}:${amount}`;
    pending.set(requestId, nowMs());
    p.socket.send(JSON.stringify({ type: 'CREATE_BID', data: { itemId, amount, requestId } }));
    i += 1;
  }
  await sleep(2_000); // the last answers
  listeners.forEach((off) => off());
  return { latencies, unanswered: pending.size };
}

function summary(name: string, r: { latencies: number[]; unanswered: number }) {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  return { phase: name, bids: sorted.length, unanswered: r.unanswered, p50: +quantile(sorted, 0.5).toFixed(1), p99: +quantile(sorted, 0.99).toFixed(1), max: +(sorted.at(-1) ?? 0).toFixed(1) };
}

async function main(): Promise<void> {
  const built = nowMs();
  await buildKingdom();
  const dbBytes = fs.statSync(path.join(dataDir, 'kingdom.db')).size;
  log(`kingdom built: ${GOVERNORS} governors × ${SCANS} scans, ${(dbBytes / 2 ** 20).toFixed(0)} MB, in ${((nowMs() - built) / 1000).toFixed(1)} s`);
  const server = await startServer();
  const admin = await account(server.http, 'admin');
  const players: Player[] = [];
  for (let i = 0; i < PLAYERS; i++) {
    const p = await account(server.http, `p${i}`);
    await json(server.http, 'POST', '/points/transactions', { username: p.username, delta: 900_000_000, reason: 'bench' }, admin.token);
    players.push({ username: p.username, socket: await connect(server.auction, p.token) });
  }
  const item = (await json(server.http, 'POST', '/store/items', { itemName: 'Bench', start_price: 1, minIncrement: 1, duration: 3_600, extendWindow: 0, maxExtensions: 0 }, admin.token)).item as { itemId: number };
  const next = { amount: 1 };
  // warm-up
  await bidPhase(players, item.itemId, next, sleep(3_000));

  const results = [summary('quiet', await bidPhase(players, item.itemId, next, sleep(QUIET_S * 1000)))];
  const file = path.join(tmp, 'backup.zip');
  let backupMs = 0;
  let output = '';
  const backup = new Promise<void>((resolve, reject) => {
    const began = nowMs();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/admin.ts', 'backup', file], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', BACKUP_DIR: '' } });
    children.push(child);
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      backupMs = nowMs() - began;
      if (code === 0) resolve();
      else reject(new Error(`backup failed: ${output}`));
    });
  });
  results.push(summary('during backup', await bidPhase(players, item.itemId, next, backup)));
  await backup;
  results.push(summary('quiet again', await bidPhase(players, item.itemId, next, sleep(QUIET_S * 1000))));
  const quietP99 = Math.max(results[0].p99, results[2].p99);
  const report = {
    kingdom: { governors: GOVERNORS, scans: SCANS, databaseMB: +(dbBytes / 2 ** 20).toFixed(1) },
    backup: { seconds: +(backupMs / 1000).toFixed(1), zipMB: +(fs.statSync(file).size / 2 ** 20).toFixed(1), cli: output.trim() },
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
