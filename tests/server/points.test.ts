import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POINTS_ERRORS } from '../../src/protocol/points';
import { authedSocket, call, leadershipServer, signedIn, startTestServer } from './helpers';
import { bidCreated, bidder, createItem, sendBid } from './auction-helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let council: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer());
});
afterAll(() => server.close());

const grant = (token: string, body: unknown) => call(server, 'POST', '/points/transactions', { token, body });

describe('POST /points/transactions', () => {
  it('grants and deducts with a reason; the balance follows and the ledger keeps who, why and when', async () => {
    const player = await signedIn(server);
    const granted = await grant(council.token, { username: player.username, delta: 1_500, reason: '  KvK top 10  ' });
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ result: true, balance: 1_500 });
    expect(granted.body.transaction).toMatchObject({ username: player.username, delta: 1_500, kind: 'grant', reason: 'KvK top 10', actor: council.username, balanceAfter: 1_500 });

    const deducted = await grant(admin.token, { username: player.username.toUpperCase(), delta: -500, reason: 'Correction' });
    expect(deducted.body).toMatchObject({ result: true, balance: 1_000, transaction: { kind: 'deduct', delta: -500, balanceAfter: 1_000 } });

    const me = await call(server, 'POST', '/auth/me', { token: player.token });
    expect(me.body.user).toMatchObject({ balance: 1_000, reserved: 0, available: 1_000 });

    const list = await call(server, 'GET', `/points/transactions?username=${player.username}`, { token: council.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ result: true, total: 2, page: 1 });
    expect((list.body.transactions as { delta: number }[]).map((t) => t.delta)).toEqual([-500, 1_500]);
  });

  it('tells the player’s open user socket at once (VIRTUAL_BALANCE_UPDATE), after the commit', async () => {
    const player = await signedIn(server);
    const socket = await authedSocket(server.userUrl, player.token);
    socket.send({ type: 'GET_STATUS' });
    expect(await socket.next()).toMatchObject({ type: 'STATUS', data: { balance: 0 } });
    await grant(admin.token, { username: player.username, delta: 1_234_567, reason: 'Season reward' });
    expect(await socket.next()).toEqual({ type: 'VIRTUAL_BALANCE_UPDATE', data: { balance: 1_234_567, reserved: 0, available: 1_234_567 } });
    socket.close();
  });

  it('refuses a deduction of more than the balance, saying so, and changes nothing', async () => {
    const player = await signedIn(server);
    const empty = await grant(admin.token, { username: player.username, delta: -1, reason: 'nothing to take' });
    expect(empty.status).toBe(409);
    expect(empty.body).toEqual({ result: false, error: POINTS_ERRORS.moreThanBalance });
    await grant(admin.token, { username: player.username, delta: 100, reason: 'start' });
    const answer = await grant(admin.token, { username: player.username, delta: -101, reason: 'too much' });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ result: false, error: POINTS_ERRORS.moreThanBalance });
    const me = await call(server, 'POST', '/auth/me', { token: player.token });
    expect(me.body.user).toMatchObject({ balance: 100 });
  });

  it('refuses a deduction into the points that leading bids reserve, saying so (not "more than the balance")', async () => {
    const item = await createItem(server, admin.token, { duration: 600 });
    const p = await bidder(server, admin.token, 1_000, 'rsv');
    sendBid(p.auction, item.itemId, 700);
    await bidCreated(p.auction, item.itemId, 700, p.username);
    const answer = await grant(admin.token, { username: p.username, delta: -400, reason: 'fee' });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ result: false, error: POINTS_ERRORS.belowReserved });
    const ok = await grant(admin.token, { username: p.username, delta: -300, reason: 'fee' });
    expect(ok.body).toMatchObject({ result: true, balance: 700 });
    p.auction.close();
    p.user.close();
  });

  it.each([
    [{ delta: 10, reason: 'x' }, POINTS_ERRORS.usernameRequired],
    [{ username: '   ', delta: 10, reason: 'x' }, POINTS_ERRORS.usernameRequired],
    [{ username: 'someone', delta: 0, reason: 'x' }, POINTS_ERRORS.deltaWhole],
    [{ username: 'someone', delta: 1.5, reason: 'x' }, POINTS_ERRORS.deltaWhole],
    [{ username: 'someone', delta: '10', reason: 'x' }, POINTS_ERRORS.deltaWhole],
    [{ username: 'someone', delta: 1e12, reason: 'x' }, POINTS_ERRORS.deltaTooLarge],
    [{ username: 'someone', delta: -1e20, reason: 'x' }, POINTS_ERRORS.deltaTooLarge],
    [{ username: 'someone', delta: 10 }, POINTS_ERRORS.reasonRequired],
    [{ username: 'someone', delta: 10, reason: '  ' }, POINTS_ERRORS.reasonRequired],
    [{ username: 'someone', delta: 10, reason: 'r'.repeat(201) }, POINTS_ERRORS.reasonTooLong],
  ])('bad input %j gets 400 "%s"', async (body, error) => {
    const answer = await grant(admin.token, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error });
  });

  it('an unknown player gets 404', async () => {
    const answer = await grant(admin.token, { username: 'nobody-at-all', delta: 5, reason: 'x' });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ result: false, error: POINTS_ERRORS.unknownUser });
  });

  it('only council and admin: a user gets 403, nobody 401, and nothing is booked', async () => {
    const player = await signedIn(server);
    const self = await grant(player.token, { username: player.username, delta: 1_000_000, reason: 'mine' });
    expect(self.status).toBe(403);
    const anonymous = await grant('', { username: player.username, delta: 1, reason: 'x' });
    expect(anonymous.status).toBe(401);
    const list = await call(server, 'GET', '/points/transactions', { token: player.token });
    expect(list.status).toBe(403);
    const me = await call(server, 'POST', '/auth/me', { token: player.token });
    expect(me.body.user).toMatchObject({ balance: 0 });
  });
});

describe('the ledger', () => {
  it('is append-only in the database itself, and every balance equals its ledger', async () => {
    await expect(sql`update points_transactions set delta = 1`.execute(server.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from points_transactions`.execute(server.db)).rejects.toThrow(/append-only/);
    const mismatched = await sql<{ id: number }>`
      select u.id from users u left join points_transactions t on t.user_id = u.id
      group by u.id having u.balance <> coalesce(sum(t.delta), 0)`.execute(server.db);
    expect(mismatched.rows).toEqual([]);
  });

  it('pages newest first, 50 a page, and refuses a bad page', async () => {
    const player = await signedIn(server);
    for (let i = 1; i <= 55; i++) await grant(admin.token, { username: player.username, delta: i, reason: `r${i}` });
    const first = await call(server, 'GET', `/points/transactions?username=${player.username}`, { token: admin.token });
    expect(first.body).toMatchObject({ total: 55, pageSize: 50 });
    expect((first.body.transactions as unknown[]).length).toBe(50);
    const second = await call(server, 'GET', `/points/transactions?username=${player.username}&page=2`, { token: admin.token });
    expect((second.body.transactions as { delta: number }[]).map((t) => t.delta)).toEqual([5, 4, 3, 2, 1]);
    const bad = await call(server, 'GET', '/points/transactions?page=0', { token: admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ result: false, error: POINTS_ERRORS.badPage });
  });
});
