import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOTICE_PREFERENCES, MAX_WATCHES, NOTICE_ERRORS, NOTICE_KEEP_MS, NOTICE_KINDS, type NoticePreferences } from '../../src/protocol/notices';
import { STORE_ERRORS, type StoreItem } from '../../src/protocol/store';
import { writeTransaction } from '../../server/db/write';
import { emit, type DomainEvent } from '../../server/events/events';
import { bidder, createItem, grant, ManualClock, newRequestId, type Bidder } from './auction-helpers';
import { authedSocket, call, login, signedIn, startTestServer, type TestSocket } from './helpers';
import { killed, spawnServer, type Child } from './processes';
import { databaseUrlFor, onPostgres } from './test-database';

/**
 * The watchlist and the notices, on the server: watching items, the notices each change makes (once
 * per account and cause, after its commit), the NOTICE frames they send, preferences, and the purge.
 */
const clock = new ManualClock();
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let watcher: Bidder;

/** The auction's test server (clock, no rate limits, reactions at commit) with the notices' passes run only when a test wakes them. */
async function noticesServer(dataDir?: string) {
  return startTestServer(
    {
      ...(dataDir ? { dataDir } : {}),
      frameRateLimit: { perSecond: 1000, burst: 1000 },
      loginRateLimit: { perEmail: 100, perAddress: 10_000, windowMs: 60_000 },
      reactions: { pollMs: 3_600_000, keepDays: 30, paused: false },
      notices: { pollMs: 3_600_000 },
    },
    { now: clock.now },
  );
}

beforeAll(async () => {
  server = await noticesServer();
  admin = await signedIn(server, 'admin');
  watcher = await bidder(server, admin.token, 0, 'watcher');
});
afterAll(() => server.close());

async function accepted(who: Bidder, itemId: number, amount: number) {
  expect(await server.auction.createBid({ id: who.id }, { itemId, amount, requestId: newRequestId() })).toBeNull();
}

/** Every reaction and the notices' passes have run (on PostgreSQL the outbid pass reads bids a moment old: the clock moves by that). */
async function settled(on = server): Promise<void> {
  await on.auction.idle();
  await on.reactions.idle();
  if (onPostgres) clock.advance(2_000);
  on.notices.wake();
  await on.notices.idle();
}

/** Ends every live item now and settles it. */
async function endAll(): Promise<void> {
  clock.advance(24 * 3600 * 1000);
  await server.auction.tick();
  await settled();
}

async function noticesOf(userId: number, on = server) {
  return on.db.selectFrom('notices').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

/** The account's notices about items (the points a test player starts with make one of their own). */
async function itemNotices(userId: number) {
  return (await noticesOf(userId)).filter((n) => n.item_id !== null);
}

type Frame = Record<string, unknown>;
const noticeFrame = (socket: TestSocket, kind: string): Promise<Frame> => socket.waitFor((f) => f.type === 'NOTICE' && (f.data as { kind: string }).kind === kind);
/** No NOTICE (of this kind) is queued on the socket (the server answers a status request after anything it sent before). */
async function noNotice(socket: TestSocket, kind?: string): Promise<void> {
  socket.send({ type: 'GET_STATUS' });
  await socket.nextOf('STATUS');
  expect(socket.drain().filter((f) => f.type === 'NOTICE' && (kind === undefined || (f.data as { kind: string }).kind === kind))).toEqual([]);
}

describe('the watchlist', () => {
  it('watches and unwatches an item; the watchlist shows live items by end, then scheduled ones, as GET store/items shapes them', async () => {
    const player = await bidder(server, admin.token, 0, 'fan');
    const later = await createItem(server, admin.token, { itemName: 'Later', startsAt: clock.t + 3_600_000 });
    const live = await createItem(server, admin.token, { itemName: 'Now', reservePrice: 500 });
    const sealed = await createItem(server, admin.token, { itemName: 'Sealed', format: 'sealed-first', duration: 300 });
    for (const item of [later, live, sealed]) {
      const answer = await call(server, 'POST', `/store/items/${item.itemId}/watch`, { token: player.token });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ result: true, itemId: item.itemId, watching: true });
    }
    // watching again changes nothing
    expect((await call(server, 'POST', `/store/items/${live.itemId}/watch`, { token: player.token })).status).toBe(200);

    const list = await call(server, 'GET', '/store/watchlist', { token: player.token });
    expect(list.status).toBe(200);
    const items = list.body.items as StoreItem[];
    expect(items.map((i) => i.itemName)).toEqual(['Sealed', 'Now', 'Later']);
    // a player reads reserveMet, never the reserve's number
    expect(items[1]).toMatchObject({ reserveMet: false });
    expect(items[1]).not.toHaveProperty('reservePrice');
    // the same item as GET store/items gives it to this reader
    const store = await call(server, 'GET', '/store/items?state=live', { token: player.token });
    expect(items[1]).toEqual((store.body.items as StoreItem[]).find((i) => i.itemId === live.itemId));
    // council and admin read the reserve in their own watchlist
    await call(server, 'POST', `/store/items/${live.itemId}/watch`, { token: admin.token });
    const asAdmin = await call(server, 'GET', '/store/watchlist', { token: admin.token });
    expect((asAdmin.body.items as StoreItem[])[0]).toMatchObject({ reservePrice: 500 });

    const off = await call(server, 'DELETE', `/store/items/${live.itemId}/watch`, { token: player.token });
    expect(off.body).toEqual({ result: true, itemId: live.itemId, watching: false });
    const after = await call(server, 'GET', '/store/watchlist', { token: player.token });
    expect((after.body.items as StoreItem[]).map((i) => i.itemName)).toEqual(['Sealed', 'Later']);
    // another player's watchlist is their own
    expect((await call(server, 'GET', '/store/watchlist', { token: watcher.token })).body.items).toEqual([]);
    for (const item of [later, live, sealed]) await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: admin.token });
    // items that ended leave the watchlist
    expect((await call(server, 'GET', '/store/watchlist', { token: player.token })).body.items).toEqual([]);
  });

  it('refuses an unknown item (404), signed-out callers (401), and more than MAX_WATCHES items (409)', async () => {
    const player = await bidder(server, admin.token, 0, 'greedy');
    for (const path of ['/store/items/999999/watch', '/store/items/abc/watch', '/store/items/0/watch']) {
      const answer = await call(server, 'POST', path, { token: player.token });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ result: false, error: STORE_ERRORS.unknownItem });
    }
    expect((await call(server, 'DELETE', '/store/items/999999/watch', { token: player.token })).status).toBe(404);
    expect((await call(server, 'GET', '/store/watchlist')).status).toBe(401);
    expect((await call(server, 'POST', '/store/items/1/watch')).status).toBe(401);

    // MAX_WATCHES rows written directly (creating 200 items through the API is not what is tested)
    const first = await createItem(server, admin.token, { itemName: 'Many', startsAt: clock.t + 3_600_000 });
    const ids: number[] = [];
    for (let i = 0; i < MAX_WATCHES; i += 1) {
      const { id } = await server.db
        .insertInto('items')
        .values({ name: `Copy ${i}`, start_price: 1, min_increment: 1, starts_at: clock.t + 3_600_000, duration_s: 60, ends_at: clock.t + 3_660_000, extend_window_s: 0, max_extensions: 0, state: 'scheduled', leader_id: null, amount: 1, created_by: null, created_at: clock.t, started_at: null, settled_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(id);
    }
    await server.db.insertInto('watches').values(ids.map((id) => ({ user_id: player.id, item_id: id, created_at: clock.t }))).execute();
    const refused = await call(server, 'POST', `/store/items/${first.itemId}/watch`, { token: player.token });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ result: false, error: NOTICE_ERRORS.tooManyWatches });
    // one of them ended: room for another
    await server.db.updateTable('items').set({ state: 'cancelled', settled_at: clock.t }).where('id', '=', ids[0]).execute();
    expect((await call(server, 'POST', `/store/items/${first.itemId}/watch`, { token: player.token })).status).toBe(200);
    expect((await call(server, 'GET', '/store/watchlist', { token: player.token })).body.items).toHaveLength(MAX_WATCHES);
    await server.db.deleteFrom('watches').where('user_id', '=', player.id).execute();
    await server.db.updateTable('items').set({ state: 'cancelled', settled_at: clock.t }).where('id', 'in', [...ids, first.itemId]).execute();
  });
});

describe('the notices list and preferences', () => {
  it('lists notices newest first with the unread count, and marks them read up to an id', async () => {
    const player = await bidder(server, admin.token, 0, 'reader');
    const values = [1, 2, 3].map((n) => ({ user_id: player.id, kind: 'points', at: clock.t + n, item_id: null, item_name: null, amount: n * 10, channel: 'app', cause: `test:${n}` }));
    await server.db.insertInto('notices').values(values).execute();
    // someone else's notice is not in the list
    await server.db.insertInto('notices').values({ ...values[0], user_id: watcher.id }).execute();
    const list = await call(server, 'GET', '/notices', { token: player.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ result: true, unread: 3, page: 1, pages: 1 });
    const notices = list.body.notices as { id: number; amount: number; read: boolean }[];
    expect(notices.map((n) => n.amount)).toEqual([30, 20, 10]);
    expect(notices[0]).toEqual({ id: notices[0].id, kind: 'points', at: clock.t + 3, read: false, amount: 30 });

    const read = await call(server, 'POST', '/notices/read', { token: player.token, body: { upTo: notices[1].id } });
    expect(read.body).toEqual({ result: true, unread: 1 });
    const after = await call(server, 'GET', '/notices?page=1', { token: player.token });
    expect((after.body.notices as { read: boolean }[]).map((n) => n.read)).toEqual([false, true, true]);
    expect((await call(server, 'GET', '/notices', { token: watcher.token })).body.unread).toBe(1);
  });

  it('refuses a bad upTo and a bad page with a sentence (400)', async () => {
    for (const upTo of [0, -1, 1.5, 'x', null]) {
      const answer = await call(server, 'POST', '/notices/read', { token: watcher.token, body: { upTo } });
      expect(answer.status, JSON.stringify(upTo)).toBe(400);
      expect(answer.body).toEqual({ result: false, error: NOTICE_ERRORS.badUpTo });
    }
    expect((await call(server, 'POST', '/notices/read', { token: watcher.token, body: {} })).status).toBe(400);
    expect((await call(server, 'GET', '/notices?page=0', { token: watcher.token })).status).toBe(400);
    expect((await call(server, 'GET', '/notices')).status).toBe(401);
  });

  it('answers the defaults until the player chooses, then what they chose; refuses a bad kind, channel or lead', async () => {
    const player = await bidder(server, admin.token, 0, 'chooser');
    const first = await call(server, 'GET', '/notices/preferences', { token: player.token });
    expect(first.body).toEqual({ result: true, preferences: DEFAULT_NOTICE_PREFERENCES });
    const chosen: NoticePreferences = { channels: { ...DEFAULT_NOTICE_PREFERENCES.channels, outbid: 'both', points: 'none' }, endingLeadMinutes: 15 };
    const saved = await call(server, 'PUT', '/notices/preferences', { token: player.token, body: chosen });
    expect(saved.body).toEqual({ result: true, preferences: chosen });
    expect((await call(server, 'GET', '/notices/preferences', { token: player.token })).body).toEqual({ result: true, preferences: chosen });
    const bad = [
      [{ ...chosen, endingLeadMinutes: 10 }, NOTICE_ERRORS.badLead],
      [{ ...chosen, channels: { ...chosen.channels, outbid: 'email' } }, NOTICE_ERRORS.badChannel],
    ] as const;
    for (const [body, error] of bad) {
      const answer = await call(server, 'PUT', '/notices/preferences', { token: player.token, body });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ result: false, error });
    }
    const unknownKind = await call(server, 'PUT', '/notices/preferences', { token: player.token, body: { ...chosen, channels: { ...chosen.channels, birthday: 'app' } } });
    expect(unknownKind.status).toBe(400);
    expect(NOTICE_KINDS).not.toContain('birthday');
    expect((await call(server, 'GET', '/notices/preferences', { token: player.token })).body).toEqual({ result: true, preferences: chosen });
  });
});

describe('notices made by the auction', () => {
  it('started: to each watcher of a scheduled item when it starts, live on the user socket', async () => {
    const fan = await bidder(server, admin.token, 0, 'fan');
    const item = await createItem(server, admin.token, { itemName: 'Dawn Shield', startsAt: clock.t + 60_000 });
    await call(server, 'POST', `/store/items/${item.itemId}/watch`, { token: fan.token });
    clock.advance(60_000);
    await server.auction.tick();
    await settled();
    const frame = await noticeFrame(fan.user, 'started');
    expect(frame.data).toEqual({ id: expect.any(Number), kind: 'started', at: expect.any(Number), itemId: item.itemId, itemName: 'Dawn Shield', amount: 100 });
    const list = await call(server, 'GET', '/notices', { token: fan.token });
    expect(list.body).toMatchObject({ unread: 1, notices: [{ ...(frame.data as object), read: false }] });
    // who does not watch it hears nothing
    await noNotice(watcher.user, 'started');
    await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: admin.token });
  });

  it('won for the buyer and lost for every other bidder after a sale; the watchers are forgotten', async () => {
    const alice = await bidder(server, admin.token, 1_000, 'alice');
    const bob = await bidder(server, admin.token, 1_000, 'bob');
    const item = await createItem(server, admin.token, { itemName: 'Crown' });
    await call(server, 'POST', `/store/items/${item.itemId}/watch`, { token: alice.token });
    await accepted(alice, item.itemId, 100);
    await accepted(bob, item.itemId, 150);
    await endAll();
    expect((await noticeFrame(bob.user, 'won')).data).toMatchObject({ kind: 'won', itemId: item.itemId, itemName: 'Crown', amount: 150 });
    expect((await noticeFrame(alice.user, 'lost')).data).toMatchObject({ kind: 'lost', itemId: item.itemId, amount: 150 });
    expect((await itemNotices(bob.id)).map((n) => n.kind)).toEqual(['won']);
    // (the item ended before the outbid pass read its bids: the outcome is told, not the outbid)
    expect((await itemNotices(alice.id)).map((n) => n.kind)).toEqual(['lost']);
    expect(await server.db.selectFrom('watches').selectAll().where('item_id', '=', item.itemId).execute()).toEqual([]);
  });

  it('outbid: to the previous leader when another player takes the lead, never for a raise of one\'s own, one until they bid again', async () => {
    const [alice, bob, carol] = [await bidder(server, admin.token, 1_000, 'alice'), await bidder(server, admin.token, 1_000, 'bob'), await bidder(server, admin.token, 1_000, 'carol')];
    const item = await createItem(server, admin.token, { itemName: 'Lance' });
    await accepted(alice, item.itemId, 100);
    await accepted(bob, item.itemId, 110);
    await settled();
    expect((await noticeFrame(alice.user, 'outbid')).data).toMatchObject({ kind: 'outbid', itemId: item.itemId, itemName: 'Lance', amount: 110 });
    // bob raises his own lead: nobody is outbid
    await accepted(bob, item.itemId, 120);
    await settled();
    await noNotice(bob.user, 'outbid');
    expect(await itemNotices(bob.id)).toEqual([]);
    // carol, then alice again: bob hears it once (he did not bid again), carol once
    await accepted(carol, item.itemId, 130);
    await settled();
    await accepted(alice, item.itemId, 140);
    await settled();
    expect((await itemNotices(bob.id)).map((n) => [n.kind, n.amount])).toEqual([['outbid', 130]]);
    expect((await itemNotices(carol.id)).map((n) => [n.kind, n.amount])).toEqual([['outbid', 140]]);
    // bob bids again and is outbid again: a new notice
    await accepted(bob, item.itemId, 150);
    await accepted(carol, item.itemId, 160);
    await settled();
    expect((await itemNotices(bob.id)).map((n) => [n.kind, n.amount])).toEqual([['outbid', 130], ['outbid', 160]]);
    // alice (outbid at 150, her bid of 140 standing) hears it once, with the amount that leads when the pass reads it
    expect((await itemNotices(alice.id)).map((n) => [n.kind, n.amount])).toEqual([['outbid', 110], ['outbid', 160]]);
    // in one pass, who bid again in it is told of their latest bid only: dave and erin trade bids, erin leads
    const [dave, erin] = [await bidder(server, admin.token, 1_000, 'dave'), await bidder(server, admin.token, 1_000, 'erin')];
    for (const [who, amount] of [[dave, 170], [erin, 180], [dave, 190], [erin, 200]] as const) await accepted(who, item.itemId, amount);
    await settled();
    expect((await itemNotices(dave.id)).map((n) => [n.kind, n.amount])).toEqual([['outbid', 200]]);
    expect(await itemNotices(erin.id)).toEqual([]);
    await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: admin.token });
  });

  it('no outbid notices on a sealed item (nobody knows)', async () => {
    const [alice, bob] = [await bidder(server, admin.token, 1_000, 'alice'), await bidder(server, admin.token, 1_000, 'bob')];
    const item = await createItem(server, admin.token, { format: 'sealed-first' });
    await accepted(alice, item.itemId, 100);
    await accepted(bob, item.itemId, 200);
    await settled();
    expect(await itemNotices(alice.id)).toEqual([]);
    await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: admin.token });
  });

  it('ending: once, at each interested player\'s lead time (watchers and bidders)', async () => {
    const fan = await bidder(server, admin.token, 0, 'fan');
    const early = await bidder(server, admin.token, 1_000, 'early');
    await call(server, 'PUT', '/notices/preferences', { token: early.token, body: { ...DEFAULT_NOTICE_PREFERENCES, endingLeadMinutes: 15 } });
    const item = await createItem(server, admin.token, { itemName: 'Hourglass', duration: 1200 });
    await call(server, 'POST', `/store/items/${item.itemId}/watch`, { token: fan.token });
    await accepted(early, item.itemId, 100);
    await settled();
    expect((await itemNotices(fan.id)).length + (await itemNotices(early.id)).length).toBe(0);
    // 14 minutes left: the 15-minute player hears it
    clock.advance(6 * 60_000);
    await settled();
    expect((await noticeFrame(early.user, 'ending')).data).toMatchObject({ kind: 'ending', itemId: item.itemId, itemName: 'Hourglass', amount: 100 });
    expect(await itemNotices(fan.id)).toEqual([]);
    // 4 minutes left: the 5-minute (default) watcher too; nobody twice
    clock.advance(10 * 60_000);
    await settled();
    await settled();
    await noticeFrame(fan.user, 'ending');
    expect((await itemNotices(fan.id)).map((n) => n.kind)).toEqual(['ending']);
    expect((await itemNotices(early.id)).map((n) => n.kind)).toEqual(['ending']);
    await noNotice(early.user, 'ending');
    await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: admin.token });
  });
});

describe('notices of points', () => {
  it('points: a grant and a deduct, signed; a purchase makes none', async () => {
    const player = await bidder(server, admin.token, 0, 'earner');
    await grant(server, admin.token, player.username, 250);
    await grant(server, admin.token, player.username, -40);
    await settled();
    expect((await noticeFrame(player.user, 'points')).data).toMatchObject({ kind: 'points', amount: 250 });
    expect((await noticeFrame(player.user, 'points')).data).toMatchObject({ kind: 'points', amount: -40 });
    expect((await noticesOf(player.id)).map((n) => n.amount)).toEqual([250, -40]);
  });
});

describe('preferences, once per account, restarts and the purge', () => {
  it('a kind set to none or discord is stored with its channel and sends no NOTICE; both sends it', async () => {
    const [quiet, loud] = [await bidder(server, admin.token, 0, 'quiet'), await bidder(server, admin.token, 0, 'loud')];
    await call(server, 'PUT', '/notices/preferences', { token: quiet.token, body: { ...DEFAULT_NOTICE_PREFERENCES, channels: { ...DEFAULT_NOTICE_PREFERENCES.channels, points: 'none' } } });
    await call(server, 'PUT', '/notices/preferences', { token: loud.token, body: { ...DEFAULT_NOTICE_PREFERENCES, channels: { ...DEFAULT_NOTICE_PREFERENCES.channels, points: 'both' } } });
    await grant(server, admin.token, quiet.username, 10);
    await settled();
    await call(server, 'PUT', '/notices/preferences', { token: quiet.token, body: { ...DEFAULT_NOTICE_PREFERENCES, channels: { ...DEFAULT_NOTICE_PREFERENCES.channels, points: 'discord' } } });
    await grant(server, admin.token, quiet.username, 20);
    await grant(server, admin.token, loud.username, 30);
    await settled();
    expect((await noticesOf(quiet.id)).map((n) => [n.amount, n.channel])).toEqual([[10, 'none'], [20, 'discord']]);
    await noNotice(quiet.user);
    // nor are they in the app's list and count
    expect((await call(server, 'GET', '/notices', { token: quiet.token })).body).toEqual({ result: true, unread: 0, page: 1, pages: 1, notices: [] });
    expect((await call(server, 'GET', '/notices', { token: loud.token })).body).toMatchObject({ unread: 1, notices: [{ kind: 'points', amount: 30 }] });
    expect((await noticeFrame(loud.user, 'points')).data).toMatchObject({ amount: 30 });
    expect((await noticesOf(loud.id)).map((n) => n.channel)).toEqual(['both']);
  });

  it('each notice once: the reaction run again makes no second row, and each open tab gets one NOTICE', async () => {
    const player = await bidder(server, admin.token, 0, 'tabs');
    const second = await authedSocket(server.userUrl, player.token);
    second.send({ type: 'GET_STATUS' });
    await second.nextOf('STATUS');
    await grant(server, admin.token, player.username, 77);
    await settled();
    await noticeFrame(player.user, 'points');
    await noticeFrame(second, 'points');
    // the same event handled again (a process that died before its cursor moved)
    const row = await server.db.selectFrom('events').selectAll().where('kind', '=', 'points.booked').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    const event = { id: row.id, kind: row.kind, at: row.at, actor: row.actor, data: JSON.parse(row.data) as object } as DomainEvent;
    await server.notices.handle(event);
    await server.notices.handle(event);
    expect(await noticesOf(player.id)).toHaveLength(1);
    await noNotice(player.user);
    await noNotice(second);
    second.close();
  });

  it('survive a restart over the same data, and the restarted server makes none again', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-notices-'));
    try {
      const first = await noticesServer(dataDir);
      const boss = await signedIn(first, 'admin');
      const player = await signedIn(first, 'keeper');
      await grant(first, boss.token, player.username, 5);
      await settled(first);
      const before = await call(first, 'GET', '/notices', { token: player.token });
      expect(before.body).toMatchObject({ unread: 1, notices: [{ kind: 'points', amount: 5 }] });
      await first.close();
      const again = await noticesServer(dataDir);
      try {
        await settled(again);
        const token = await login(again, `${player.username}@example.com`);
        expect((await call(again, 'GET', '/notices', { token })).body).toEqual(before.body);
      } finally {
        await again.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('are purged once older than NOTICE_KEEP_MS (the clock injected)', async () => {
    const player = await bidder(server, admin.token, 0, 'old');
    await grant(server, admin.token, player.username, 1);
    await settled();
    expect(await noticesOf(player.id)).toHaveLength(1);
    clock.advance(NOTICE_KEEP_MS - 60_000);
    await settled();
    expect(await noticesOf(player.id)).toHaveLength(1);
    clock.advance(120_000);
    await settled();
    expect(await noticesOf(player.id)).toEqual([]);
  });
});

describe.runIf(onPostgres)('two processes serving one kingdom', () => {
  it('make each notice once, and every tab of the account hears it once, on either process', { timeout: 60_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-notices-two-'));
    const here = await startTestServer({ dataDir, loginRateLimit: { perEmail: 100, perAddress: 10_000, windowMs: 60_000 } });
    let there: Child | null = null;
    const sockets: TestSocket[] = [];
    try {
      there = await spawnServer(dataDir, { DATABASE_URL: (await databaseUrlFor(dataDir)) as string, EVENTS_POLL_MS: '200', NOTICES_POLL_MS: '200' });
      const boss = await signedIn(here, 'admin');
      const [alice, bob] = [await signedIn(here, 'alice'), await signedIn(here, 'bob')];
      const ids = new Map((await here.db.selectFrom('users').select(['id', 'username']).execute()).map((u) => [u.username, u.id]));
      // alice has a tab on each process
      for (const url of [here.userUrl, there.userUrl]) {
        const socket = await authedSocket(url, alice.token);
        socket.send({ type: 'GET_STATUS' });
        await socket.nextOf('STATUS');
        sockets.push(socket);
      }
      await grant(here, boss.token, alice.username, 500);
      await grant(here, boss.token, bob.username, 500);
      for (const socket of sockets) expect((await noticeFrame(socket, 'points')).data).toMatchObject({ amount: 500 });

      const item = await createItem(here, boss.token, { itemName: 'Twin Blades', duration: 3_600 });
      expect(await here.auction.createBid({ id: ids.get(alice.username) as number }, { itemId: item.itemId, amount: 100, requestId: newRequestId() })).toBeNull();
      expect(await here.auction.createBid({ id: ids.get(bob.username) as number }, { itemId: item.itemId, amount: 110, requestId: newRequestId() })).toBeNull();
      for (const socket of sockets) await socket.waitFor((f) => f.type === 'NOTICE' && (f.data as { kind: string }).kind === 'outbid', 10_000);
      await call(here, 'POST', `/store/items/${item.itemId}/cancel`, { token: boss.token });
      await here.reactions.idle();
      for (const socket of sockets) await noNotice(socket);
      const rows = await noticesOf(ids.get(alice.username) as number, here);
      expect(rows.map((n) => [n.kind, n.amount])).toEqual([['points', 500], ['outbid', 110]]);
    } finally {
      for (const socket of sockets) socket.close();
      if (there) await killed(there, 'SIGTERM');
      await here.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('notices of maximum bids', () => {
  it('max-exhausted and max-dropped: to the max\'s owner, from the engine\'s events, once each', async () => {
    const player = await bidder(server, admin.token, 0, 'maxer');
    const item = await createItem(server, admin.token, { itemName: 'Proxy Helm' });
    for (const kind of ['max.exhausted', 'max.dropped'] as const) {
      await writeTransaction(server.db, (trx) => emit(trx, kind, { itemId: item.itemId, itemName: 'Proxy Helm', userId: player.id, max: 300 }, null, clock.t));
    }
    await settled();
    expect((await noticeFrame(player.user, 'max-exhausted')).data).toMatchObject({ itemId: item.itemId, itemName: 'Proxy Helm', amount: 300 });
    expect((await noticeFrame(player.user, 'max-dropped')).data).toMatchObject({ itemId: item.itemId, amount: 300 });
    expect((await itemNotices(player.id)).map((n) => n.kind)).toEqual(['max-exhausted', 'max-dropped']);
    await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: admin.token });
  });
});
