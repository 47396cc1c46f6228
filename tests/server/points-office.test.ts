import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POINTS_ERRORS, SYSTEM_ACTOR, TRANSACTIONS_PAGE_SIZE, transaction } from '../../src/protocol/points';
import { csvCell } from '../../server/http/csv';
import { csvRecords } from './back-office-helpers';
import { bidCreated, bidder, createItem, grant, ManualClock, sendBid } from './auction-helpers';
import { call, newAccount, register, signedIn, startTestServer, leadershipServer } from './helpers';
import { uniqueNumber } from './seed';

const clock = new ManualClock();
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let council: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer({ now: clock.now }));
});
afterAll(() => server.close());

describe('GET /points/players', () => {
  it('finds players by part of the username (any case) or the start of the governor id, with their points, paginated', async () => {
    const zed = await register(server, { ...newAccount('zed'), username: `Zed_Knight${uniqueNumber()}`, playerid: '77001234' });
    const other = await register(server, { ...newAccount('other'), username: `Other${uniqueNumber()}`, playerid: '88005555' });
    await grant(server, admin.token, zed.username, 300);

    const byName = await call(server, 'GET', '/points/players?q=d_kNIGHT', { token: council.token });
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual({
      result: true,
      players: [{ username: zed.username, playerid: '77001234', rank: 'user', balance: 300, reserved: 0, available: 300 }],
      page: 1,
      pageSize: 50,
      total: 1,
    });
    const byId = await call(server, 'GET', '/points/players?q=8800', { token: council.token });
    expect((byId.body.players as { username: string }[]).map((p) => p.username)).toEqual([other.username]);
    // the middle of a governor id is not a match; % and _ match only themselves
    expect((await call(server, 'GET', '/points/players?q=0555', { token: council.token })).body.total).toBe(0);
    expect((await call(server, 'GET', '/points/players?q=%25', { token: council.token })).body.total).toBe(0);
    expect((await call(server, 'GET', '/points/players?q=Zed%5F', { token: council.token })).body.total).toBe(1);

    const all = await call(server, 'GET', '/points/players', { token: council.token });
    expect(all.body.total).toBeGreaterThanOrEqual(4);
    const page2 = await call(server, 'GET', '/points/players?page=2', { token: council.token });
    expect(page2.body).toMatchObject({ result: true, players: [], page: 2 });
  });

  it.each([
    ['?page=0', POINTS_ERRORS.badPage],
    ['?page=x', POINTS_ERRORS.badPage],
    [`?q=${'a'.repeat(65)}`, POINTS_ERRORS.badQuery],
  ])('GET /points/players%s → 400 with a clear text', async (query, error) => {
    const answer = await call(server, 'GET', `/points/players${query}`, { token: council.token });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error });
  });
});

describe('GET /points/transactions with filters', () => {
  it('filters by player, kind, who and time (inclusive), and combines them', async () => {
    const a = await signedIn(server, 'fa');
    const b = await signedIn(server, 'fb');
    const t0 = clock.t;
    await grant(server, council.token, a.username, 1000); // t0
    clock.advance(1000);
    await grant(server, admin.token, a.username, -200); // t0 + 1000
    clock.advance(1000);
    await grant(server, admin.token, b.username, 50); // t0 + 2000
    const list = (q: string) => call(server, 'GET', `/points/transactions?${q}`, { token: council.token });

    const ofA = await list(`username=${a.username}`);
    expect(ofA.body).toMatchObject({ total: 2 });
    expect((ofA.body.transactions as unknown[]).every((t) => transaction.safeParse(t).success)).toBe(true);
    expect((await list(`username=${a.username}&kind=deduct`)).body).toMatchObject({ total: 1, transactions: [{ delta: -200, actor: admin.username }] });
    expect((await list(`username=${a.username}&actor=${council.username.toUpperCase()}`)).body).toMatchObject({ total: 1, transactions: [{ delta: 1000 }] });
    expect((await list(`from=${t0 + 1000}&to=${t0 + 2000}&actor=${admin.username}`)).body).toMatchObject({ total: 2, transactions: [{ delta: 50 }, { delta: -200 }] });
    expect((await list(`from=${t0 + 1000}&to=${t0 + 1000}`)).body).toMatchObject({ total: 1, transactions: [{ delta: -200 }] });
    expect((await list(`kind=purchase&username=${b.username}`)).body).toMatchObject({ total: 0, transactions: [] });
    // empty filters mean "any"
    expect((await list(`username=${a.username}&kind=&from=&to=&actor=`)).body).toMatchObject({ total: 2 });
  });

  it.each([
    ['kind=gift', 400, POINTS_ERRORS.badKind],
    ['from=yesterday', 400, POINTS_ERRORS.badTime],
    ['to=-1', 400, POINTS_ERRORS.badTime],
    ['from=1.5', 400, POINTS_ERRORS.badTime],
    ['from=20&to=10', 400, POINTS_ERRORS.fromAfterTo],
    ['page=0', 400, POINTS_ERRORS.badPage],
    ['username=nobody-at-all', 404, POINTS_ERRORS.unknownUser],
    ['actor=nobody-at-all', 404, POINTS_ERRORS.unknownActor],
  ])('?%s → %i with a clear text (list and CSV alike)', async (query, status, error) => {
    for (const url of [`/points/transactions?${query}`, `/points/transactions.csv?${query}`]) {
      const answer = await call(server, 'GET', url, { token: council.token });
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual({ result: false, error });
    }
  });
});

describe('GET /points/transactions.csv', () => {
  it('exports every matching row (not only a page) as RFC 4180 CSV, with formula cells escaped', async () => {
    const evil = await register(server, { ...newAccount('x'), username: `=HYPERLINK("x")${uniqueNumber()}` });
    const reasons = ['=1+2', '+SUM(A1)', '-2+3', '@cmd', '\tTab', '\rCR', 'plain, with "quotes"\nand a line break', 'Ünïcödé ملك'];
    for (const reason of reasons) {
      const answer = await call(server, 'POST', '/points/transactions', { token: council.token, body: { username: evil.username, delta: 10, reason } });
      expect(answer.status).toBe(200);
    }
    // the reason is trimmed on the way in: the tab and CR cases keep their text after it
    for (let i = 0; i < TRANSACTIONS_PAGE_SIZE + 5; i++) await grant(server, admin.token, evil.username, 1);

    const answer = await call(server, 'GET', `/points/transactions.csv?username=${encodeURIComponent(evil.username)}`, { token: council.token });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="transactions.csv"');
    expect(answer.text.startsWith('Id,Date,Player,Kind,Points,Balance after,Reason,By\r\n')).toBe(true);
    // UTF-8 with a byte order mark, for spreadsheet programs (fetch's text() drops it, so read the bytes)
    const raw = await fetch(`${server.httpUrl}/points/transactions.csv?kind=deduct`, { headers: { authorization: `Bearer ${council.token}` } });
    expect([...new Uint8Array(await raw.arrayBuffer()).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = csvRecords(answer.text);
    expect(records[0]).toEqual(['Id', 'Date', 'Player', 'Kind', 'Points', 'Balance after', 'Reason', 'By']);
    expect(records).toHaveLength(1 + reasons.length + TRANSACTIONS_PAGE_SIZE + 5);
    const rows = records.slice(1).reverse(); // oldest first
    expect(rows.slice(0, reasons.length).map((r) => r[6])).toEqual([
      "'=1+2",
      "'+SUM(A1)",
      "'-2+3",
      "'@cmd",
      'Tab',
      'CR',
      'plain, with "quotes"\nand a line break',
      'Ünïcödé ملك',
    ]);
    for (const row of rows) {
      expect(row[2]).toBe(`'${evil.username}`);
      expect(row[3]).toBe('grant');
      expect(row[7]).toMatch(new RegExp(`^(${council.username}|${admin.username})$`));
      expect(new Date(row[1]).toISOString()).toBe(row[1]);
    }
    expect(rows.at(-1)?.[5]).toBe(String(reasons.length * 10 + TRANSACTIONS_PAGE_SIZE + 5));
  });

  it("writes System in the 'by' column for a change no person made, as the page does", async () => {
    const p = await signedIn(server, 'sys');
    const user = await server.db.selectFrom('users').select('id').where('username', '=', p.username).executeTakeFirstOrThrow();
    await server.points.book([{ userId: user.id, delta: 40, reason: 'Weekly helps' }], { actorId: null, kind: 'automatic' });
    await grant(server, council.token, p.username, 2);
    const answer = await call(server, 'GET', `/points/transactions.csv?username=${p.username}`, { token: council.token });
    const records = csvRecords(answer.text);
    expect(records.slice(1).map((r) => [r[6], r[7]])).toEqual([
      ['test points', council.username],
      ['Weekly helps', SYSTEM_ACTOR],
    ]);
  });

  it('escapes cells exactly: formula starts get a quote, then RFC 4180 quoting; numbers stay numbers', () => {
    expect(csvCell('=cmd|"/c calc"!A0')).toBe('"\'=cmd|""/c calc""!A0"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(1)')).toBe("'@SUM(1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe("\"'\r=1\"");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded ')).toBe('" padded "');
    expect(csvCell('safe=text')).toBe('safe=text');
    expect(csvCell(-500)).toBe('-500');
    expect(csvCell(null)).toBe('');
  });
});

describe('GET /points/ledger-check', () => {
  it('is ok while the books balance, with bids reserving points', async () => {
    const item = await createItem(server, admin.token, { duration: 600 });
    const p = await bidder(server, admin.token, 1_000, 'lc');
    sendBid(p.auction, item.itemId, 400);
    await bidCreated(p.auction, item.itemId, 400, p.username);
    const answer = await call(server, 'GET', '/points/ledger-check', { token: admin.token });
    expect(answer.status).toBe(200);
    const users = await server.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(answer.body).toEqual({ result: true, ok: true, accounts: Number(users.n), mismatches: [] });
    p.auction.close();
    p.user.close();
  });

  it('names every account whose balance is not its ledger or whose reserved is not what it leads', async () => {
    const x = await signedIn(server, 'drift');
    const y = await signedIn(server, 'stuck');
    await grant(server, admin.token, x.username, 500);
    await grant(server, admin.token, y.username, 500);
    // damage the books behind the server's back (the users table has no trigger; the ledger has)
    await sql`update users set balance = balance + 7 where username = ${x.username}`.execute(server.db);
    await sql`update users set reserved = 30 where username = ${y.username}`.execute(server.db);
    const answer = await call(server, 'GET', '/points/ledger-check', { token: admin.token });
    expect(answer.body).toMatchObject({ result: true, ok: false });
    expect(answer.body.mismatches).toEqual(
      [
        { username: x.username, balance: 507, ledgerSum: 500, reserved: 0, leadingSum: 0 },
        { username: y.username, balance: 500, ledgerSum: 500, reserved: 30, leadingSum: 0 },
      ].sort((a, b) => (a.username.toLowerCase() < b.username.toLowerCase() ? -1 : 1)),
    );
    // repaired the way the ledger wants: a correction is a new transaction, and reserved back to what is led
    await sql`update users set balance = balance - 7 where username = ${x.username}`.execute(server.db);
    await sql`update users set reserved = 0 where username = ${y.username}`.execute(server.db);
    expect((await call(server, 'GET', '/points/ledger-check', { token: admin.token })).body).toMatchObject({ ok: true, mismatches: [] });
  });

  it('the ledger itself refuses edits and deletions', async () => {
    await expect(sql`update points_transactions set delta = 1`.execute(server.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from points_transactions`.execute(server.db)).rejects.toThrow(/append-only/);
  });
});
