/**
 * Several processes, one kingdom: three real server
 * processes on one PostgreSQL database. Runs in the server-pg project only (SQLite is one process).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StoreItem } from '../../src/protocol/store';
import type { Db } from '../../server/db/open';
import { expectBooksBalance, grant, itemBody } from './auction-helpers';
import { authedSocket, call, signedIn, startTestServer, type TestSocket } from './helpers';
import { killed, spawnServer, type Child } from './processes';
import { random } from './seed';
import { databaseUrlFor, onPostgres, openTestDatabase } from './test-database';

const LEADER_LINE = 'this process now runs the auction schedule';

interface Frame {
  type: string;
  error_type?: string;
  data?: { itemId?: number; amount?: number; username?: string; requestId?: string; balance?: number };
}

/** Every frame a socket got, in order (the TestSocket queue is for waiting; this is the record). */
function record(socket: TestSocket): Frame[] {
  const frames: Frame[] = [];
  socket.ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
  return frames;
}

const children: Child[] = [];
const sockets: TestSocket[] = [];
let db: Db | null = null;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-multi-'));
afterAll(async () => {
  for (const s of sockets) s.close();
  await Promise.all(children.map((c) => killed(c, 'SIGKILL')));
  await db?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(onPostgres)('three processes serving one kingdom', () => {
  it('every bid reaches every process in one order, bids never overspend, balances reach the user anywhere, and the schedule survives its leader being killed', { timeout: 120_000 }, async () => {
    // accounts, with cheap hashing, in-process; the processes share DATA_DIR, so its JWT secret
    const setup = await startTestServer({ dataDir, loginRateLimit: { perEmail: 100, perAddress: 1_000, windowMs: 60_000 } });
    const admin = await signedIn(setup, 'admin');
    const players = await Promise.all(Array.from({ length: 6 }, () => signedIn(setup, 'multi')));
    for (const p of players) await grant(setup, admin.token, p.username, 100_000);
    const poor = await signedIn(setup, 'poor');
    await grant(setup, admin.token, poor.username, 100);
    await setup.close();

    const env = { DATABASE_URL: (await databaseUrlFor(dataDir)) as string, LOG_LEVEL: 'info' };
    // one after the other: the first takes the scheduler's lock
    const procs: Child[] = [];
    for (let i = 0; i < 3; i++) {
      const child = await spawnServer(dataDir, env);
      children.push(child);
      procs.push(child);
    }
    await procs[0].printed(LEADER_LINE);
    expect(procs[1].output()).not.toContain(LEADER_LINE);
    expect(procs[2].output()).not.toContain(LEADER_LINE);
    db = await openTestDatabase(dataDir);

    // a watcher on every process
    const watchers = await Promise.all(procs.map((p) => authedSocket(p.auctionUrl, admin.token)));
    sockets.push(...watchers);
    for (const w of watchers) await w.nextOf('HISTORY');
    const seen = watchers.map(record);

    // items made on different processes start on every board
    const create = async (proc: Child, overrides: Record<string, unknown>) => {
      const answer = await call(proc, 'POST', '/store/items', { token: admin.token, body: itemBody({ start_price: 10, minIncrement: 1, duration: 3_600, ...overrides }) });
      expect(answer.status, answer.text).toBe(200);
      return answer.body.item as StoreItem;
    };
    const items = [await create(procs[0], { itemName: 'Made on 0' }), await create(procs[1], { itemName: 'Made on 1' }), await create(procs[2], { itemName: 'Made on 2' })];
    for (const w of watchers) for (const item of items) await w.waitFor((f) => f.type === 'BIDDING_STARTED' && (f.data as Frame['data'])?.itemId === item.itemId, 10_000);

    // ── bids through all three processes at once ──
    const bidders = await Promise.all(players.map(async (p, i) => ({ ...p, socket: await authedSocket(procs[i % 3].auctionUrl, p.token) })));
    sockets.push(...bidders.map((b) => b.socket));
    for (const b of bidders) await b.socket.nextOf('HISTORY');
    const top = new Map(items.map((i) => [i.itemId, 10]));
    let requests = 0;
    const BIDS_EACH = 20;
    await Promise.all(
      bidders.map(async (b) => {
        for (let n = 0; n < BIDS_EACH; n++) {
          const item = items[Math.floor(random() * items.length)];
          // often the same amount as a rival on another process: only one of them can win it
          const amount = (top.get(item.itemId) ?? 10) + 1 + Math.floor(random() * 3);
          top.set(item.itemId, Math.max(top.get(item.itemId) ?? 0, amount));
          const requestId = `multi-${b.username}-${n}`;
          requests += 1;
          b.socket.send({ type: 'CREATE_BID', data: { itemId: item.itemId, amount, requestId } });
          // the answer: its BID_CREATED (to everyone) or its ERROR (to the bidder)
          await b.socket.waitFor(
            (f) => (f.type === 'ERROR' && (f.data as Frame['data'])?.requestId === requestId) || (f.type === 'BID_CREATED' && (f.data as Frame['data'])?.username === b.username && (f.data as Frame['data'])?.amount === amount),
            10_000,
          );
        }
      }),
    );
    expect(requests).toBe(BIDS_EACH * bidders.length);
    const stored = await db.selectFrom('bids').select(['id', 'item_id', 'amount', 'user_id']).orderBy('id').execute();
    expect(stored.length).toBeGreaterThan(10);
    // every process's watcher heard every stored bid, each item's bids in the order they were committed
    const bidsOf = (frames: Frame[]) => frames.filter((f) => f.type === 'BID_CREATED').map((f) => `${f.data?.itemId}:${f.data?.amount}`);
    const wanted = stored.map((b) => `${b.item_id}:${b.amount}`);
    const perItem = (list: string[]) => items.map((i) => list.filter((k) => k.startsWith(`${i.itemId}:`)));
    for (const frames of seen) await expect.poll(() => bidsOf(frames).length, { timeout: 10_000 }).toBe(stored.length);
    for (const frames of seen) expect(perItem(bidsOf(frames))).toEqual(perItem(wanted));
    // serialised per item: each accepted bid beat the one before it
    for (const item of items) {
      const amounts = stored.filter((b) => b.item_id === item.itemId).map((b) => b.amount);
      expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
      expect(new Set(amounts).size).toBe(amounts.length);
      const row = await db.selectFrom('items').select(['amount', 'leader_id']).where('id', '=', item.itemId).executeTakeFirstOrThrow();
      if (amounts.length) expect(row).toEqual({ amount: amounts.at(-1), leader_id: stored.filter((b) => b.item_id === item.itemId).at(-1)?.user_id });
    }
    await expectBooksBalance(db);

    // ── one player's points, never spent twice across items and processes ──
    const poorSockets = await Promise.all([authedSocket(procs[0].auctionUrl, poor.token), authedSocket(procs[1].auctionUrl, poor.token), authedSocket(procs[2].auctionUrl, poor.token)]);
    sockets.push(...poorSockets);
    for (const s of poorSockets) await s.nextOf('HISTORY');
    for (let round = 0; round < 5; round++) {
      const pair = [await create(procs[round % 3], { itemName: `Pair ${round} a`, start_price: 80 }), await create(procs[(round + 1) % 3], { itemName: `Pair ${round} b`, start_price: 80 })];
      const ids = pair.map((item, k) => {
        const requestId = `poor-${round}-${k}`;
        poorSockets[k].send({ type: 'CREATE_BID', data: { itemId: item.itemId, amount: 80, requestId } });
        return requestId;
      });
      const answers = await Promise.all(
        ids.map((requestId, k) =>
          poorSockets[k].waitFor((f) => (f.type === 'ERROR' && (f.data as Frame['data'])?.requestId === requestId) || (f.type === 'BID_CREATED' && (f.data as Frame['data'])?.username === poor.username && (f.data as Frame['data'])?.itemId === pair[k].itemId), 10_000),
        ),
      );
      // 100 points: one bid of 80 at most; the other is over the balance
      const accepted = answers.filter((f) => f.type === 'BID_CREATED');
      expect(accepted.length, `round ${round}`).toBeLessThanOrEqual(1);
      for (const f of answers) if (f.type === 'ERROR') expect(f.error_type).toBe('OUT_OF_BALANCE');
      const row = await db.selectFrom('users').select(['balance', 'reserved']).where('username', '=', poor.username).executeTakeFirstOrThrow();
      expect(row.reserved).toBeLessThanOrEqual(row.balance);
      // free the points for the next round
      for (const item of pair) await call(procs[2], 'POST', `/store/items/${item.itemId}/cancel`, { token: admin.token });
    }
    await expectBooksBalance(db);

    // ── a balance change reaches the player's user socket on whichever process holds it ──
    const target = players[0];
    const userSocket = await authedSocket(procs[2].userUrl, target.token);
    sockets.push(userSocket);
    userSocket.send({ type: 'GET_STATUS' });
    await userSocket.nextOf('STATUS');
    const before = await db.selectFrom('users').select('balance').where('username', '=', target.username).executeTakeFirstOrThrow();
    const granted = await call(procs[0], 'POST', '/points/transactions', { token: admin.token, body: { username: target.username, delta: 777, reason: 'test points' } });
    expect(granted.status, granted.text).toBe(200);
    const update = await userSocket.waitFor((f) => f.type === 'VIRTUAL_BALANCE_UPDATE' && (f.data as Frame['data'])?.balance === before.balance + 777, 10_000);
    expect(update.type).toBe('VIRTUAL_BALANCE_UPDATE');

    // ── a rank change and a revocation reach the account's sockets on another process at once ──
    // (at once: each process's own sweep of revoked sessions runs only every 20 s, its heartbeat)
    const promoted = players[3];
    const promotedSocket = await authedSocket(procs[1].userUrl, promoted.token);
    sockets.push(promotedSocket);
    promotedSocket.send({ type: 'GET_STATUS' });
    await promotedSocket.nextOf('STATUS');
    const ranked = await call(procs[0], 'POST', `/admin/users/${promoted.username}/rank`, { token: admin.token, body: { rank: 'council' } });
    expect(ranked.status, ranked.text).toBe(200);
    await promotedSocket.waitFor((f) => f.type === 'STATUS' && (f.data as { rank?: string } | undefined)?.rank === 'council', 5_000);
    const signedOut = bidders[4]; // its auction socket is on process 1
    const revokedAt = Date.now();
    const revoked = await call(procs[0], 'POST', `/accounts/${signedOut.username}/revoke-sessions`, { token: admin.token });
    expect(revoked.status, revoked.text).toBe(200);
    const closed = await Promise.race([signedOut.socket.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 5_000))]);
    expect(closed?.code, 'closed at once by the other process').toBe(4401);
    expect(Date.now() - revokedAt).toBeLessThan(5_000);

    // ── the leader killed: another takes the schedule over and settles what was due, once ──
    const ending = await create(procs[1], { itemName: 'Ends After The Kill', duration: 10 });
    const buyer = bidders[1];
    buyer.socket.send({ type: 'CREATE_BID', data: { itemId: ending.itemId, amount: 50, requestId: 'last-bid' } });
    await buyer.socket.waitFor((f) => f.type === 'BID_CREATED' && (f.data as Frame['data'])?.itemId === ending.itemId, 10_000);
    const startsSoon = await create(procs[2], { itemName: 'Starts After The Kill', startsAt: Date.now() + 4_000 });
    await killed(procs[0], 'SIGKILL');
    const killedAt = Date.now();
    // whichever of the two others wins the lock
    await Promise.any([procs[1].printed(LEADER_LINE, 10_000), procs[2].printed(LEADER_LINE, 10_000)]);
    expect(Date.now() - killedAt, 'took over within seconds').toBeLessThan(5_000);
    const survivors = [1, 2];
    for (const k of survivors) {
      await watchers[k].waitFor((f) => f.type === 'SALE_COMPLETED' && (f.data as Frame['data'])?.itemId === ending.itemId, 20_000);
      await watchers[k].waitFor((f) => f.type === 'BIDDING_STARTED' && (f.data as Frame['data'])?.itemId === startsSoon.itemId, 20_000);
    }
    // each once, on each board
    for (const k of survivors) {
      expect(seen[k].filter((f) => f.type === 'SALE_COMPLETED' && f.data?.itemId === ending.itemId)).toHaveLength(1);
      expect(seen[k].filter((f) => f.type === 'BIDDING_STARTED' && f.data?.itemId === startsSoon.itemId)).toHaveLength(1);
    }
    expect(await db.selectFrom('sales').selectAll().where('item_id', '=', ending.itemId).execute()).toHaveLength(1);
    expect(await db.selectFrom('points_transactions').selectAll().where('kind', '=', 'purchase').where('reason', '=', 'Won "Ends After The Kill"').execute()).toHaveLength(1);
    expect((await db.selectFrom('items').select('state').where('id', '=', ending.itemId).executeTakeFirstOrThrow()).state).toBe('finished');
    await expectBooksBalance(db);
  });
});
