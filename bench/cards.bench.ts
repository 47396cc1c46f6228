/**
 * npm run bench:cards — what the stat cards cost.
 *
 * The card kingdom (scripts/cards-kingdom.ts: the fixture scans' forty governors, the longest names
 * in every script, a running KvK season, sales) in a temporary DATA_DIR, and a server over it in its
 * own process, as `npm start` runs it. Every figure is measured from outside, over HTTP:
 * - per kind (governor, kvk, sale): cold = the first request of a card nobody asked for before (the
 *   data read, the worker's drawing and PNG encoding, the answer), warm = the same card asked again
 *   (cached by content), and 304 = asked again with its ETag; p50 / p95 in ms and the PNG's size;
 * - bids at 100 a second from 20 players, without cards, then with 20 new cards a second being
 *   drawn beside them, then without again: bid p50 / p99 of each phase, and the ratio of p99 with
 *   cards to p99 without (target ≤ 1.2).
 * Targets: cold p95 < 100 ms, warm p95 < 5 ms, size < 250 KB.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { openDatabase } from '../server/db/open';
import { LOCALES } from '../src/protocol/locales';
import { LONG_NAMES, seedCardKingdom } from '../scripts/cards-kingdom';
import { nowMs, quantile } from './common';
import { account, bidders, bidPhase, killLiveChildren, signIn, startServer, summary, type LiveServer } from './live-server';

const SAMPLES = 48;
const SALES = SAMPLES;
const PLAYERS = 20;
const BID_RATE = 100;
const CARD_RATE = 20;
const PHASE_S = 15;
const log = (line: string) => process.stderr.write(`${line}\n`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-bench-cards-'));
const dataDir = path.join(tmp, 'data');
process.on('exit', () => {
  killLiveChildren();
  fs.rmSync(tmp, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

/** The card kingdom, and SALES more sold items (each sale card is then drawn for the first time). */
async function buildKingdom(): Promise<{ seasonId: number; itemIds: number[] }> {
  const db = await openDatabase(dataDir);
  const now = Date.UTC(2026, 9, 16, 9);
  const kingdom = await seedCardKingdom(db, now);
  await db.destroy();
  const sqlite = new SQLite(path.join(dataDir, 'kingdom.db'));
  const item = sqlite.prepare('select * from items where id = ?').get(kingdom.itemId) as Record<string, unknown>;
  const { id: _id, ...columns } = item;
  const names = Object.keys(columns);
  const insertItem = sqlite.prepare(`insert into items (${names.join(', ')}) values (${names.map((n) => `@${n}`).join(', ')})`);
  const insertSale = sqlite.prepare('insert into sales (item_id, user_id, amount, at) values (?, ?, ?, ?)');
  const itemIds = [kingdom.itemId];
  sqlite.transaction(() => {
    for (let i = 1; i < SALES; i++) {
      const amount = 1_000 + i * 137;
      const id = Number(insertItem.run({ ...columns, name: `${String(columns.name)} #${i}`, amount }).lastInsertRowid);
      insertSale.run(id, kingdom.playerId, amount, now - 3_600_000 + i);
      itemIds.push(id);
    }
  })();
  sqlite.close();
  return { seasonId: kingdom.seasonId, itemIds };
}

/** The kingdom's admin: a new account made admin in the database (the seeded kingdom has its own users). */
async function admin(server: LiveServer): Promise<string> {
  const made = await account(server.http, 'cardadmin');
  const sqlite = new SQLite(path.join(dataDir, 'kingdom.db'));
  sqlite.prepare("update users set rank = 'admin' where username = ?").run(made.username);
  sqlite.close();
  return signIn(server.http, `${made.username}@bench.test`);
}

interface Got {
  ms: number;
  status: number;
  bytes: number;
  etag: string | null;
}

async function get(server: LiveServer, url: string, token: string, etag?: string): Promise<Got> {
  const began = nowMs();
  const response = await fetch(server.http + url, { headers: { authorization: `Bearer ${token}`, ...(etag ? { 'if-none-match': etag } : {}) } });
  const body = new Uint8Array(await response.arrayBuffer());
  return { ms: nowMs() - began, status: response.status, bytes: body.length, etag: response.headers.get('etag') };
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: +quantile(sorted, 0.5).toFixed(1), p95: +quantile(sorted, 0.95).toFixed(1), max: +(sorted.at(-1) ?? 0).toFixed(1) };
};

/** Cold, warm and 304 figures of one kind of card over `urls` (each new to the server). */
async function measureKind(server: LiveServer, token: string, urls: string[]) {
  const cold: number[] = [];
  const warm: number[] = [];
  const notModified: number[] = [];
  const sizes: number[] = [];
  for (const url of urls) {
    const first = await get(server, url, token);
    if (first.status !== 200) throw new Error(`${url}: ${first.status}`);
    cold.push(first.ms);
    sizes.push(first.bytes);
    const again = await get(server, url, token);
    if (again.status !== 200 || again.bytes !== first.bytes) throw new Error(`${url} again: ${again.status}`);
    warm.push(again.ms);
    const conditional = await get(server, url, token, first.etag ?? undefined);
    if (conditional.status !== 304) throw new Error(`${url} with its ETag: ${conditional.status}`);
    notModified.push(conditional.ms);
  }
  const kb = [...sizes].sort((a, b) => a - b);
  return { cards: urls.length, coldMs: stats(cold), warmMs: stats(warm), notModifiedMs: stats(notModified), sizeKB: { p50: +(quantile(kb, 0.5) / 1024).toFixed(1), max: +((kb.at(-1) ?? 0) / 1024).toFixed(1) } };
}

const THEMES = ['light', 'dark'] as const;
const look = (i: number, theme = THEMES[i % 2]) => `lang=${LOCALES[Math.floor(i / 2) % LOCALES.length]}&theme=${theme}`;
const GOVERNORS = Array.from({ length: 40 }, (_, i) => 51_000_001 + i);

async function main(): Promise<void> {
  const { seasonId, itemIds } = await buildKingdom();
  const server = await startServer(dataDir);
  const token = await admin(server);

  // the worker's start: the first card of the process (the worker thread, the fonts) and the first in each language
  const first = await get(server, `/cards/governor/${LONG_NAMES.latin}.png?lang=en&theme=light`, token);
  const firstPerLanguage: number[] = [];
  for (const lang of LOCALES) firstPerLanguage.push((await get(server, `/cards/governor/${LONG_NAMES.latin}.png?lang=${lang}&theme=dark`, token)).ms);
  log(`first card of the process: ${first.ms.toFixed(0)} ms; first in each language: ${firstPerLanguage.map((ms) => ms.toFixed(0)).join(', ')} ms`);

  // cold, warm, 304 per kind; governor cards in the light theme here, dark ones are the load below
  const governorUrls = Array.from({ length: SAMPLES }, (_, i) => `/cards/governor/${GOVERNORS[(i + 1) % GOVERNORS.length]}.png?${look(i * 2, 'light')}${i >= GOVERNORS.length - 1 ? '&scan=1' : ''}`);
  const kvkUrls = Array.from({ length: SAMPLES }, (_, i) => {
    const variant = [`top=10`, `top=25`, `top=10&window=Pass%204`, `top=10&alliance=K1`][i % 4];
    return `/cards/kvk/${seasonId}.png?${variant}&${look(Math.floor(i / 4))}`;
  });
  const saleUrls = itemIds.map((id, i) => `/cards/items/${id}.png?${look(i)}`);
  const kinds = { governor: await measureKind(server, token, governorUrls), kvk: await measureKind(server, token, kvkUrls), sale: await measureKind(server, token, saleUrls) };
  // the baseline of a warm card: the cheapest signed-in GET there is (one settings row), asked as often
  const baseline: number[] = [];
  for (let i = 0; i < SAMPLES * 3; i++) baseline.push((await get(server, '/kingdom/settings', token)).ms);
  log(JSON.stringify(kinds));

  // bids with and without cards being drawn beside them
  const { players, itemId } = await bidders(server, token, PLAYERS);
  const next = { amount: 1 };
  await bidPhase(players, itemId, next, BID_RATE, sleep(3_000)); // warm-up
  const phases = [summary('without cards', await bidPhase(players, itemId, next, BID_RATE, sleep(PHASE_S * 1000)))];

  // 20 new cards a second (governor cards, dark: none drawn before), not waiting for each other
  const loadUrls = GOVERNORS.flatMap((id) => ['', '&scan=1'].flatMap((scan) => LOCALES.map((lang) => `/cards/governor/${id}.png?lang=${lang}&theme=dark${scan}`)));
  const cardAnswers: Got[] = [];
  const inFlight: Promise<void>[] = [];
  let drawing = true;
  const cardLoad = (async () => {
    const begun = nowMs();
    for (let i = 0; drawing && i < loadUrls.length; i++) {
      const wait = begun + (i * 1000) / CARD_RATE - nowMs();
      if (wait > 0) await sleep(wait);
      inFlight.push(get(server, loadUrls[i], token).then((got) => void cardAnswers.push(got)));
    }
  })();
  const withCards = await bidPhase(players, itemId, next, BID_RATE, sleep(PHASE_S * 1000));
  drawing = false;
  await cardLoad;
  await Promise.all(inFlight);
  phases.push(summary(`with ${CARD_RATE} cards/s`, withCards));
  phases.push(summary('without cards again', await bidPhase(players, itemId, next, BID_RATE, sleep(PHASE_S * 1000))));
  for (const p of players) p.socket.close();

  const quietP99 = Math.max(phases[0].p99, phases[2].p99);
  const drawn = cardAnswers.filter((a) => a.status === 200);
  const report = {
    machine: { cpus: os.cpus().length, loadAverage: os.loadavg().map((l) => +l.toFixed(2)) },
    firstCardOfProcessMs: +first.ms.toFixed(1),
    firstCardPerLanguageMs: Object.fromEntries(LOCALES.map((lang, i) => [lang, +firstPerLanguage[i].toFixed(1)])),
    kinds,
    signedInGetMs: stats(baseline),
    bids: {
      rate: BID_RATE,
      phases,
      cardsDuringBids: { asked: cardAnswers.length, drawn: drawn.length, busy503: cardAnswers.filter((a) => a.status === 503).length, ms: stats(drawn.map((a) => a.ms)) },
      p99WithCardsVsWithout: +(phases[1].p99 / quietP99).toFixed(2),
    },
    targets: 'cold p95 < 100 ms, warm p95 < 5 ms, size < 250 KB; bid p99 with cards within 20% of without (ratio ≤ 1.2)',
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
