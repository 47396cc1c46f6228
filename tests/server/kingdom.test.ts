import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, kingdomSettings, SETTINGS_ERRORS } from '../../src/protocol/settings';
import { STORE_ERRORS } from '../../src/protocol/store';
import { bidCreated, bidder, createItem, errorFor, expectBooksBalance, ManualClock, sendBid } from './auction-helpers';
import { call, signedIn, startTestServer, leadershipServer } from './helpers';

const clock = new ManualClock();
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let council: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer({ now: clock.now }));
});
afterAll(() => server.close());

const save = (body: unknown, token = council.token) => call(server, 'POST', '/kingdom/settings', { token, body });

describe('kingdom settings', () => {
  it('a fresh database has the defaults; any signed-in player may read them', async () => {
    const player = await signedIn(server);
    const answer = await call(server, 'GET', '/kingdom/settings', { token: player.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: true, settings: DEFAULT_SETTINGS });
    expect(kingdomSettings.safeParse((answer.body as { settings: unknown }).settings).success).toBe(true);
  });

  it('changes only what the body names and keeps it', async () => {
    const first = await save({ kingdomName: '  Kingdom of Ash  ', kingdomNumber: 1234, defaults: { duration: 7200, maxExtensions: 3 } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      result: true,
      settings: { ...DEFAULT_SETTINGS, kingdomName: 'Kingdom of Ash', kingdomNumber: 1234, defaults: { ...DEFAULT_SETTINGS.defaults, duration: 7200, maxExtensions: 3 } },
    });
    const second = await save({ defaults: { minIncrement: 25 } }, admin.token);
    expect(second.body).toMatchObject({ settings: { kingdomName: 'Kingdom of Ash', kingdomNumber: 1234, defaults: { duration: 7200, minIncrement: 25, extendWindow: 60, maxExtensions: 3 } } });
    const cleared = await save({ kingdomNumber: null });
    expect(cleared.body).toMatchObject({ settings: { kingdomNumber: null, kingdomName: 'Kingdom of Ash' } });
    const read = await call(server, 'GET', '/kingdom/settings', { token: council.token });
    expect(read.body).toEqual(cleared.body);
    // the public pages read the name (and number) without signing in, and nothing more
    const named = await call(server, 'GET', '/kingdom/name');
    expect(named.status).toBe(200);
    expect(named.body).toEqual({ result: true, kingdomName: 'Kingdom of Ash', kingdomNumber: null });
  });

  it.each([
    [{ kingdomName: 'x'.repeat(51) }, SETTINGS_ERRORS.kingdomName],
    [{ kingdomName: 5 }, SETTINGS_ERRORS.kingdomName],
    [{ kingdomNumber: 0 }, SETTINGS_ERRORS.kingdomNumber],
    [{ kingdomNumber: 1.5 }, SETTINGS_ERRORS.kingdomNumber],
    [{ kingdomNumber: '12' }, SETTINGS_ERRORS.kingdomNumber],
    [{ kingdomNumber: 100_000 }, SETTINGS_ERRORS.kingdomNumber],
    [{ storeOpen: 'no' }, SETTINGS_ERRORS.storeOpen],
    [{ defaults: 'x' }, SETTINGS_ERRORS.defaults],
    [{ defaults: { duration: 5 } }, STORE_ERRORS.duration],
    [{ defaults: { minIncrement: 0 } }, STORE_ERRORS.minIncrement],
    [{ defaults: { extendWindow: -1 } }, STORE_ERRORS.extendWindow],
    [{ defaults: { maxExtensions: 1001 } }, STORE_ERRORS.maxExtensions],
    [{}, SETTINGS_ERRORS.nothingToChange],
    [{ defaults: {} }, SETTINGS_ERRORS.nothingToChange],
  ])('refuses %j with a clear 400 and changes nothing', async (body, error) => {
    const before = await call(server, 'GET', '/kingdom/settings', { token: council.token });
    const answer = await save(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error });
    expect((await call(server, 'GET', '/kingdom/settings', { token: council.token })).body).toEqual(before.body);
  });
});

describe('a closed store', () => {
  it('answers every bid with BID_OPEN_ERROR (nothing stored, no one hears of it) until it opens again', async () => {
    const item = await createItem(server, admin.token, { duration: 600 });
    const alice = await bidder(server, admin.token, 5_000, 'alice');
    const bob = await bidder(server, admin.token, 5_000, 'bob');
    sendBid(alice.auction, item.itemId, 100);
    await bidCreated(alice.auction, item.itemId, 100, alice.username);

    expect((await save({ storeOpen: false })).body).toMatchObject({ settings: { storeOpen: false } });
    const refused = sendBid(bob.auction, item.itemId, 500);
    expect(await errorFor(bob.auction, refused)).toEqual({ type: 'ERROR', error_type: 'BID_OPEN_ERROR', data: { itemId: item.itemId, requestId: refused } });
    // an unknown item too: the store is closed for every bid
    const unknown = sendBid(bob.auction, 999_999, 500);
    expect(await errorFor(bob.auction, unknown)).toMatchObject({ error_type: 'BID_OPEN_ERROR' });
    // the same requestId keeps its first answer after the store opens
    await save({ storeOpen: true });
    sendBid(bob.auction, item.itemId, 500, refused);
    expect(await errorFor(bob.auction, refused)).toMatchObject({ error_type: 'BID_OPEN_ERROR' });
    // the store's state reached every board, and nothing of the refused bids did
    expect(await alice.auction.nextOf('STORE_STATE')).toMatchObject({ data: { state: 'closed' } });
    expect(await alice.auction.nextOf('STORE_STATE')).toMatchObject({ data: { state: 'open' } });
    await server.auction.exclusive(async () => undefined);
    expect(await alice.auction.roundTrip()).toEqual({ type: 'ERROR', error_type: 'WS_ERROR' });
    const row = await server.db.selectFrom('items').selectAll().where('id', '=', item.itemId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ leader_id: alice.id, amount: 100 });

    // open again: a new bid is taken
    sendBid(bob.auction, item.itemId, 500);
    await bidCreated(alice.auction, item.itemId, 500, bob.username);
    await expectBooksBalance(server.db);
    for (const b of [alice, bob]) {
      b.auction.close();
      b.user.close();
    }
  });
});

describe('groups', () => {
  it('creates, lists with members, adds and removes members, deletes; the player sees their own groups', async () => {
    const player = await signedIn(server, 'member');
    const created = await call(server, 'POST', '/kingdom/groups', { token: council.token, body: { name: '  Vanguard ' } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ result: true, group: { name: 'Vanguard', members: [] } });
    await call(server, 'POST', '/kingdom/groups', { token: council.token, body: { name: 'Archers' } });

    const dup = await call(server, 'POST', '/kingdom/groups', { token: admin.token, body: { name: 'VANGUARD' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ result: false, error: SETTINGS_ERRORS.groupExists });

    const added = await call(server, 'POST', '/kingdom/groups/vanguard/members', { token: council.token, body: { username: player.username.toUpperCase(), member: true } });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ result: true, group: { name: 'Vanguard', members: [player.username] } });
    // adding twice changes nothing
    const again = await call(server, 'POST', '/kingdom/groups/Vanguard/members', { token: council.token, body: { username: player.username, member: true } });
    expect(again.body).toEqual(added.body);
    await call(server, 'POST', '/kingdom/groups/Archers/members', { token: council.token, body: { username: admin.username, member: true } });

    const list = await call(server, 'GET', '/kingdom/groups', { token: council.token });
    expect(list.body).toEqual({ result: true, groups: [{ name: 'Archers', members: [admin.username] }, { name: 'Vanguard', members: [player.username] }] });
    expect((await call(server, 'GET', '/account/groups', { token: player.token })).body).toEqual({ result: true, groups: ['Vanguard'] });

    const removed = await call(server, 'POST', '/kingdom/groups/Vanguard/members', { token: council.token, body: { username: player.username, member: false } });
    expect(removed.body).toEqual({ result: true, group: { name: 'Vanguard', members: [] } });
    expect((await call(server, 'GET', '/account/groups', { token: player.token })).body).toEqual({ result: true, groups: [] });

    await call(server, 'POST', '/kingdom/groups/Vanguard/members', { token: council.token, body: { username: player.username, member: true } });
    const deleted = await call(server, 'POST', `/kingdom/groups/${encodeURIComponent('Vanguard')}/delete`, { token: council.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ result: true });
    expect((await call(server, 'GET', '/account/groups', { token: player.token })).body).toEqual({ result: true, groups: [] });
    expect((await call(server, 'GET', '/kingdom/groups', { token: council.token })).body).toEqual({ result: true, groups: [{ name: 'Archers', members: [admin.username] }] });
  });

  it('group membership decides eligibility for items limited to the group', async () => {
    const item = await createItem(server, admin.token, { eligibility: { groups: ['Knights'] }, duration: 600 });
    await call(server, 'POST', '/kingdom/groups', { token: council.token, body: { name: 'Knights' } });
    const knight = await bidder(server, admin.token, 1_000, 'knight');
    const refused = sendBid(knight.auction, item.itemId, 100);
    expect(await errorFor(knight.auction, refused)).toMatchObject({ error_type: 'BID_NOT_ALLOWED' });
    await call(server, 'POST', '/kingdom/groups/Knights/members', { token: council.token, body: { username: knight.username, member: true } });
    sendBid(knight.auction, item.itemId, 100);
    await bidCreated(knight.auction, item.itemId, 100, knight.username);
    knight.auction.close();
    knight.user.close();
  });

  it.each([
    ['POST', '/kingdom/groups', { name: '' }, 400, SETTINGS_ERRORS.groupName],
    ['POST', '/kingdom/groups', { name: '   ' }, 400, SETTINGS_ERRORS.groupName],
    ['POST', '/kingdom/groups', { name: 'x'.repeat(51) }, 400, SETTINGS_ERRORS.groupName],
    ['POST', '/kingdom/groups', { name: 7 }, 400, SETTINGS_ERRORS.groupName],
    ['POST', '/kingdom/groups', {}, 400, SETTINGS_ERRORS.groupName],
    ['POST', '/kingdom/groups/Nobody/delete', undefined, 404, SETTINGS_ERRORS.unknownGroup],
    ['POST', '/kingdom/groups/Nobody/members', { username: 'x', member: true }, 404, SETTINGS_ERRORS.unknownGroup],
    ['POST', '/kingdom/groups/Archers/members', { username: 'no-such-player', member: true }, 404, SETTINGS_ERRORS.unknownUser],
    ['POST', '/kingdom/groups/Archers/members', { username: '', member: true }, 400, SETTINGS_ERRORS.usernameRequired],
    ['POST', '/kingdom/groups/Archers/members', { username: 'x', member: 'yes' }, 400, SETTINGS_ERRORS.member],
    ['POST', '/kingdom/groups/Archers/members', { username: 'x' }, 400, SETTINGS_ERRORS.member],
  ])('%s %s %j → %i with a clear text', async (method, url, body, status, error) => {
    const answer = await call(server, method, url, { token: council.token, body });
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ result: false, error });
  });
});
