import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POINTS_ERRORS } from '../../src/protocol/points';
import { copyName, historyEntry, ITEM_NAME_MAX, STARTS_AT_PAST_TOLERANCE_MS, STORE_ERRORS, storeItem, UPLOAD_MAX_BYTES, type StoreItem } from '../../src/protocol/store';
import { csvRecords, IMAGES, upload } from './back-office-helpers';
import { bidCreated, bidder, createItem, expectBooksBalance, itemRow, ManualClock, sendBid, type Bidder } from './auction-helpers';
import { call, signedIn, startTestServer, leadershipServer } from './helpers';

const clock = new ManualClock();
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let council: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer({ now: clock.now }));
});
afterAll(() => server.close());

const closeAll = (...bidders: Bidder[]) => bidders.forEach((b) => (b.auction.close(), b.user.close()));

/** Lets every live item end and settle. */
async function finishAll(ms = 700_000) {
  clock.advance(ms);
  await server.auction.tick();
}

describe('GET /store/history', () => {
  let buyer: Bidder;
  let other: Bidder;
  let sold: StoreItem;
  let unsold: StoreItem;
  let soldToOther: StoreItem;
  let cancelled: StoreItem;
  let cancelledAt: number;
  let startedAt: number;

  beforeAll(async () => {
    startedAt = clock.t;
    buyer = await bidder(server, admin.token, 10_000, 'buyer');
    other = await bidder(server, admin.token, 10_000, 'other');
    sold = await createItem(server, admin.token, { itemName: '=Evil "Sword", sharp', duration: 10 });
    unsold = await createItem(server, admin.token, { itemName: 'Dusty Shield', duration: 20 });
    soldToOther = await createItem(server, admin.token, { itemName: 'Helm', duration: 30 });
    cancelled = await createItem(server, admin.token, { itemName: 'Never', duration: 40 });
    sendBid(buyer.auction, sold.itemId, 300);
    await bidCreated(buyer.auction, sold.itemId, 300, buyer.username);
    sendBid(other.auction, soldToOther.itemId, 150);
    await bidCreated(other.auction, soldToOther.itemId, 150, other.username);
    cancelledAt = clock.t;
    await call(server, 'POST', `/store/items/${cancelled.itemId}/cancel`, { token: admin.token });
    await finishAll(60_000);
  });
  afterAll(() => closeAll(buyer, other));

  it('lists every finished item, sold, unsold or cancelled (when it was cancelled), by end newest first', async () => {
    const answer = await call(server, 'GET', '/store/history', { token: council.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ result: true, page: 1, pageSize: 50, total: 4 });
    const entries = answer.body.entries as unknown[];
    expect(entries.every((e) => historyEntry.safeParse(e).success)).toBe(true);
    expect(entries).toEqual([
      { itemId: cancelled.itemId, itemName: 'Never', outcome: 'cancelled', username: null, amount: null, at: cancelledAt },
      { itemId: soldToOther.itemId, itemName: 'Helm', outcome: 'sold', username: other.username, amount: 150, at: soldToOther.endsAt },
      { itemId: unsold.itemId, itemName: 'Dusty Shield', outcome: 'unsold', username: null, amount: null, at: unsold.endsAt },
      { itemId: sold.itemId, itemName: '=Evil "Sword", sharp', outcome: 'sold', username: buyer.username, amount: 300, at: sold.endsAt },
    ]);
    // the first wire contract's `sales`: the sold entries of the page
    expect(answer.body.sales).toEqual([
      { itemId: soldToOther.itemId, itemName: 'Helm', username: other.username, amount: 150, at: soldToOther.endsAt },
      { itemId: sold.itemId, itemName: '=Evil "Sword", sharp', username: buyer.username, amount: 300, at: sold.endsAt },
    ]);
  });

  it('filters by buyer, outcome and end time (inclusive)', async () => {
    const get = async (q: string) => (await call(server, 'GET', `/store/history?${q}`, { token: council.token })).body;
    expect(await get(`user=${buyer.username.toUpperCase()}`)).toMatchObject({ total: 1, entries: [{ itemId: sold.itemId }] });
    expect(await get('outcome=unsold')).toMatchObject({ total: 1, entries: [{ itemId: unsold.itemId }] });
    expect(await get('outcome=sold')).toMatchObject({ total: 2 });
    expect(await get('outcome=cancelled')).toMatchObject({ total: 1, entries: [{ itemId: cancelled.itemId, outcome: 'cancelled' }] });
    expect(await get(`from=${unsold.endsAt}&to=${unsold.endsAt}`)).toMatchObject({ total: 1, entries: [{ itemId: unsold.itemId }] });
    expect(await get(`from=${startedAt + 15_000}&outcome=sold`)).toMatchObject({ total: 1, entries: [{ itemId: soldToOther.itemId }] });
    expect(await get(`user=${other.username}&outcome=unsold`)).toMatchObject({ total: 0, entries: [] });
    expect(await get('page=2')).toMatchObject({ total: 4, entries: [], page: 2 });
    expect(await get('outcome=&user=&from=')).toMatchObject({ total: 4 });
  });

  it.each([
    ['outcome=won', 400, STORE_ERRORS.badOutcome],
    ['from=soon', 400, STORE_ERRORS.badTime],
    ['to=-5', 400, STORE_ERRORS.badTime],
    ['from=10&to=9', 400, STORE_ERRORS.fromAfterTo],
    ['page=0', 400, STORE_ERRORS.badPage],
    ['user=nobody-here', 404, POINTS_ERRORS.unknownUser],
  ])('?%s → %i with a clear text (list and CSV alike)', async (query, status, error) => {
    for (const url of [`/store/history?${query}`, `/store/history.csv?${query}`]) {
      const answer = await call(server, 'GET', url, { token: council.token });
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual({ result: false, error });
    }
  });

  it('exports the matching entries as CSV with formula cells escaped', async () => {
    const answer = await call(server, 'GET', '/store/history.csv', { token: admin.token });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="store-history.csv"');
    expect(answer.text).toContain(`${sold.itemId},"'=Evil ""Sword"", sharp",sold,${buyer.username},300,`);
    expect(csvRecords(answer.text)).toEqual([
      ['Item id', 'Item', 'Outcome', 'Buyer', 'Price', 'Ended'],
      [String(cancelled.itemId), 'Never', 'cancelled', '', '', new Date(cancelledAt).toISOString()],
      [String(soldToOther.itemId), 'Helm', 'sold', other.username, '150', new Date(soldToOther.endsAt).toISOString()],
      [String(unsold.itemId), 'Dusty Shield', 'unsold', '', '', new Date(unsold.endsAt).toISOString()],
      [String(sold.itemId), '\'=Evil "Sword", sharp', 'sold', buyer.username, '300', new Date(sold.endsAt).toISOString()],
    ]);
    const filtered = await call(server, 'GET', '/store/history.csv?outcome=unsold', { token: admin.token });
    expect(csvRecords(filtered.text)).toHaveLength(2);
  });
});

describe('GET /store/my-history (My Bidding History)', () => {
  it('is empty for a player who has won nothing, and lists the caller’s won items newest first', async () => {
    const winner = await bidder(server, admin.token, 5_000, 'winner');
    const loser = await bidder(server, admin.token, 5_000, 'loser');
    const empty = await call(server, 'GET', '/store/my-history', { token: winner.token });
    expect(empty.body).toEqual({ result: true, sales: [], page: 1, pageSize: 50, total: 0 });

    const first = await createItem(server, admin.token, { itemName: 'Banner', duration: 10 });
    const second = await createItem(server, admin.token, { itemName: 'Cloak', duration: 20 });
    sendBid(loser.auction, first.itemId, 100);
    await bidCreated(loser.auction, first.itemId, 100, loser.username);
    sendBid(winner.auction, first.itemId, 120);
    await bidCreated(winner.auction, first.itemId, 120, winner.username);
    sendBid(winner.auction, second.itemId, 200);
    await bidCreated(winner.auction, second.itemId, 200, winner.username);
    await finishAll(30_000);

    const mine = await call(server, 'GET', '/store/my-history', { token: winner.token });
    expect(mine.body).toEqual({
      result: true,
      sales: [
        { itemId: second.itemId, itemName: 'Cloak', username: winner.username, amount: 200, at: second.endsAt },
        { itemId: first.itemId, itemName: 'Banner', username: winner.username, amount: 120, at: first.endsAt },
      ],
      page: 1,
      pageSize: 50,
      total: 2,
    });
    expect((await call(server, 'GET', '/store/my-history', { token: loser.token })).body).toMatchObject({ sales: [], total: 0 });
    expect((await call(server, 'GET', '/store/my-history?page=2', { token: winner.token })).body).toMatchObject({ sales: [], total: 2, page: 2 });
    const bad = await call(server, 'GET', '/store/my-history?page=zero', { token: winner.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ result: false, error: STORE_ERRORS.badPage });
    await expectBooksBalance(server.db);
    closeAll(winner, loser);
  });
});

describe('POST /store/items/:itemId (edit)', () => {
  it('edits any field of a scheduled item and keeps the rest', async () => {
    const item = await createItem(server, admin.token, { itemName: 'Draft', startsAt: clock.t + 60_000, imageUrl: '/uploads/a.png' });
    const answer = await call(server, 'POST', `/store/items/${item.itemId}`, {
      token: council.token,
      body: { itemName: '  Final  ', description: 'Shiny', start_price: 250, startsAt: clock.t + 120_000, duration: 300, eligibility: { ranks: ['council'] }, imageUrl: null },
    });
    expect(answer.status).toBe(200);
    expect(storeItem.safeParse(answer.body.item).success).toBe(true);
    expect(answer.body.item).toMatchObject({
      itemId: item.itemId,
      itemName: 'Final',
      description: 'Shiny',
      imageUrl: null,
      start_price: 250,
      amount: 250,
      minIncrement: item.minIncrement,
      state: 'scheduled',
      startsAt: clock.t + 120_000,
      endsAt: clock.t + 120_000 + 300_000,
      eligibility: { ranks: ['council'] },
    });
    const partial = await call(server, 'POST', `/store/items/${item.itemId}`, { token: admin.token, body: { minIncrement: 7 } });
    expect(partial.body.item).toMatchObject({ itemName: 'Final', minIncrement: 7, startsAt: clock.t + 120_000 });
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ name: 'Final', min_increment: 7, start_price: 250, duration_s: 300, state: 'scheduled' });
  });

  it('a start moved to now puts it live at once, with BIDDING_STARTED', async () => {
    const watcher = await bidder(server, admin.token, 0, 'watch');
    const item = await createItem(server, admin.token, { startsAt: clock.t + 60_000, duration: 100 });
    const answer = await call(server, 'POST', `/store/items/${item.itemId}`, { token: council.token, body: { startsAt: clock.t } });
    expect(answer.body.item).toMatchObject({ state: 'live', startsAt: clock.t, endsAt: clock.t + 100_000 });
    expect(await watcher.auction.nextOf('BIDDING_STARTED')).toMatchObject({ data: { itemId: item.itemId, endsAt: clock.t + 100_000 } });
    closeAll(watcher);
  });

  it('409 once the item is live, finished or cancelled; 404 for an unknown one; nothing changes', async () => {
    const live = await createItem(server, admin.token);
    const cancelled = await createItem(server, admin.token, { startsAt: clock.t + 60_000 });
    await call(server, 'POST', `/store/items/${cancelled.itemId}/cancel`, { token: admin.token });
    for (const item of [live, cancelled]) {
      const answer = await call(server, 'POST', `/store/items/${item.itemId}`, { token: council.token, body: { itemName: 'Changed' } });
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ result: false, error: STORE_ERRORS.notEditable });
      expect((await itemRow(server.db, item.itemId)).name).toBe('Golden Sword');
    }
    for (const id of ['999999', 'abc', '0']) {
      const answer = await call(server, 'POST', `/store/items/${id}`, { token: council.token, body: { itemName: 'x' } });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ result: false, error: STORE_ERRORS.unknownItem });
    }
  });

  it.each([
    [{ itemName: '' }, STORE_ERRORS.itemNameRequired],
    [{ itemName: 'x'.repeat(101) }, STORE_ERRORS.itemNameTooLong],
    [{ imageUrl: 'javascript:alert(1)' }, STORE_ERRORS.imageUrl],
    [{ start_price: -1 }, STORE_ERRORS.startPrice],
    [{ minIncrement: 0 }, STORE_ERRORS.minIncrement],
    [{ duration: 5 }, STORE_ERRORS.duration],
    [{ extendWindow: 3601 }, STORE_ERRORS.extendWindow],
    [{ maxExtensions: -1 }, STORE_ERRORS.maxExtensions],
    [{ eligibility: { ranks: ['king'] } }, STORE_ERRORS.eligibility],
    [{ startsAt: 'later' }, STORE_ERRORS.startsAt],
  ])('refuses %j with 400 and its text, changing nothing', async (body, error) => {
    const item = await createItem(server, admin.token, { startsAt: clock.t + 60_000 });
    const answer = await call(server, 'POST', `/store/items/${item.itemId}`, { token: council.token, body });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error });
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ name: 'Golden Sword', state: 'scheduled' });
  });

  it('refuses a start more than the tolerance in the past', async () => {
    const item = await createItem(server, admin.token, { startsAt: clock.t + 60_000 });
    const answer = await call(server, 'POST', `/store/items/${item.itemId}`, { token: council.token, body: { startsAt: clock.t - STARTS_AT_PAST_TOLERANCE_MS - 1 } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error: STORE_ERRORS.startsAt });
  });
});

describe('POST /store/items/:itemId/duplicate', () => {
  it('copies an item of any state as a new one, live now or scheduled at startsAt', async () => {
    const original = await createItem(server, admin.token, {
      itemName: 'Relic',
      description: 'Old',
      imageUrl: '/uploads/relic.png',
      start_price: 40,
      minIncrement: 4,
      duration: 10,
      extendWindow: 5,
      maxExtensions: 2,
      eligibility: { groups: ['Vanguard'] },
    });
    await finishAll(20_000);
    const copy = await call(server, 'POST', `/store/items/${original.itemId}/duplicate`, { token: council.token, body: {} });
    expect(copy.status).toBe(200);
    const same = { itemName: 'Relic (copy)', description: 'Old', imageUrl: '/uploads/relic.png', start_price: 40, minIncrement: 4, extendWindow: 5, maxExtensions: 2, eligibility: { groups: ['Vanguard'] } };
    expect(copy.body.item).toMatchObject({ ...same, state: 'live', startsAt: clock.t, endsAt: clock.t + 10_000, amount: 40, username: 'server', extensions: 0 });
    expect((copy.body.item as StoreItem).itemId).not.toBe(original.itemId);

    const later = await call(server, 'POST', `/store/items/${original.itemId}/duplicate`, { token: admin.token, body: { startsAt: clock.t + 3_600_000 } });
    expect(later.body.item).toMatchObject({ ...same, state: 'scheduled', startsAt: clock.t + 3_600_000 });
    // without a body at all
    const bare = await call(server, 'POST', `/store/items/${original.itemId}/duplicate`, { token: admin.token });
    expect(bare.status).toBe(200);
  });

  it("names the copy after the original with ' (copy)', shortened to fit the name's maximum length", async () => {
    const copy = await call(server, 'POST', `/store/items/${(await createItem(server, admin.token, { itemName: 'Golden Banner' })).itemId}/duplicate`, { token: council.token, body: {} });
    expect(copy.body.item).toMatchObject({ itemName: 'Golden Banner (copy)' });
    const ofCopy = await call(server, 'POST', `/store/items/${(copy.body.item as StoreItem).itemId}/duplicate`, { token: council.token, body: {} });
    expect(ofCopy.body.item).toMatchObject({ itemName: 'Golden Banner (copy) (copy)' });

    // a name at the maximum: shortened by whole characters (the emoji is not split into half a pair), no space left before the suffix
    const long = `${'a'.repeat(ITEM_NAME_MAX - 8)}👑${'b'.repeat(6)}`;
    expect(long).toHaveLength(ITEM_NAME_MAX);
    const longCopy = await call(server, 'POST', `/store/items/${(await createItem(server, admin.token, { itemName: long })).itemId}/duplicate`, { token: council.token, body: {} });
    expect(longCopy.status).toBe(200);
    expect((longCopy.body.item as StoreItem).itemName).toBe(`${'a'.repeat(ITEM_NAME_MAX - 8)} (copy)`);
    expect(copyName('x'.repeat(ITEM_NAME_MAX))).toBe(`${'x'.repeat(ITEM_NAME_MAX - 7)} (copy)`);
    expect(copyName(`${'x'.repeat(ITEM_NAME_MAX - 8)} ${'y'.repeat(7)}`)).toBe(`${'x'.repeat(ITEM_NAME_MAX - 8)} (copy)`);
  });

  it('404 for an unknown item, 400 for a bad or past start', async () => {
    const unknown = await call(server, 'POST', '/store/items/999999/duplicate', { token: council.token, body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ result: false, error: STORE_ERRORS.unknownItem });
    const item = await createItem(server, admin.token);
    for (const startsAt of ['soon', 1.5, clock.t - STARTS_AT_PAST_TOLERANCE_MS - 1]) {
      const answer = await call(server, 'POST', `/store/items/${item.itemId}/duplicate`, { token: council.token, body: { startsAt } });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ result: false, error: STORE_ERRORS.startsAt });
    }
  });
});

describe('POST /store/uploads and GET /uploads/…', () => {
  it.each(Object.entries(IMAGES))('stores a %s image (type by content, not by name) and serves it back, cached and never sniffed', async (kind, bytes) => {
    const answer = await upload(server, '/store/uploads', council.token, bytes, 'picture.txt', 'text/plain');
    expect(answer.status).toBe(200);
    const url = answer.body.url as string;
    const ext = kind === 'jpeg' ? 'jpg' : kind;
    expect(url).toMatch(new RegExp(`^/uploads/[a-f0-9]{32}\\.${ext}$`));
    expect(fs.existsSync(path.join(server.config.dataDir, url))).toBe(true);

    const served = await fetch(server.httpUrl + url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe(`image/${kind}`);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);

    // the URL is one an item may use
    const item = await createItem(server, admin.token, { imageUrl: url });
    expect(item.imageUrl).toBe(url);
  });

  it('refuses a file that is not an image by its content, even named and typed as one', async () => {
    const html = await upload(server, '/store/uploads', council.token, '<svg onload="alert(1)"></svg>', 'evil.png', 'image/png');
    expect(html.status).toBe(400);
    expect(html.body).toEqual({ result: false, error: STORE_ERRORS.uploadType });
    const truncated = await upload(server, '/store/uploads', council.token, IMAGES.png.subarray(0, 5), 'x.png', 'image/png');
    expect(truncated.body).toEqual({ result: false, error: STORE_ERRORS.uploadType });
    expect(fs.readdirSync(path.join(server.config.dataDir, 'uploads')).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('refuses an image over 2 MB, and a request without a file', async () => {
    const big = Buffer.concat([IMAGES.png, Buffer.alloc(UPLOAD_MAX_BYTES)]);
    const before = fs.readdirSync(path.join(server.config.dataDir, 'uploads')).length;
    const answer = await upload(server, '/store/uploads', council.token, big, 'big.png', 'image/png');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error: STORE_ERRORS.uploadTooLarge });
    expect(fs.readdirSync(path.join(server.config.dataDir, 'uploads')).length).toBe(before);
    const exactly = await upload(server, '/store/uploads', council.token, Buffer.concat([IMAGES.png, Buffer.alloc(UPLOAD_MAX_BYTES - IMAGES.png.length)]), 'max.png', 'image/png');
    expect(exactly.status).toBe(200);

    const json = await call(server, 'POST', '/store/uploads', { token: council.token, body: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ result: false, error: STORE_ERRORS.uploadMissing });
    const empty = await upload(server, '/store/uploads', council.token, '', 'empty.png', 'image/png');
    expect(empty.body).toEqual({ result: false, error: STORE_ERRORS.uploadMissing });
  });

  it('an unknown upload is a JSON 404, never the client page; nothing outside the uploads is reachable', async () => {
    fs.writeFileSync(path.join(server.config.dataDir, 'uploads', 'notes.txt'), 'private');
    for (const url of ['/uploads/0123456789abcdef0123456789abcdef.png', '/uploads/notes.txt', '/uploads/missing', '/uploads/', '/uploads/..%2Fkingdom.db', '/uploads/%2e%2e/kingdom.db']) {
      const answer = await call(server, 'GET', url);
      expect(answer.status, url).toBe(404);
      expect(answer.body, url).toEqual({ result: false, error: 'There is no API route at this address.' });
    }
  });
});
