import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUrlFor, openTestDatabase } from './test-database';
import type { StoreItem } from '../../src/protocol/store';
import { counts, expectBooksBalance, grant, itemBody } from './auction-helpers';
import { authedSocket, call, signedIn, startTestServer, type TestSocket } from './helpers';
import { killed, spawnServer, type Child } from './processes';
import { random } from './seed';

const children: Child[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-crash-'));
afterAll(async () => {
  await Promise.all(children.map((c) => killed(c, 'SIGKILL')));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Sent {
  itemId: number;
  amount: number;
  username: string;
  requestId: string;
}

describe('a crash during a bid storm answered by maximum bids', () => {
  it('loses no acknowledged bid (automatic ones too), applies none twice, keeps the books balanced, and settles what ended while down exactly once', { timeout: 90_000 }, async () => {
    // accounts, with cheap hashing, in-process; the tokens stay valid for the real server (same DATA_DIR)
    const setup = await startTestServer({ dataDir, loginRateLimit: { perEmail: 100, perAddress: 1_000, windowMs: 60_000 } });
    const admin = await signedIn(setup, 'admin');
    const players = await Promise.all(Array.from({ length: 6 }, () => signedIn(setup, 'storm')));
    for (const p of players) await grant(setup, admin.token, p.username, 5_000);
    await setup.close();

    const env = { DATABASE_URL: (await databaseUrlFor(dataDir)) ?? '' };
    let server = await spawnServer(dataDir, env);
    children.push(server);
    const create = async (overrides: Record<string, unknown>) =>
      (await call(server, 'POST', '/store/items', { token: admin.token, body: itemBody({ start_price: 10, minIncrement: 1, ...overrides }) })).body.item as StoreItem;
    const ending = [await create({ itemName: 'Ends While Down 1', duration: 10 }), await create({ itemName: 'Ends While Down 2', duration: 10 })];
    const staying = await create({ itemName: 'Stays Live', duration: 3_600 });
    const items = [...ending, staying];
    expect(items.every((i) => i.state === 'live')).toBe(true);

    // two players hold maxima on every item (more than their points cover on all three at once), so
    // most bids of the storm are answered by automatic raises in their transactions, and some maxima
    // are dropped when their raise can no longer be covered
    for (const [p, max] of [[players[0], 1_900] as const, [players[1], 1_700] as const]) {
      const socket = await authedSocket(server.auctionUrl, p.token);
      await socket.nextOf('HISTORY');
      for (const item of items) {
        socket.send({ type: 'SET_MAX_BID', data: { itemId: item.itemId, max, requestId: `max-${p.username}-${item.itemId}` } });
        expect((await socket.nextOf('MAX_BID')).data).toMatchObject({ itemId: item.itemId, max });
      }
      socket.close();
    }

    // two auction sockets a player; each sends a bid every 110 ms (within the flood limit) just above what it last saw
    const sent = new Map<string, Sent>();
    const acknowledged: Sent[] = [];
    /** Automatic bids told to any socket, by item and amount (amounts only rise on an item). */
    const autoTold = new Map<string, string>();
    const top = new Map(items.map((i) => [i.itemId, i.amount]));
    const sockets: { socket: TestSocket; username: string }[] = [];
    for (const p of players) {
      for (let k = 0; k < 2; k++) {
        const socket = await authedSocket(server.auctionUrl, p.token);
        await socket.nextOf('HISTORY');
        sockets.push({ socket, username: p.username });
        socket.ws.on('message', (data) => {
          const frame = JSON.parse(data.toString()) as { type: string; data?: { itemId: number; amount: number; username: string; auto?: boolean } };
          if (frame.type !== 'BID_CREATED' || !frame.data) return;
          const { itemId, amount, username } = frame.data;
          top.set(itemId, Math.max(top.get(itemId) ?? 0, amount));
          if ((frame.data as { auto?: boolean }).auto) autoTold.set(`${itemId}:${amount}`, username);
          if (username !== p.username) return;
          const mine = [...sent.values()].find((s) => s.itemId === itemId && s.amount === amount && s.username === username);
          if (mine && !acknowledged.includes(mine)) acknowledged.push(mine);
        });
      }
    }
    let n = 0;
    const timers = sockets.map(({ socket, username }, i) =>
      setInterval(() => {
        if (!socket.isOpen) return;
        const item = items[(i + n++) % items.length];
        const amount = (top.get(item.itemId) ?? 10) + 1 + (n % 5);
        const requestId = `storm-${username}-${n}`;
        sent.set(requestId, { itemId: item.itemId, amount, username, requestId });
        socket.send({ type: 'CREATE_BID', data: { itemId: item.itemId, amount, requestId } });
      }, 110),
    );
    // the kill lands at a seeded moment of the storm (TEST_SEED replays it); the child is a real
    // process on the real clock, so this wait is time, not an event
    await new Promise((r) => setTimeout(r, 2_000 + random() * 800));
    await killed(server, 'SIGKILL'); // mid-storm
    const killedAt = Date.now();
    timers.forEach(clearInterval);
    expect(acknowledged.length).toBeGreaterThan(20);

    // down until both short items have ended
    const lastEnd = Math.max(...ending.map((i) => i.endsAt));
    await new Promise((r) => setTimeout(r, Math.max(0, lastEnd - Date.now()) + 200));
    server = await spawnServer(dataDir, env);
    children.push(server);

    const db = await openTestDatabase(dataDir);
    try {
      // every acknowledged bid is stored, under its requestId
      for (const ack of acknowledged) {
        const row = await db
          .selectFrom('bid_requests as r')
          .innerJoin('bids as b', 'b.id', 'r.bid_id')
          .innerJoin('users as u', 'u.id', 'b.user_id')
          .select(['b.item_id', 'b.amount', 'u.username'])
          .where('r.request_id', '=', ack.requestId)
          .executeTakeFirst();
        expect(row, `acknowledged bid ${ack.requestId}`).toEqual({ item_id: ack.itemId, amount: ack.amount, username: ack.username });
      }
      // every automatic bid told is stored once, and nothing was applied twice: each item's bids rise
      expect(autoTold.size, 'automatic raises in the storm').toBeGreaterThan(10);
      for (const [key, username] of autoTold) {
        const [itemId, amount] = key.split(':').map(Number);
        const rows = await db.selectFrom('bids as b').innerJoin('users as u', 'u.id', 'b.user_id').select(['u.username', 'b.auto']).where('b.item_id', '=', itemId).where('b.amount', '=', amount).execute();
        expect(rows, `automatic bid ${key}`).toEqual([{ username, auto: 1 }]);
      }
      for (const item of items) {
        const amounts = (await db.selectFrom('bids').select('amount').where('item_id', '=', item.itemId).orderBy('id').execute()).map((b) => b.amount);
        for (let i = 1; i < amounts.length; i++) expect(amounts[i], `item ${item.itemId} bid ${i}`).toBeGreaterThan(amounts[i - 1]);
      }
      await expectBooksBalance(db);

      for (const item of items) {
        const row = await db.selectFrom('items').selectAll().where('id', '=', item.itemId).executeTakeFirstOrThrow();
        const best = await db.selectFrom('bids').select(['amount', 'user_id']).where('item_id', '=', item.itemId).orderBy('amount', 'desc').limit(1).executeTakeFirst();
        expect(row.leader_id).toBe(best?.user_id ?? null);
        if (best) expect(row.amount).toBe(best.amount);
      }
      expect((await db.selectFrom('items').select('state').where('id', '=', staying.itemId).executeTakeFirstOrThrow()).state).toBe('live');

      const settledOnce = async () => {
        for (const item of ending) {
          const row = await db.selectFrom('items').selectAll().where('id', '=', item.itemId).executeTakeFirstOrThrow();
          expect(row.state).toBe('finished');
          expect(row.leader_id, 'the storm bid on every item').not.toBeNull();
          expect(row.ends_at, 'it ended while the server was down').toBeGreaterThan(killedAt);
          expect(row.settled_at).toBeGreaterThan(row.ends_at);
          const sales = await db.selectFrom('sales').selectAll().where('item_id', '=', item.itemId).execute();
          const purchases = await db.selectFrom('points_transactions').selectAll().where('kind', '=', 'purchase').where('reason', '=', `Won "${item.itemName}"`).execute();
          if (row.leader_id === null) {
            expect(sales).toEqual([]);
            expect(purchases).toEqual([]);
          } else {
            expect(sales).toEqual([expect.objectContaining({ user_id: row.leader_id, amount: row.amount, at: row.ends_at })]);
            expect(purchases).toEqual([expect.objectContaining({ user_id: row.leader_id, delta: -row.amount })]);
          }
        }
      };
      await settledOnce();
      const afterRestart = await counts(db);

      // a clean stop and another start settle nothing twice
      await killed(server, 'SIGTERM');
      const again = await spawnServer(dataDir, env);
      children.push(again);
      await settledOnce();
      expect(await counts(db)).toEqual(afterRestart);
      await expectBooksBalance(db);
      await killed(again, 'SIGTERM');
    } finally {
      await db.destroy();
    }
  });
});
