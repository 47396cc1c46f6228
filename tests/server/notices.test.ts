import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOTICE_PREFERENCES, MAX_WATCHES, NOTICE_ERRORS, NOTICE_KINDS, type NoticePreferences } from '../../src/protocol/notices';
import { STORE_ERRORS, type StoreItem } from '../../src/protocol/store';
import { auctionTestServer, bidder, createItem, ManualClock, type Bidder } from './auction-helpers';
import { call } from './helpers';

/**
 * The watchlist and the notices, on the server: watching items, the notices each change makes (once
 * per account and cause, after its commit), the NOTICE frames they send, preferences, and the purge.
 */
const clock = new ManualClock();
let server: Awaited<ReturnType<typeof auctionTestServer>>['server'];
let admin: Awaited<ReturnType<typeof auctionTestServer>>['admin'];
let watcher: Bidder;

beforeAll(async () => {
  ({ server, admin, watcher } = await auctionTestServer(clock));
});
afterAll(() => server.close());

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
