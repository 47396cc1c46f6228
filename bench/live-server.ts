/**
 * A server under load from this process, for the benchmarks that measure what some work costs the
 * players (a backup, cards being drawn): the server in its own process (as `npm start` runs it) over
 * a DATA_DIR, accounts made through the API, and players bidding at a steady rate on one item.
 * Bid latency is CREATE_BID → the bidder's own BID_CREATED (or its ERROR).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { freePort } from '../tests/server/processes';
import { nowMs, quantile } from './common';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PASSWORD = 'Bench!pass1';

const children: ChildProcess[] = [];
/** Kills every child this module started (call on exit). */
export function killLiveChildren(): void {
  for (const child of children) child.kill('SIGKILL');
}

/** A child process that is killed with the others on exit. */
export function tracked<T extends ChildProcess>(child: T): T {
  children.push(child);
  return child;
}

export { freePort };

export interface LiveServer {
  http: string;
  auction: string;
}

/** `npm start`'s server over `dataDir` (SQLite) on free ports, once it answers. */
export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<LiveServer> {
  const [port, auctionPort, userPort] = [await freePort(), await freePort(), await freePort()];
  tracked(
    spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), AUCTION_PORT: String(auctionPort), USER_PORT: String(userPort), DATA_DIR: dataDir, DATABASE_URL: '', BACKUP_DIR: '', LOG_LEVEL: 'warn', SIGNUPS_PER_HOUR: '1000', ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    }),
  );
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

export async function json(http: string, method: string, url: string, body?: unknown, token?: string): Promise<Record<string, unknown>> {
  const response = await fetch(http + url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** A new account (signed up and signed in): the kingdom's first is its admin. */
export async function account(http: string, name: string): Promise<{ username: string; token: string }> {
  const username = `${name}${Math.random().toString(36).slice(2, 8)}`;
  const email = `${username}@bench.test`;
  await json(http, 'POST', '/auth/register', { email, password: PASSWORD, username, playerid: String(Math.floor(1e7 + Math.random() * 8e7)) });
  return { username, token: await signIn(http, email) };
}

export async function signIn(http: string, email: string): Promise<string> {
  const login = await json(http, 'POST', '/auth/login', { email, password: PASSWORD });
  return (login.token as { access_token: string }).access_token;
}

export interface Player {
  username: string;
  socket: WebSocket;
}

/** An authenticated auction socket, once its HISTORY came. */
export async function connect(url: string, token: string): Promise<WebSocket> {
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

/**
 * `count` players with points to spend, connected, and one live item for them to bid on (an hour
 * long, no extensions). `admin`: the kingdom's admin token.
 */
export async function bidders(server: LiveServer, admin: string, count: number): Promise<{ players: Player[]; itemId: number }> {
  const players: Player[] = [];
  for (let i = 0; i < count; i++) {
    const p = await account(server.http, `p${i}`);
    await json(server.http, 'POST', '/points/transactions', { username: p.username, delta: 900_000_000, reason: 'bench' }, admin);
    players.push({ username: p.username, socket: await connect(server.auction, p.token) });
  }
  const item = (await json(server.http, 'POST', '/store/items', { itemName: 'Bench', start_price: 1, minIncrement: 1, duration: 3_600, extendWindow: 0, maxExtensions: 0 }, admin)).item as { itemId: number };
  return { players, itemId: item.itemId };
}

export interface BidRun {
  latencies: number[];
  unanswered: number;
}

/** Bids at `rate` a second round the players until `until` resolves; answers each bid's latency (ms). */
export async function bidPhase(players: Player[], itemId: number, next: { amount: number }, rate: number, until: Promise<unknown>): Promise<BidRun> {
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
    // keep to the schedule: bid n goes at begun + n / rate seconds
    const due = begun + (i * 1000) / rate;
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

/** p50 / p99 / max of a phase's bids, in ms. */
export function summary(name: string, r: BidRun) {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  return { phase: name, bids: sorted.length, unanswered: r.unanswered, p50: +quantile(sorted, 0.5).toFixed(1), p99: +quantile(sorted, 0.99).toFixed(1), max: +(sorted.at(-1) ?? 0).toFixed(1) };
}
