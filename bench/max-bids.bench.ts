/**
 * npm run bench (second part) — maximum bids in the engine, on SQLite.
 *
 * In one invocation, on one server, the same workload with and without maxima, taking turns three
 * times (so the load of the machine's neighbours falls on both alike; each condition's figures pooled):
 * - english only: 125 live items, 6 bidders each, every bid straight into the engine
 *   (AuctionEngine.createBid, the call the auction socket makes) and each outbidding the last;
 * - with maxima: 125 other items, 2 of each item's 6 bidders (a third) hold a maximum: one a max
 *   no bid reaches, the other a max it raises now and then (SET_MAX_BID), which the first answers;
 *   so each manual bid or raise is answered by an automatic bid in its transaction, and most
 *   accepted bids are automatic.
 * Requests go 64 at a time (one group commit), the next batch once the last is answered.
 * Measured: accepted bids per second (bids stored: automatic ones count, as each is a bid every
 * socket is told of) and CPU time of the process per accepted bid (the driver is in the process
 * too, the same for both). Run twice: as served (the reactions to domain events, notices among them,
 * running after the commits) and with the reactions paused (the engine's own cost). Then a proxy war: 50 players set maxima on one fresh item in the same
 * instant (one group commit): the time until the last is answered, p50/p99 of 40 wars, and the
 * write transactions they took.
 *
 * Not measured here: the latency send → last of 1,000 sockets with maxima (bench/auction.bench.ts
 * has it for english bids; its client workers bid each item's next amount and do not follow
 * automatic bids yet).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../server/app';
import { ephemeralConfig } from '../server/config';
import { createItemBody } from '../src/protocol/store';
import { quantile } from './common';

const ITEMS = 125;
const BIDDERS_PER_ITEM = 6;
const BATCH = 64;
const SECONDS = 4;
const TURNS = 3;
const WARS = 40;
const WAR_MAXIMA = 50;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-maxbench-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const log = (text: string) => process.stdout.write(`${text}\n`);

let server: RunningServer;
let db: RunningServer['db'];

let users = 0;
/** Funded players, written straight into the database (a grant each in the ledger). */
async function players(n: number, points: number): Promise<number[]> {
  const ids: number[] = [];
  const now = Date.now();
  for (let i = 0; i < n; i++) {
    users += 1;
    const { id } = await db
      .insertInto('users')
      .values({ email: `bench${users}@example.com`, username: `bench${users}`, playerid: String(users), password_hash: 'x', created_at: now, balance: points })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (points > 0) await db.insertInto('points_transactions').values({ user_id: id, delta: points, kind: 'grant', reason: 'bench', actor_id: null, balance_after: points, created_at: now }).execute();
    ids.push(id);
  }
  return ids;
}

async function liveItems(n: number, name: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const body = createItemBody.parse({ itemName: `${name} ${i}`, type: 'auction', start_price: 1, minIncrement: 1, duration: 24 * 3600, extendWindow: 0, maxExtensions: 0 });
    ids.push((await server.auction.items.create(body, 1)).itemId as number);
  }
  await server.auction.tick();
  return ids;
}

let request = 0;
const rid = () => `b${++request}`;

interface Item {
  id: number;
  bidders: number[];
  /** The max raiser (with maxima): its turn raises its max instead of bidding. */
  raiser?: number;
  turn: number;
}

async function setUp(withMaxima: boolean): Promise<Item[]> {
  const ids = await liveItems(ITEMS, withMaxima ? 'Max' : 'English');
  const items: Item[] = [];
  for (const id of ids) {
    const bidders = await players(BIDDERS_PER_ITEM, 1_000_000_000);
    const item: Item = { id, bidders, turn: 0 };
    if (withMaxima) {
      // one max no bid reaches, one that is raised now and then
      await server.auction.setMaxBid({ id: bidders[0] }, { itemId: id, max: 900_000_000, requestId: rid() });
      item.raiser = bidders[1];
    }
    items.push(item);
  }
  await server.auction.idle();
  return items;
}

const bidCount = async () => Number((await db.selectFrom('bids').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

/** Requests for SECONDS, BATCH at a time: accepted bids/s and CPU ms per accepted bid. */
async function run(items: Item[]): Promise<{ bids: number; seconds: number; cpuMs: number; errors: Record<string, number> }> {
  const errors: Record<string, number> = {};
  const before = await bidCount();
  const cpu = process.cpuUsage();
  const start = performance.now();
  let cursor = 0;
  while (performance.now() - start < SECONDS * 1000) {
    const amounts = new Map((await db.selectFrom('items').select(['id', 'amount']).where('id', 'in', items.map((i) => i.id)).execute()).map((r) => [r.id, r.amount]));
    const sent: Promise<unknown>[] = [];
    for (let k = 0; k < BATCH; k++) {
      const item = items[cursor++ % items.length];
      const amount = (amounts.get(item.id) ?? 1) + 1;
      amounts.set(item.id, amount);
      const who = item.bidders[item.raiser === undefined ? item.turn % BIDDERS_PER_ITEM : 1 + (item.turn % (BIDDERS_PER_ITEM - 1))];
      item.turn += 1;
      const answer =
        who === item.raiser
          ? server.auction.setMaxBid({ id: who }, { itemId: item.id, max: amount + 3, requestId: rid() })
          : server.auction.createBid({ id: who }, { itemId: item.id, amount, requestId: rid() });
      sent.push(
        answer.then((a) => {
          if (a?.type === 'ERROR') errors[a.error_type] = (errors[a.error_type] ?? 0) + 1;
        }),
      );
    }
    await Promise.all(sent);
  }
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const bids = (await bidCount()) - before;
  return { bids, seconds, cpuMs: (used.user + used.system) / 1000, errors };
}

async function measure(paused: boolean): Promise<void> {
  server = await startServer(ephemeralConfig(path.join(dir, paused ? 'paused' : 'live'), { loginRateLimit: { perEmail: 100, perAddress: 100_000, windowMs: 60_000 }, ...(paused ? { reactions: { pollMs: 2000, keepDays: 30, paused: true } } : {}) }));
  db = server.db;
  users = 0;
  await players(1, 0);
  log(`setting up ${ITEMS} items × ${BIDDERS_PER_ITEM} bidders twice (english only, and with a third of the bidders holding maxima)…`);
  const english = await setUp(false);
  const maxima = await setUp(true);
  const pooled = { english: { bids: 0, seconds: 0, cpuMs: 0 }, maxima: { bids: 0, seconds: 0, cpuMs: 0 } };
  for (let t = 0; t < TURNS; t++) {
    for (const [name, items] of [['english', english], ['maxima', maxima]] as const) {
      const r = await run(items);
      pooled[name].bids += r.bids;
      pooled[name].seconds += r.seconds;
      pooled[name].cpuMs += r.cpuMs;
      log(`  turn ${t + 1} ${name}: ${(r.bids / r.seconds).toFixed(0)} accepted bids/s, ${(r.cpuMs / r.bids).toFixed(3)} ms CPU per bid, errors ${JSON.stringify(r.errors)}`);
    }
  }
  const autoShare = Number((await db.selectFrom('bids as b').innerJoin('items as i', 'i.id', 'b.item_id').select((eb) => eb.fn.countAll<number>().as('n')).where('b.auto', '=', 1).executeTakeFirstOrThrow()).n);
  const maxBids = Number((await db.selectFrom('bids').select((eb) => eb.fn.countAll<number>().as('n')).where('item_id', 'in', maxima.map((i) => i.id)).executeTakeFirstOrThrow()).n);

  // the proxy war: 50 maxima on one item at once
  const warPlayers = await players(WAR_MAXIMA, 1_000_000);
  const warTimes: number[] = [];
  let warTransactions = 0;
  for (let w = 0; w < WARS; w++) {
    const [itemId] = await liveItems(1, `War ${w}`);
    const commits = server.auction.bidCommits.transactions;
    const start = performance.now();
    await Promise.all(warPlayers.map((id, i) => server.auction.setMaxBid({ id }, { itemId, max: 1_000 + ((i * 7919 + w * 104_729) % 50_000), requestId: rid() })));
    warTimes.push(performance.now() - start);
    warTransactions += server.auction.bidCommits.transactions - commits;
  }
  warTimes.sort((a, b) => a - b);

  const e = pooled.english;
  const m = pooled.maxima;
  const rate = (p: typeof e) => p.bids / p.seconds;
  const cpu = (p: typeof e) => p.cpuMs / p.bids;
  log('');
  log(`maximum bids (SQLite, engine in process, no sockets; pooled over 3 turns of 4 s each${paused ? ', reactions paused' : ''}):`);
  log(`  english only:  ${rate(e).toFixed(0)} accepted bids/s, ${cpu(e).toFixed(3)} ms CPU per accepted bid`);
  log(`  with maxima:   ${rate(m).toFixed(0)} accepted bids/s, ${cpu(m).toFixed(3)} ms CPU per accepted bid (${((100 * autoShare) / Math.max(1, maxBids)).toFixed(0)}% of them automatic)`);
  log(`  maxima/english: bids/s ${(rate(m) / rate(e)).toFixed(2)}×, CPU per bid ${(cpu(m) / cpu(e)).toFixed(2)}×`);
  log(`  proxy war, ${WAR_MAXIMA} maxima set at once on one item: p50 ${quantile(warTimes, 0.5).toFixed(1)} ms, p99 ${quantile(warTimes, 0.99).toFixed(1)} ms over ${WARS} wars, ${(warTransactions / WARS).toFixed(1)} write transactions a war`);


  await server.close();
}

for (const paused of [false, true]) {
  log(paused ? '\n— the engine\'s own cost: reactions to domain events paused (REACTIONS_PAUSED) —' : '— as served: reactions (notices) running —');
  await measure(paused);
}
process.exit(0);
