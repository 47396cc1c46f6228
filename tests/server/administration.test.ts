import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS_PAGE_SIZE, ADMIN_ERRORS, AUDIT_ACTIONS, type AdminUser, type AuditEntry } from '../../src/protocol/admin';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { WS_CLOSE_UNAUTHENTICATED } from '../../src/protocol/socket';
import { bidCreated, bidder, createItem, expectBooksBalance, grant, sendBid } from './auction-helpers';
import { csvRecords, upload } from './back-office-helpers';
import { authedSocket, call, leadershipServer, login, PASSWORD, signedIn } from './helpers';

type Setup = Awaited<ReturnType<typeof leadershipServer>>;
let server: Setup['server'];
let admin: Setup['admin'];
let council: Setup['council'];
let player: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer());
  player = await signedIn(server, 'player');
});
afterAll(() => server.close());

const accounts = async (query = '', token = admin.token) => call(server, 'GET', `/accounts${query}`, { token });
const audit = async (query = '') => {
  const answer = await call(server, 'GET', `/audit${query}`, { token: admin.token });
  expect(answer.status).toBe(200);
  return answer.body as { total: number; entries: AuditEntry[] };
};
async function usersById() {
  return server.db.selectFrom('users').select(['id', 'username', 'balance', 'reserved', 'rank']).orderBy('id').execute();
}

describe('disabling an account during a live auction', () => {
  it('closes its sockets at once, stops its bids and changes nothing else; it cannot sign in until enabled', async () => {
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 10 });
    const alice = await bidder(server, admin.token, 1_000, 'alice');
    const bob = await bidder(server, admin.token, 1_000, 'bob');
    sendBid(alice.auction, item.itemId, 100);
    await bidCreated(bob.auction, item.itemId, 100, alice.username);
    const before = await usersById();
    const itemBefore = await server.db.selectFrom('items').selectAll().where('id', '=', item.itemId).executeTakeFirstOrThrow();

    const answer = await call(server, 'POST', `/accounts/${alice.username}/disable`, { token: admin.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ result: true, user: { username: alice.username, disabled: true, balance: 1_000 } });
    // both of her sockets close with 4401 without her sending anything
    expect((await alice.auction.closed).code).toBe(WS_CLOSE_UNAUTHENTICATED);
    expect((await alice.user.closed).code).toBe(WS_CLOSE_UNAUTHENTICATED);
    // nobody else's socket closed, no balance, reservation or item changed
    expect(bob.auction.isOpen && bob.user.isOpen).toBe(true);
    expect(await usersById()).toEqual(before);
    expect(await server.db.selectFrom('items').selectAll().where('id', '=', item.itemId).executeTakeFirstOrThrow()).toEqual(itemBefore);

    // her token works nowhere: REST, a new socket; she cannot sign in again
    expect((await call(server, 'POST', '/auth/me', { token: alice.token })).status).toBe(401);
    const again = await authedSocket(server.auctionUrl, alice.token);
    expect(await again.nextOf('ERROR')).toMatchObject({ error_type: 'UNAUTHENTICATED' });
    expect((await again.closed).code).toBe(WS_CLOSE_UNAUTHENTICATED);
    const email = `${alice.username}@example.com`;
    const refused = await call(server, 'POST', '/auth/login', { body: { email, password: PASSWORD } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ result: false, error: ADMIN_ERRORS.disabled });
    // a wrong password still says only that: no hint the account exists and is disabled
    expect((await call(server, 'POST', '/auth/login', { body: { email, password: 'Wr0ng!pass' } })).status).toBe(401);

    // the auction goes on for everyone else
    sendBid(bob.auction, item.itemId, 110);
    await bidCreated(bob.auction, item.itemId, 110, bob.username);
    await expectBooksBalance(server.db);

    // enabled: she signs in and bids again
    const enabled = await call(server, 'POST', `/accounts/${alice.username}/enable`, { token: admin.token });
    expect(enabled.body).toMatchObject({ result: true, user: { username: alice.username, disabled: false } });
    const token = await login(server, email);
    const socket = await authedSocket(server.auctionUrl, token);
    await socket.nextOf('HISTORY');
    sendBid(socket, item.itemId, 120);
    await bidCreated(socket, item.itemId, 120, alice.username);
    await expectBooksBalance(server.db);
    for (const s of [socket, bob.auction, bob.user]) s.close();
  });

  it('revokes sessions: every socket closes, the account may sign in again', async () => {
    const carol = await bidder(server, admin.token, 0, 'carol');
    const second = await login(server, `${carol.username}@example.com`);
    const answer = await call(server, 'POST', `/accounts/${carol.username}/revoke-sessions`, { token: admin.token });
    expect(answer.body).toMatchObject({ result: true, revoked: 2, user: { username: carol.username, disabled: false } });
    expect((await carol.auction.closed).code).toBe(WS_CLOSE_UNAUTHENTICATED);
    expect((await carol.user.closed).code).toBe(WS_CLOSE_UNAUTHENTICATED);
    expect((await call(server, 'POST', '/auth/me', { token: second })).status).toBe(401);
    expect((await call(server, 'POST', '/auth/me', { token: await login(server, `${carol.username}@example.com`) })).status).toBe(200);
  });

  it('refuses to disable your own account or an unknown one; disabling twice changes nothing', async () => {
    const self = await call(server, 'POST', `/accounts/${admin.username}/disable`, { token: admin.token });
    expect(self.status).toBe(409);
    expect(self.body).toEqual({ result: false, error: ADMIN_ERRORS.selfDisable });
    expect((await call(server, 'POST', '/accounts/nobody-at-all/disable', { token: admin.token })).status).toBe(404);
    const dave = await signedIn(server, 'dave');
    await call(server, 'POST', `/accounts/${dave.username}/disable`, { token: admin.token });
    const entries = (await audit(`?action=account.disable`)).total;
    const twice = await call(server, 'POST', `/accounts/${dave.username}/disable`, { token: admin.token });
    expect(twice.body).toMatchObject({ result: true, user: { disabled: true } });
    expect((await audit(`?action=account.disable`)).total).toBe(entries);
  });
});

describe('GET accounts', () => {
  it('lists every account with rank, balance, governor, sign-up and last seen; searches by name, email or governor id', async () => {
    const erin = await signedIn(server, 'erin');
    await grant(server, admin.token, erin.username, 250);
    const all = await accounts();
    expect(all.status).toBe(200);
    const body = all.body as { total: number; users: AdminUser[] };
    expect(body.total).toBeGreaterThanOrEqual(3);
    const row = body.users.find((u) => u.username === erin.username);
    expect(row).toMatchObject({ email: erin.email, governorId: erin.playerid, rank: 'user', balance: 250, disabled: false });
    expect(row?.createdAt).toBeGreaterThan(0);
    // she signed in: seen
    expect(row?.lastSeenAt).not.toBeNull();

    const byName = (await accounts(`?q=${erin.username.slice(0, 6).toUpperCase()}`)).body as { users: AdminUser[] };
    expect(byName.users.map((u) => u.username)).toContain(erin.username);
    const byEmail = (await accounts(`?q=${encodeURIComponent(erin.email)}`)).body as { users: AdminUser[]; total: number };
    expect(byEmail.users.map((u) => u.username)).toEqual([erin.username]);
    const byGovernor = (await accounts(`?q=${erin.playerid}`)).body as { users: AdminUser[] };
    expect(byGovernor.users.map((u) => u.username)).toEqual([erin.username]);
    const councils = (await accounts('?rank=council')).body as { users: AdminUser[] };
    expect(councils.users.map((u) => u.username)).toEqual([council.username]);
    // % and _ are themselves, not wildcards
    expect(((await accounts('?q=%25')).body as { total: number }).total).toBe(0);
  });

  it('pages 50 at a time and refuses bad input with a clear error', async () => {
    const page = (await accounts('?page=1')).body as { pageSize: number; page: number };
    expect(page).toMatchObject({ page: 1, pageSize: ACCOUNTS_PAGE_SIZE });
    expect((await accounts('?page=0')).body).toEqual({ result: false, error: ADMIN_ERRORS.badPage });
    expect((await accounts('?rank=emperor')).body).toEqual({ result: false, error: ADMIN_ERRORS.badRank });
    expect((await accounts(`?q=${'x'.repeat(65)}`)).body).toEqual({ result: false, error: ADMIN_ERRORS.badQuery });
  });

  it('notes last seen at most once a minute', async () => {
    const frank = await signedIn(server, 'frank');
    await call(server, 'POST', '/auth/me', { token: frank.token });
    const first = await server.db.selectFrom('users').select('last_seen_at').where('username', '=', frank.username).executeTakeFirstOrThrow();
    expect(first.last_seen_at).not.toBeNull();
    await server.db.updateTable('users').set({ last_seen_at: 5 }).where('username', '=', frank.username).execute();
    // the server remembers it wrote a moment ago: no second write within the minute
    await call(server, 'POST', '/auth/me', { token: frank.token });
    const second = await server.db.selectFrom('users').select('last_seen_at').where('username', '=', frank.username).executeTakeFirstOrThrow();
    expect(second.last_seen_at).toBe(5);
  });
});

describe('kingdoms', () => {
  it('adds, lists, edits and removes the kingdoms the site knows; ours is the settings’ number', async () => {
    await call(server, 'POST', '/kingdom/settings', { token: admin.token, body: { kingdomNumber: 3328 } });
    const added = await call(server, 'POST', '/kingdoms', { token: admin.token, body: { number: 3328, name: ' Home ', camp: 'Blue' } });
    expect(added.body).toEqual({ result: true, kingdom: { number: 3328, name: 'Home', camp: 'Blue', ours: true } });
    await call(server, 'POST', '/kingdoms', { token: admin.token, body: { number: 1500, name: 'Rivals' } });
    expect((await call(server, 'POST', '/kingdoms', { token: admin.token, body: { number: 1500, name: 'Again' } })).body).toEqual({ result: false, error: ADMIN_ERRORS.kingdomExists });
    const edited = await call(server, 'PUT', '/kingdoms/1500', { token: admin.token, body: { camp: 'Red' } });
    expect(edited.body).toEqual({ result: true, kingdom: { number: 1500, name: 'Rivals', camp: 'Red', ours: false } });
    // council reads them (seasons, the scans' kingdom column)
    const list = await call(server, 'GET', '/kingdoms', { token: council.token });
    expect(list.body).toEqual({
      result: true,
      kingdoms: [
        { number: 1500, name: 'Rivals', camp: 'Red', ours: false },
        { number: 3328, name: 'Home', camp: 'Blue', ours: true },
      ],
    });
    expect((await call(server, 'DELETE', '/kingdoms/1500', { token: admin.token })).body).toEqual({ result: true });
    expect((await call(server, 'DELETE', '/kingdoms/1500', { token: admin.token })).body).toEqual({ result: false, error: ADMIN_ERRORS.unknownKingdom });
  });

  it('refuses bad kingdoms with a clear error', async () => {
    const bad = async (body: unknown) => (await call(server, 'POST', '/kingdoms', { token: admin.token, body })).body;
    expect(await bad({ number: 0, name: 'x' })).toEqual({ result: false, error: ADMIN_ERRORS.badKingdomNumber });
    expect(await bad({ number: 1.5, name: 'x' })).toEqual({ result: false, error: ADMIN_ERRORS.badKingdomNumber });
    expect(await bad({ number: 12, name: '  ' })).toEqual({ result: false, error: ADMIN_ERRORS.kingdomNameRequired });
    expect(await bad({ number: 12, name: 'x'.repeat(61) })).toEqual({ result: false, error: ADMIN_ERRORS.kingdomNameRequired });
    expect(await bad({ number: 12, name: 'ok', camp: 'c'.repeat(41) })).toEqual({ result: false, error: ADMIN_ERRORS.badCamp });
    expect((await call(server, 'PUT', '/kingdoms/abc', { token: admin.token, body: { name: 'x' } })).body).toEqual({ result: false, error: ADMIN_ERRORS.badKingdomNumber });
    expect((await call(server, 'PUT', '/kingdoms/4242', { token: admin.token, body: { name: 'x' } })).status).toBe(404);
  });
});

describe('the admin dashboard', () => {
  it('shows accounts by rank, sockets, bids in the last hour, live items, last scan, bots, database size, version and uptime', async () => {
    const socket = await authedSocket(server.auctionUrl, player.token);
    await socket.nextOf('HISTORY');
    const answer = await call(server, 'GET', '/admin/dashboard', { token: admin.token });
    expect(answer.status).toBe(200);
    const d = (answer.body as { dashboard: Record<string, unknown> }).dashboard;
    const ranks = await server.db.selectFrom('users').select('rank').execute();
    expect(d.accountsByRank).toEqual({ admin: 1, council: 1, user: ranks.length - 2 });
    expect((d.sockets as { auction: number }).auction).toBe(server.hub.count('auction'));
    expect((d.sockets as { auction: number }).auction).toBeGreaterThanOrEqual(1);
    const bids = await server.db.selectFrom('bids').select('id').execute();
    expect(d.bidsLastHour).toBe(bids.length);
    expect(d.liveItems).toBe((await server.db.selectFrom('items').select('id').where('state', '=', 'live').execute()).length);
    expect(d.botsOnline).toBe(0);
    expect(d.databaseBytes as number).toBeGreaterThan(0);
    expect(d.version).toBe('0.1.0');
    expect(d.uptimeSeconds as number).toBeGreaterThanOrEqual(0);
    socket.close();
  });
});

describe('every new route checks the rank on the server', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/accounts'],
    ['POST', '/accounts/NAME/disable'],
    ['POST', '/accounts/NAME/enable'],
    ['POST', '/accounts/NAME/revoke-sessions'],
    ['POST', '/kingdoms', { number: 77, name: 'x' }],
    ['PUT', '/kingdoms/77', { name: 'y' }],
    ['DELETE', '/kingdoms/77'],
    ['GET', '/admin/dashboard'],
    ['GET', '/audit'],
    ['GET', '/audit.csv'],
  ];
  it.each(routes)('%s %s: council and player get 403, nobody signed in 401', async (method, path, body) => {
    const url = path.replace('NAME', player.username);
    for (const token of [council.token, player.token]) {
      const answer = await call(server, method, url, { token, body });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ result: false, error: AUTH_ERRORS.forbidden });
    }
    expect((await call(server, method, url, { body })).status).toBe(401);
    expect((await call(server, 'POST', '/auth/me', { token: player.token })).status).toBe(200);
  });
  it('GET kingdoms: a player gets 403 (leadership reads them)', async () => {
    expect((await call(server, 'GET', '/kingdoms', { token: player.token })).status).toBe(403);
  });
});

describe('the audit log', () => {
  it('records every leadership action, with who, what and when, filterable and exported as CSV', async () => {
    const start = (await audit()).total;
    const a = admin.token;
    const c = council.token;
    const target = await signedIn(server, 'target');
    const ok = async (method: string, url: string, token: string, body?: unknown) => {
      const answer = await call(server, method, url, { token, body });
      expect(answer.status, `${method} ${url}: ${answer.text}`).toBe(200);
      return answer.body;
    };

    await ok('POST', `/admin/users/${target.username}/rank`, a, { rank: 'council' });
    await ok('POST', `/admin/users/${target.username}/rank`, a, { rank: 'user' });
    await ok('POST', '/points/transactions', c, { username: target.username, delta: 500, reason: 'war effort' });
    await ok('POST', '/points/transactions', c, { username: target.username, delta: -100, reason: 'correction' });
    const bulk = await upload(server, '/points/bulk/preview', c, `player,amount,reason\n${target.username},25,bonus\n`, 'bulk.csv', 'text/csv');
    expect(bulk.status).toBe(200);
    await ok('POST', '/points/bulk/apply', c, { token: (bulk.body as { token: string }).token });
    const scan = await upload(server, '/scans/preview', a, 'ID,Name,Power,Alliance\n90001,Alpha,1000,K1\n90002,Beta,2000,K2\n', 'scan-2025-01-02.csv', 'text/csv');
    expect(scan.status, scan.text).toBe(200);
    const applied = (await ok('POST', '/scans/apply', a, { token: (scan.body as { preview: { token: string } }).preview.token })) as { scan: { id: number } };
    await ok('DELETE', `/scans/${applied.scan.id}`, a);
    const item = (await ok('POST', '/store/items', c, { itemName: 'Audit Sword', start_price: 10, minIncrement: 1, duration: 600, extendWindow: 0, maxExtensions: 0, startsAt: Date.now() + 3_600_000 })) as {
      item: { itemId: number };
    };
    await ok('POST', `/store/items/${item.item.itemId}`, c, { itemName: 'Audit Sword II' });
    const copy = (await ok('POST', `/store/items/${item.item.itemId}/duplicate`, c, {})) as { item: { itemId: number } };
    await ok('POST', `/store/items/${item.item.itemId}/cancel`, c);
    await ok('POST', `/store/items/${copy.item.itemId}/cancel`, c);
    await ok('POST', '/kingdom/settings', c, { kingdomName: 'Audited' });
    await ok('POST', '/kingdom/settings', c, { storeOpen: false });
    await ok('POST', '/kingdom/settings', c, { storeOpen: true });
    await ok('POST', '/kingdom/groups', c, { name: 'Audit Group' });
    await ok('POST', '/kingdom/groups/Audit Group/members', c, { username: target.username, member: true });
    await ok('POST', '/kingdom/groups/Audit Group/members', c, { username: target.username, member: false });
    await ok('POST', '/kingdom/groups/Audit Group/delete', c);
    await ok('PUT', '/player-ids/90001', a, { username: target.username, verified: true });
    await ok('DELETE', '/player-ids/90001', a);
    await ok('PUT', '/alliances/K1', a, { name: 'Knights', ours: true });
    await ok('POST', `/accounts/${target.username}/disable`, a);
    await ok('POST', `/accounts/${target.username}/enable`, a);
    await ok('POST', `/accounts/${target.username}/revoke-sessions`, a);
    await ok('POST', '/kingdoms', a, { number: 901, name: 'Audit Kingdom' });
    await ok('PUT', '/kingdoms/901', a, { camp: 'Green' });
    await ok('DELETE', '/kingdoms/901', a);

    const log = await audit();
    const mine = log.entries.slice(0, log.total - start).reverse();
    expect(mine.map((e) => e.action)).toEqual([
      'rank.change',
      'rank.change',
      'points.grant',
      'points.deduct',
      'points.bulk',
      'scan.apply',
      'scan.delete',
      'item.create',
      'item.edit',
      'item.duplicate',
      'item.cancel',
      'item.cancel',
      'settings.change',
      'store.close',
      'store.open',
      'group.create',
      'group.add',
      'group.remove',
      'group.delete',
      'player-id.link',
      'player-id.unlink',
      'alliance.change',
      'account.disable',
      'account.enable',
      'account.revoke-sessions',
      'kingdom.create',
      'kingdom.edit',
      'kingdom.delete',
    ]);
    // every action the filter offers was recorded by this walk (rules, seasons, bots, share links, Discord, scan dates and farm link files: by their own tests)
    expect(new Set(mine.map((e) => e.action))).toEqual(new Set(AUDIT_ACTIONS.filter((a) => !/^((rule|season|bot|share|discord)\.|scan\.redate$|player-id\.import$)/.test(a))));
    expect(mine[0]).toMatchObject({ actor: admin.username, target: target.username, detail: { from: 'user', to: 'council' } });
    expect(mine[2]).toMatchObject({ actor: council.username, target: target.username, detail: { amount: 500, reason: 'war effort' } });
    for (const e of mine) expect(e.at).toBeGreaterThan(Date.now() - 60_000);

    // filters: by actor (any case), by exact action, by area
    const byCouncil = await audit(`?actor=${council.username.toUpperCase()}`);
    expect(byCouncil.entries.every((e) => e.actor === council.username)).toBe(true);
    expect((await audit('?action=points.grant')).entries.every((e) => e.action === 'points.grant')).toBe(true);
    const points = await audit('?action=points');
    expect(new Set(points.entries.map((e) => e.action))).toEqual(new Set(['points.grant', 'points.deduct', 'points.bulk']));
    expect((await call(server, 'GET', `/audit?actor=${'x'.repeat(65)}`, { token: a })).body).toEqual({ result: false, error: ADMIN_ERRORS.badActor });

    const csv = await call(server, 'GET', '/audit.csv?action=kingdom', { token: a });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const records = csvRecords(csv.text);
    // the columns as the audit log's page titles them, in the account's language (English)
    expect(records[0]).toEqual(['When', 'Who', 'Action', 'On what', 'Detail']);
    expect(records.slice(1, 4).map((r) => r[2])).toEqual(['kingdom.delete', 'kingdom.edit', 'kingdom.create']);
    expect(records.slice(1).every((r) => r[2].startsWith('kingdom.'))).toBe(true);
    expect(JSON.parse(records[3][4])).toEqual({ name: 'Audit Kingdom', camp: '' });
  });

  it('a failed action records nothing (its entry is in its transaction)', async () => {
    const before = (await audit()).total;
    const refused = await call(server, 'POST', `/admin/users/${admin.username}/rank`, { token: admin.token, body: { rank: 'user' } });
    expect(refused.status).toBe(409);
    const overdraw = await call(server, 'POST', '/points/transactions', { token: admin.token, body: { username: player.username, delta: -1_000_000, reason: 'too much' } });
    expect(overdraw.status).toBe(409);
    expect((await audit()).total).toBe(before);
  });
});

describe('the admin routes’ budget', () => {
  it('an admin account gets 429 with a sentence after 240 calls in a minute; another admin is not affected', async () => {
    const own = await leadershipServer();
    try {
      const second = await signedIn(own.server, 'second');
      await call(own.server, 'POST', `/admin/users/${second.username}/rank`, { token: own.admin.token, body: { rank: 'admin' } });
      let status = 200;
      let calls = 1;
      while (status === 200 && calls < 400) {
        status = (await call(own.server, 'GET', '/kingdoms', { token: own.admin.token })).status;
        calls += 1;
      }
      expect(status).toBe(429);
      expect(calls).toBeGreaterThan(200);
      expect((await call(own.server, 'GET', '/accounts', { token: own.admin.token })).body).toEqual({ result: false, error: 'Too many administration calls: wait a minute.' });
      expect((await call(own.server, 'GET', '/accounts', { token: second.token })).status).toBe(200);
    } finally {
      await own.server.close();
    }
  });
});
