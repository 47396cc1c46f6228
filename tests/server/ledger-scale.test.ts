import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSACTIONS_PAGE_SIZE, type Transaction } from '../../src/protocol/points';
import { csvRecords } from './back-office-helpers';
import { call, signedIn, startTestServer } from './helpers';
import { onPostgres } from './test-database';

/**
 * 100,000 transactions: every filtered list is a correct page, read through an index (the plans are
 * checked, not the clock; the times are printed for information only).
 */
const TRANSACTIONS = 100_000;
const USERS = 200;
const BASE = Date.UTC(2026, 0, 1);

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let firstUser: number;
let adminId: number;

const KINDS = ['grant', 'deduct', 'purchase', 'refund', 'automatic'] as const;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server, 'admin');
  adminId = (await server.db.selectFrom('users').select('id').where('username', '=', admin.username).executeTakeFirstOrThrow()).id;
  const started = performance.now();
  await server.db.transaction().execute(async (trx) => {
    await sql`
      with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${USERS})
      insert into users (email, username, playerid, password_hash, created_at)
      select 'seed' || n || '@example.com', 'seed' || n, cast(900000 + n as text), 'x', ${BASE} from seq`.execute(trx);
    firstUser = (await trx.selectFrom('users').select('id').where('username', '=', 'seed1').executeTakeFirstOrThrow()).id;
    // transaction n: user n mod USERS, kind (n div USERS) mod 5, actor the admin for every third, one a minute
    await sql`
      with recursive seq(n) as (select 0 union all select n + 1 from seq where n < ${TRANSACTIONS - 1})
      insert into points_transactions (user_id, delta, kind, reason, actor_id, balance_after, created_at)
      select ${firstUser} + (n % ${USERS}),
        case (n / ${USERS}) % 5 when 1 then -1 when 2 then -1 else (n % 97) + 1 end,
        case (n / ${USERS}) % 5 when 0 then 'grant' when 1 then 'deduct' when 2 then 'purchase' when 3 then 'refund' else 'automatic' end,
        'seeded ' || n,
        case when n % 3 = 0 then cast(${adminId} as bigint) else null end,
        0,
        cast(${BASE} as bigint) + n * cast(60000 as bigint)
      from seq`.execute(trx);
    await sql`update users set balance = (select coalesce(sum(delta), 0) from points_transactions t where t.user_id = users.id)`.execute(trx);
  });
  console.info(`[info] seeded ${TRANSACTIONS.toLocaleString('en')} transactions in ${Math.round(performance.now() - started)} ms`);
}, 60_000);
afterAll(() => server.close());

/** What the n-th seeded transaction is (ids follow n: the ledger was empty before). */
function seeded(n: number) {
  return { user: `seed${(n % USERS) + 1}`, kind: KINDS[Math.floor(n / USERS) % 5], actor: n % 3 === 0, at: BASE + n * 60_000 };
}

/** The seeded transactions that match, newest first. */
function matching(keep: (t: ReturnType<typeof seeded>) => boolean): number[] {
  const out: number[] = [];
  for (let n = TRANSACTIONS - 1; n >= 0; n--) if (keep(seeded(n))) out.push(n);
  return out;
}

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await fn();
  console.info(`[info] ${label}: ${(performance.now() - started).toFixed(1)} ms`);
  return result;
}

describe(`the ledger with ${TRANSACTIONS.toLocaleString('en')} transactions`, () => {
  it('a filtered page (player, kind, who, dates) is exactly the matching rows, newest first', async () => {
    const adminName = admin.username;
    const from = BASE + 20_000 * 60_000;
    const to = BASE + 80_000 * 60_000;
    const expected = matching((t) => t.user === 'seed6' && t.kind === 'grant' && t.actor && t.at >= from && t.at <= to);
    expect(expected.length).toBeGreaterThan(10);
    const query = `username=seed6&kind=grant&actor=${adminName}&from=${from}&to=${to}`;
    const answer = await timed('filtered page (player, kind, who, dates)', () => call(server, 'GET', `/points/transactions?${query}`, { token: admin.token }));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ total: expected.length, page: 1, pageSize: TRANSACTIONS_PAGE_SIZE });
    const rows = answer.body.transactions as Transaction[];
    expect(rows.map((t) => t.reason)).toEqual(expected.slice(0, TRANSACTIONS_PAGE_SIZE).map((n) => `seeded ${n}`));
    expect(rows.every((t) => t.username === 'seed6' && t.kind === 'grant' && t.actor === adminName)).toBe(true);
  });

  it('any single filter, and a deep page, come back right', async () => {
    const byKind = await timed('kind=refund, page 300', () => call(server, 'GET', '/points/transactions?kind=refund&page=300', { token: admin.token }));
    expect(byKind.body.total).toBe(TRANSACTIONS / 5);
    const refunds = matching((t) => t.kind === 'refund');
    expect((byKind.body.transactions as Transaction[]).map((t) => t.reason)).toEqual(
      refunds.slice(299 * TRANSACTIONS_PAGE_SIZE, 300 * TRANSACTIONS_PAGE_SIZE).map((n) => `seeded ${n}`),
    );

    const byDates = await timed('one day', () => call(server, 'GET', `/points/transactions?from=${BASE + 1440 * 60_000}&to=${BASE + 2 * 1440 * 60_000 - 1}`, { token: admin.token }));
    expect(byDates.body.total).toBe(1440);
    expect((byDates.body.transactions as Transaction[])[0].reason).toBe(`seeded ${2 * 1440 - 1}`);

    const byUser = await timed('one player, last page', () => call(server, 'GET', '/points/transactions?username=seed200&page=10', { token: admin.token }));
    expect(byUser.body).toMatchObject({ total: TRANSACTIONS / USERS, transactions: expect.any(Array) });
    expect((byUser.body.transactions as Transaction[]).map((t) => t.reason).at(-1)).toBe('seeded 199');

    const everything = await timed('no filter, page 1', () => call(server, 'GET', '/points/transactions', { token: admin.token }));
    expect(everything.body.total).toBe(TRANSACTIONS);
  });

  // SQLite's plans (EXPLAIN QUERY PLAN); PostgreSQL plans by its statistics and may rightly scan a
  // quarter of a table, so only the timings above hold it to account
  it.skipIf(onPostgres)('every filter is read through an index, never a scan of the whole ledger', async () => {
    const plan = async (where: string) => {
      const rows = await sql<{ detail: string }>`explain query plan select id from points_transactions t where ${sql.raw(where)} order by id desc limit 50`.execute(server.db);
      return rows.rows.map((r) => r.detail).join(' | ');
    };
    for (const where of [`user_id = ${firstUser}`, "kind = 'grant'", 'actor_id = 1', `created_at between ${BASE} and ${BASE + 60_000_000}`]) {
      expect(await plan(where), where).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/);
      expect(await plan(where), where).not.toMatch(/^SCAN t$/);
    }
  });

  it('the CSV export of a filter, the player search and the ledger check stay correct at this size', async () => {
    const csv = await timed('CSV of one kind (20,000 rows)', () => call(server, 'GET', '/points/transactions.csv?kind=deduct', { token: admin.token }));
    const records = csvRecords(csv.text);
    expect(records).toHaveLength(1 + TRANSACTIONS / 5);
    const deducts = matching((t) => t.kind === 'deduct');
    expect(records.slice(1).map((r) => r[6])).toEqual(deducts.map((n) => `seeded ${n}`));

    const search = await timed('player search', () => call(server, 'GET', '/points/players?q=seed1', { token: admin.token }));
    expect(search.body.total).toBe(1 + 10 + 100); // seed1, seed10–19, seed100–199

    const check = await timed('ledger check', () => call(server, 'GET', '/points/ledger-check', { token: admin.token }));
    expect(check.body).toMatchObject({ result: true, ok: true, accounts: USERS + 1, mismatches: [] });
  });
});
