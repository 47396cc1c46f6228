/**
 * Group commit on PostgreSQL with two processes bidding on the same items: each process commits
 * the bids that arrive together in one transaction, a bid whose write fails is undone alone, and
 * the row locks make the two groups take turns. Two servers in this test process on one database
 * (each its own engine, pool and cluster link). Runs in the server-pg project only.
 * A group's bids reach the other process whole in its NOTIFY, told there as the bidder's own process tells them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bidder, createItem, expectBooksBalance, itemRow, newRequestId, userRow, type Bidder } from './auction-helpers';
import { signedIn, startTestServer } from './helpers';
import { failInserts, onPostgres } from './test-database';

type Server = Awaited<ReturnType<typeof startTestServer>>;
const servers: Server[] = [];
const bidders: Bidder[] = [];
/** Made by the test itself, so the SQLite project, which skips it, leaves no folder behind. */
let dataDir: string | null = null;
let relayDir: string | null = null;
afterAll(async () => {
  for (const b of bidders) {
    b.auction.close();
    b.user.close();
  }
  for (const s of servers.reverse()) await s.close();
  for (const dir of [dataDir, relayDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Room for a test's bursts of frames and sign-ins. */
const limits = { frameRateLimit: { perSecond: 1000, burst: 1000 }, loginRateLimit: { perEmail: 100, perAddress: 10_000, windowMs: 60_000 } };
const error = (error_type: string, itemId: number, requestId: string) => ({ type: 'ERROR', error_type, data: { itemId, requestId } });

describe.runIf(onPostgres)('group commit on PostgreSQL, two processes', () => {
  it('a group in which one bid fails commits the others, while another process bids on the same items', { timeout: 60_000 }, async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-pg-group-'));
    const a = await startTestServer({ dataDir, ...limits });
    servers.push(a);
    const b = await startTestServer({ dataDir, ...limits });
    servers.push(b);
    const admin = await signedIn(a, 'admin');
    const [olga, pavel] = [await bidder(a, admin.token, 10_000), await bidder(a, admin.token, 10_000)];
    const [rosa, sven] = [await bidder(b, admin.token, 10_000), await bidder(b, admin.token, 10_000)];
    bidders.push(olga, pavel, rosa, sven);
    const shield = await createItem(a, admin.token, { start_price: 100, minIncrement: 10 });
    const bow = await createItem(a, admin.token, { start_price: 100, minIncrement: 10 });
    // a bid of 777 fails to write, as a full disk would make it (on either process)
    const allow = await failInserts(a.db, 'bids', 'disk says no', 'new.amount = 777');
    await a.auction.idle();
    await b.auction.idle();
    const before = [a.auction.bidCommits, b.auction.bidCommits];

    const on = (server: Server, list: { who: Bidder; itemId: number; amount: number }[]) =>
      list.map((r) => ({ ...r, server, requestId: newRequestId() }));
    const groupA = on(a, [
      { who: olga, itemId: shield.itemId, amount: 200 },
      { who: pavel, itemId: shield.itemId, amount: 205 }, // judged after olga's 200: below 210
      { who: pavel, itemId: shield.itemId, amount: 210 }, // outbids olga
      { who: olga, itemId: bow.itemId, amount: 777 }, // the write fails
      { who: pavel, itemId: bow.itemId, amount: 300 },
    ]);
    const groupB = on(b, [
      { who: rosa, itemId: shield.itemId, amount: 100 },
      { who: sven, itemId: bow.itemId, amount: 777 }, // the write fails
      { who: sven, itemId: bow.itemId, amount: 100 },
    ]);
    // one turn on both processes: no await between them
    const asked = [...groupA, ...groupB].map((r) => r.server.auction.createBid({ id: r.who.id }, { itemId: r.itemId, amount: r.amount, requestId: r.requestId }));
    const answers = await Promise.all(asked);
    await allow();
    const answersA = answers.slice(0, groupA.length);
    const answersB = answers.slice(groupA.length);

    // each process committed its bids in one transaction
    const commits = [a.auction.bidCommits, b.auction.bidCommits].map((c, i) => ({ transactions: c.transactions - before[i].transactions, bids: c.bids - before[i].bids }));
    expect(commits).toEqual([
      { transactions: 1, bids: groupA.length },
      { transactions: 1, bids: groupB.length },
    ]);
    // A's group is judged in its own order whichever group went first (B's amounts are below A's)
    expect(answersA).toEqual([
      null,
      error('BID_AMOUNT_ERROR', shield.itemId, groupA[1].requestId),
      null,
      error('DATABASE_ERROR', bow.itemId, groupA[3].requestId),
      null,
    ]);
    // B's group went first (its bids stored) or after A's (its bids too low): never in between, the row locks keep them apart
    const stored = await a.db.selectFrom('bids').select(['id', 'item_id', 'amount', 'user_id']).where('item_id', 'in', [shield.itemId, bow.itemId]).orderBy('id').execute();
    const bFirst = stored.some((s) => s.user_id === rosa.id || s.user_id === sven.id);
    expect(answersB).toEqual([
      bFirst ? null : error('BID_AMOUNT_ERROR', shield.itemId, groupB[0].requestId),
      error('DATABASE_ERROR', bow.itemId, groupB[1].requestId),
      bFirst ? null : error('BID_AMOUNT_ERROR', bow.itemId, groupB[2].requestId),
    ]);
    const mine = (who: Bidder, itemId: number, amount: number) => ({ item_id: itemId, amount, user_id: who.id });
    const fromA = [mine(olga, shield.itemId, 200), mine(pavel, shield.itemId, 210), mine(pavel, bow.itemId, 300)];
    const fromB = [mine(rosa, shield.itemId, 100), mine(sven, bow.itemId, 100)];
    expect(stored.map(({ id: _id, ...s }) => s)).toEqual(bFirst ? [...fromB, ...fromA] : fromA);

    // the failed bids left nothing: no bid, no remembered answer, no points reserved for them
    const requests = await a.db.selectFrom('bid_requests').select('request_id').where('request_id', 'in', [...groupA, ...groupB].map((r) => r.requestId)).execute();
    expect(requests.map((r) => r.request_id).sort()).toEqual([...groupA, ...groupB].filter((r) => r.amount !== 777).map((r) => r.requestId).sort());
    expect(await itemRow(a.db, shield.itemId)).toMatchObject({ leader_id: pavel.id, amount: 210 });
    expect(await itemRow(a.db, bow.itemId)).toMatchObject({ leader_id: pavel.id, amount: 300 });
    expect((await userRow(a.db, olga.id)).reserved).toBe(0);
    expect((await userRow(a.db, pavel.id)).reserved).toBe(510);
    expect((await userRow(a.db, rosa.id)).reserved).toBe(0);
    expect((await userRow(a.db, sven.id)).reserved).toBe(0);
    await expectBooksBalance(a.db);

    // both processes' boards heard every stored bid, in commit order
    const told = stored.map((s) => `${s.item_id}:${s.amount}`);
    for (const watcher of [olga, rosa]) {
      for (const key of told) {
        const [itemId, amount] = key.split(':').map(Number);
        await watcher.auction.waitFor((f) => f.type === 'BID_CREATED' && (f.data as { itemId: number }).itemId === itemId && (f.data as { amount: number }).amount === amount, 10_000);
      }
    }
  });

  it("a bid reaches the other process's sockets as its own process tells it: Arabic names, a reserve, a sealed item masked", { timeout: 60_000 }, async () => {
    const dir = (relayDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-pg-relay-')));
    const a = await startTestServer({ dataDir: dir, ...limits });
    servers.push(a);
    const b = await startTestServer({ dataDir: dir, ...limits });
    servers.push(b);
    const admin = await signedIn(a, 'admin');
    const olga = await bidder(a, admin.token, 10_000);
    const rosa = await bidder(b, admin.token, 10_000);
    bidders.push(olga, rosa);
    // the longest names a kingdom may give, in Arabic (two bytes each in a NOTIFY payload)
    const name = (word: string) => `${word} `.repeat(40).slice(0, 100).trim();
    const crown = await createItem(a, admin.token, { itemName: name('تاج'), start_price: 100, minIncrement: 10, reservePrice: 300 });
    const chest = await createItem(a, admin.token, { itemName: name('صندوق'), start_price: 100, minIncrement: 10, format: 'sealed-first' });
    await a.auction.idle();
    await b.auction.idle();
    const on = (itemId: number) => (f: Record<string, unknown>) => f.type === 'BID_CREATED' && (f.data as { itemId: number }).itemId === itemId;
    expect(await a.auction.createBid({ id: olga.id }, { itemId: crown.itemId, amount: 200, requestId: newRequestId() })).toBeNull();
    const ownFirst = await olga.auction.waitFor(on(crown.itemId), 10_000);
    const otherFirst = await rosa.auction.waitFor(on(crown.itemId), 10_000);
    expect(otherFirst).toEqual(ownFirst);
    expect(otherFirst.data).toMatchObject({ itemName: crown.itemName, username: olga.username, amount: 200, reserveMet: false });
    expect(await a.auction.createBid({ id: olga.id }, { itemId: crown.itemId, amount: 300, requestId: newRequestId() })).toBeNull();
    expect((await rosa.auction.waitFor(on(crown.itemId), 10_000)).data).toMatchObject({ amount: 300, reserveMet: true });
    // a sealed bid: the bidder hears it whole, the other process's sockets only that someone bid
    expect(await a.auction.createBid({ id: olga.id }, { itemId: chest.itemId, amount: 150, requestId: newRequestId() })).toBeNull();
    expect((await olga.auction.waitFor(on(chest.itemId), 10_000)).data).toMatchObject({ itemName: chest.itemName, amount: 150 });
    const masked = (await rosa.auction.waitFor(on(chest.itemId), 10_000)).data as Record<string, unknown>;
    expect(masked).toMatchObject({ itemName: chest.itemName, sealed: true, bids: 1 });
    expect(masked).not.toHaveProperty('amount');
    expect(masked).not.toHaveProperty('username');
  });
});
