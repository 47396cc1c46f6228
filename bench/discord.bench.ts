/**
 * npm run bench:discord — what Discord costs Kingdom.
 *
 * A kingdom of 5,000 governors (two scans a fortnight apart) in a temporary DATA_DIR, a server over it
 * in its own process as `npm start` runs it, pointed (DISCORD_API_URL) at a stand-in Discord in this
 * process that takes follow-ups and webhook posts. Measured from outside, over HTTP:
 * - the interactions endpoint: the first answer to signed `/stats governor:` (deferred: the card is
 *   drawn after it and sent by follow-up), `/top stat: count:` and the governor autocomplete, one at a
 *   time, p50 / p99 in ms (target p99 < 300 ms);
 * - bids at 100 a second from 20 players while a new 10-second item starts every 500 ms (so bidding
 *   started, sold and no buyer keep being announced): with Discord off (no webhooks), and with every
 *   announcement on and the stand-in answering 429 to every other post, taking turns three times
 *   10 s each; bid p50 / p99 of each condition pooled, and the ratio of p99 on to off (target ≤ 1.1).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { openDatabase } from '../server/db/open';
import { createSeason } from '../server/kvk/seasons';
import { PreviewStore } from '../server/previews/store';
import { scanFileOf } from '../server/scans/read';
import { ScanImports } from '../server/scans/imports';
import { nowMs, quantile } from './common';
import { account, bidders, bidPhase, json, killLiveChildren, signIn, startServer, summary, type LiveServer } from './live-server';

const GOVERNORS = 5_000;
const ASKS = 200;
const PLAYERS = 20;
const BID_RATE = 100;
const PHASE_S = 10;
const ROUNDS = 3;
const ITEM_EVERY_MS = 500;
const APPLICATION_ID = '123456789012345678';
const log = (line: string) => process.stderr.write(`${line}\n`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-bench-discord-'));
const dataDir = path.join(tmp, 'data');
process.on('exit', () => {
  killLiveChildren();
  fs.rmSync(tmp, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

/** The stand-in: 200 to everything, or (while `limiting`) 429 with a short retry_after to every other webhook post. */
class StandIn {
  limiting = false;
  posts = 0;
  limited = 0;
  followUps = 0;
  readonly keys = crypto.generateKeyPairSync('ed25519');
  readonly publicKey = this.keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
  origin = '';
  private readonly server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const url = request.url ?? '';
      const answer = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (url.includes('/messages/@original')) {
        this.followUps += 1;
        return answer(200, { id: '1' });
      }
      this.posts += 1;
      if (this.limiting && this.posts % 2 === 0) {
        this.limited += 1;
        return answer(429, { message: 'You are being rate limited.', retry_after: 0.2, global: false });
      }
      return answer(200, { id: String(this.posts) });
    });
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  webhook(kind: string, i: number): string {
    return `${this.origin}/api/webhooks/12345678901234567${i}/${kind.padEnd(30, 'x')}`;
  }

  sign(body: string): Record<string, string> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    return { 'x-signature-ed25519': crypto.sign(null, Buffer.from(timestamp + body), this.keys.privateKey).toString('hex'), 'x-signature-timestamp': timestamp };
  }
}

/** Two scans of GOVERNORS governors a fortnight apart, and a KvK season running over them. */
async function buildKingdom(): Promise<number[]> {
  const db = await openDatabase(dataDir);
  const now = Date.UTC(2026, 9, 16, 9);
  const sqlite = new SQLite(path.join(dataDir, 'kingdom.db'));
  const adminId = Number(sqlite.prepare("insert into users (email, username, playerid, password_hash, rank, created_at) values ('seed@bench.test', 'seed', '1', 'x', 'admin', ?)").run(now).lastInsertRowid);
  sqlite.close();
  const ids = Array.from({ length: GOVERNORS }, (_, i) => 60_000_000 + i);
  const imports = new ScanImports(db, () => now, new PreviewStore(db, () => now));
  const scans: number[] = [];
  for (const [n, growth] of [1, 1.1].entries()) {
    const rows = ids.map((id, i) => {
      const power = Math.round((5_000_000 + ((i * 7919) % 120_000_000)) * growth);
      return [id, `Governor ${i} ${['Aurelia', 'Borin', 'Cato', 'Dara', 'Eskil'][i % 5]}`, `K${i % 40}`, 3328, power, Math.round(power * 2.5), Math.round(power / 50), Math.round(power / 10), Math.round(power / 40)].join(',');
    });
    const csv = ['ID,Name,Alliance,Kingdom,Power,Killpoints,Deads,T4 Kills,T5 Kills', ...rows].join('\n') + '\n';
    const preview = await imports.preview({ file: await scanFileOf(Buffer.from(csv)), fileName: `bench-${n}.csv`, takenAt: Date.UTC(2026, 9, 1 + 14 * n, 12), actorId: adminId });
    scans.push((await imports.apply(adminId, preview.token, { takenAt: null, skipInvalid: false })).id);
  }
  await createSeason(
    db,
    { name: 'Bench KvK', startScanId: scans[0], endScanId: null, weights: { t4Kills: 10, t5Kills: 20, deads: 15 }, brackets: [{ minPower: 0, kills: 2_000_000, deads: 300_000 }], windows: [] },
    { id: adminId, name: 'seed' },
    now,
  );
  await db.destroy();
  return ids;
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: +quantile(sorted, 0.5).toFixed(1), p99: +quantile(sorted, 0.99).toFixed(1), max: +(sorted.at(-1) ?? 0).toFixed(1) };
};

let interactionId = 1_000_000_000_000_000;
/** One signed interaction, as Discord posts it; its first answer's time (ms) and type. */
async function interact(server: LiveServer, discord: StandIn, payload: Record<string, unknown>): Promise<{ ms: number; type: number }> {
  const raw = JSON.stringify({ id: String(interactionId++), application_id: APPLICATION_ID, token: `tok${interactionId}`, version: 1, locale: 'en-US', member: { user: { id: '523456789012345678', username: 'x' } }, ...payload });
  const began = nowMs();
  const response = await fetch(`${server.http}/discord/interactions`, { method: 'POST', headers: { 'content-type': 'application/json', ...discord.sign(raw) }, body: raw });
  const answer = (await response.json()) as { type: number; error?: string };
  const ms = nowMs() - began;
  if (response.status !== 200) throw new Error(`interaction: ${response.status} ${answer.error}`);
  return { ms, type: answer.type };
}
const command = (name: string, options: Record<string, unknown>[], type = 2) => ({ type, data: { id: '1', name, type: 1, options } });

/** Every webhook kind set (every announcement on), or none (Discord off for announcements). */
async function announcements(server: LiveServer, discord: StandIn, admin: string, on: boolean): Promise<void> {
  const kinds = ['auctions', 'sales', 'scans', 'points', 'kvk'];
  const webhooks = Object.fromEntries(kinds.map((kind, i) => [kind, on ? discord.webhook(kind, i) : null]));
  await json(server.http, 'PUT', '/discord/settings', { applicationId: APPLICATION_ID, publicKey: discord.publicKey, guildId: '223456789012345678', language: 'en', webhooks }, admin);
}

/** A new 10-second item every ITEM_EVERY_MS until `until` resolves (each starts, then is sold or has no buyer). */
async function itemsStarting(server: LiveServer, admin: string, until: Promise<unknown>): Promise<number> {
  let done = false;
  void until.then(() => (done = true));
  let made = 0;
  while (!done) {
    await json(server.http, 'POST', '/store/items', { itemName: `Herald ${made}`, start_price: 1, minIncrement: 1, duration: 10, extendWindow: 0, maxExtensions: 0 }, admin);
    made += 1;
    await sleep(ITEM_EVERY_MS);
  }
  return made;
}

async function main(): Promise<void> {
  const discord = new StandIn();
  await discord.start();
  log(`seeding ${GOVERNORS} governors …`);
  const ids = await buildKingdom();
  const server = await startServer(dataDir, { DISCORD_API_URL: `${discord.origin}/api/v10` });
  const made = await account(server.http, 'discordadmin');
  const sqlite = new SQLite(path.join(dataDir, 'kingdom.db'));
  sqlite.prepare("update users set rank = 'admin' where username = ?").run(made.username);
  sqlite.close();
  const admin = await signIn(server.http, `${made.username}@bench.test`);
  await announcements(server, discord, admin, false);

  // the asker: this Discord user linked to the admin (who may read every governor and /top)
  const linkRaw = JSON.stringify({ id: String(interactionId++), application_id: APPLICATION_ID, token: 't', version: 1, type: 2, locale: 'en-US', data: { id: '1', name: 'link', type: 1 }, member: { user: { id: '523456789012345678', username: 'x' } } });
  const linkAnswer = (await (await fetch(`${server.http}/discord/interactions`, { method: 'POST', headers: { 'content-type': 'application/json', ...discord.sign(linkRaw) }, body: linkRaw })).json()) as { data: { content: string } };
  const code = /discord=([\w-]+)/.exec(linkAnswer.data.content)?.[1] ?? '';
  await json(server.http, 'POST', '/discord/link', { code }, admin);

  // warm-up: the first card of the process starts its drawing worker; the first queries fill caches
  for (let i = 0; i < 10; i++) {
    await interact(server, discord, command('stats', [{ name: 'governor', type: 3, value: String(ids[i]) }]));
    await interact(server, discord, command('top', [{ name: 'stat', type: 3, value: 'power' }]));
  }
  await sleep(2_000);

  const statStats = ['power', 'killpoints', 'deads', 't4Kills', 't5Kills'];
  const asked = { stats: [] as number[], top: [] as number[], autocomplete: [] as number[] };
  for (let i = 0; i < ASKS; i++) {
    const s = await interact(server, discord, command('stats', [{ name: 'governor', type: 3, value: String(ids[(i * 2_477) % GOVERNORS]) }]));
    if (s.type !== 5) throw new Error(`/stats answered type ${s.type}, not deferred`);
    asked.stats.push(s.ms);
    const t = await interact(server, discord, command('top', [{ name: 'stat', type: 3, value: statStats[i % 5] }, { name: 'count', type: 4, value: i % 2 ? 25 : 10 }, ...(i % 3 === 0 ? [{ name: 'alliance', type: 3, value: `K${i % 40}` }] : [])]));
    if (t.type !== 4) throw new Error(`/top answered type ${t.type}`);
    asked.top.push(t.ms);
    const a = await interact(server, discord, command('stats', [{ name: 'governor', type: 3, value: ['Aur', '6000', 'Governor 12', 'eskil'][i % 4], focused: true }], 4));
    asked.autocomplete.push(a.ms);
    // one every 50 ms: a busy guild, not a flood
    await sleep(50);
  }
  const interactions = { stats: stats(asked.stats), top: stats(asked.top), autocomplete: stats(asked.autocomplete), followUps: discord.followUps };
  log(JSON.stringify(interactions));

  // bids with Discord off, with every announcement on and 429 half the time, and off again
  const { players, itemId } = await bidders(server, admin, PLAYERS);
  const next = { amount: 1 };
  await bidPhase(players, itemId, next, BID_RATE, sleep(3_000)); // warm-up
  const phase = async () => {
    const until = sleep(PHASE_S * 1000);
    const [run, items] = await Promise.all([bidPhase(players, itemId, next, BID_RATE, until), itemsStarting(server, admin, until)]);
    return { run, items };
  };
  // the two conditions take turns, ROUNDS times each, so a neighbour's load falls on both alike
  const pooled = { off: { latencies: [] as number[], unanswered: 0, items: 0 }, on: { latencies: [] as number[], unanswered: 0, items: 0 } };
  const perPhase: { condition: string; p50: number; p99: number }[] = [];
  let postsWhileOn = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const on of [false, true]) {
      await announcements(server, discord, admin, on);
      discord.limiting = on;
      const postsBefore = discord.posts;
      const { run, items } = await phase();
      if (on) postsWhileOn += discord.posts - postsBefore;
      const into = on ? pooled.on : pooled.off;
      into.latencies.push(...run.latencies);
      into.unanswered += run.unanswered;
      into.items += items;
      const s = summary(on ? 'on' : 'off', run);
      perPhase.push({ condition: s.phase, p50: s.p50, p99: s.p99 });
    }
  }
  await announcements(server, discord, admin, false);
  const phases = [
    { ...summary('Discord off', { latencies: pooled.off.latencies, unanswered: pooled.off.unanswered }), itemsStarted: pooled.off.items },
    { ...summary('every announcement on, 429 to every other post', { latencies: pooled.on.latencies, unanswered: pooled.on.unanswered }), itemsStarted: pooled.on.items },
  ];
  const duringOn = { posts: postsWhileOn, answered429: discord.limited };
  for (const p of players) p.socket.close();

  const report = {
    machine: { cpus: os.cpus().length, loadAverage: os.loadavg().map((l) => +l.toFixed(2)) },
    governors: GOVERNORS,
    interactionsMs: interactions,
    bids: { rate: BID_RATE, phases, perPhase, discordWhileOn: duringOn, p99OnVsOff: +(phases[1].p99 / phases[0].p99).toFixed(2) },
    targets: 'interaction p99 < 300 ms; bid p99 with every announcement on and 429 half the time within 10% of Discord off (ratio ≤ 1.1)',
  };
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
