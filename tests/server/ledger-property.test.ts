import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../server/db/schema';
import { upload } from './back-office-helpers';
import { createItem, expectBooksBalance, ManualClock, newRequestId, userRow } from './auction-helpers';
import { call, signedIn, startTestServer } from './helpers';
import { TEST_SEED } from './seed';
import { importScan } from './scan-files';

/**
 * The ledger's invariants as a property: whatever mix of grants, deducts, bulk awards, automatic
 * points runs, bids, cancellations and settlements runs at once, afterwards every balance equals its ledger's sum,
 * every reserved equals what its account leads on live items, no balance is below what is reserved,
 * and the admin's ledger check agrees.
 */
const clock = new ManualClock();
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
const players: { id: number; username: string; governorId: number }[] = [];
const PLAYERS = 4;
const ITEMS_PER_RUN = 3;
/** Scans of the players' governors (their sign-up claims), and automatic points rules over them. */
const SCANS = 5;
const scanIds: number[] = [];
const ruleIds: number[] = [];

beforeAll(async () => {
  server = await startTestServer({}, { now: clock.now });
  admin = await signedIn(server, 'admin');
  for (let i = 0; i < PLAYERS; i++) {
    const p = await signedIn(server, 'prop');
    const row = await server.db.selectFrom('users').select('id').where('username', '=', p.username).executeTakeFirstOrThrow();
    players.push({ id: row.id, username: p.username, governorId: Number(p.playerid) });
  }
  // each scan, every governor's stats grow by a different amount (one of them stays put)
  for (let s = 0; s < SCANS; s++) {
    const governors = players.map((p, i) => ({ id: p.governorId, killpoints: s * (i + 1) * 1_700, helps: s * (3 - i) * 40 }));
    scanIds.push((await importScan(server, admin.token, Date.UTC(2026, 0, 1 + s * 7), governors)).id);
  }
  for (const body of [
    { name: 'KP', stat: 'killpoints', per: 1_000, points: 3, cap: 40 },
    { name: 'Helps', stat: 'helps', per: 10, points: 1 },
  ]) {
    ruleIds.push(((await call(server, 'POST', '/points/rules', { token: admin.token, body })).body.rule as { id: number }).id);
  }
});
afterAll(() => server.close());

type Op =
  | { kind: 'grant' | 'deduct'; user: number; amount: number; delay: number }
  | { kind: 'bid'; user: number; item: number; amount: number; delay: number }
  | { kind: 'settle'; seconds: number; delay: number }
  | { kind: 'cancel'; item: number; delay: number }
  | { kind: 'bulk'; rows: { user: number; amount: number }[]; delay: number }
  | { kind: 'automatic'; rule: number; from: number; span: number; twice: boolean; delay: number };

const user = fc.nat(PLAYERS - 1);
const item = fc.nat(ITEMS_PER_RUN - 1);
const delay = fc.integer({ min: 0, max: 4 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('grant' as const), user, amount: fc.integer({ min: 1, max: 600 }), delay }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deduct' as const), user, amount: fc.integer({ min: 1, max: 600 }), delay }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('bid' as const), user, item, amount: fc.integer({ min: 1, max: 900 }), delay }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('settle' as const), seconds: fc.integer({ min: 1, max: 200 }), delay }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), item, delay }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('bulk' as const),
      rows: fc.array(fc.record({ user, amount: fc.integer({ min: -400, max: 400 }).filter((n) => n !== 0) }), { minLength: 1, maxLength: 4 }),
      delay,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('automatic' as const),
      rule: fc.nat(1),
      from: fc.nat(SCANS - 2),
      span: fc.integer({ min: 1, max: SCANS - 1 }),
      twice: fc.boolean(),
      delay,
    }),
  },
);

/** Lets `turns` turns of the event loop pass (an operation starts that much later than the others): order from events, not time. */
async function after(turns: number): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
const BID_ANSWERS = new Set(['BID_OPEN_ERROR', 'BID_AMOUNT_ERROR', 'OUT_OF_BALANCE', 'UNKNOWN_ITEM']);

async function run(o: Op, itemIds: number[]): Promise<void> {
  await after(o.delay);
  switch (o.kind) {
    case 'grant':
    case 'deduct': {
      const delta = o.kind === 'grant' ? o.amount : -o.amount;
      const answer = await call(server, 'POST', '/points/transactions', { token: admin.token, body: { username: players[o.user].username, delta, reason: o.kind } });
      // a deduct may be refused (below what is reserved); nothing else may go wrong
      expect([200, 409]).toContain(answer.status);
      if (answer.status === 409) expect(o.kind).toBe('deduct');
      return;
    }
    case 'bid': {
      const row: UserRow = await userRow(server.db, players[o.user].id);
      // the auction socket's own path into the engine: one serial queue with grants and settlements
      const answer = await server.auction.createBid(row, { itemId: itemIds[o.item], amount: o.amount, requestId: newRequestId() });
      if (answer) expect(BID_ANSWERS, JSON.stringify(answer)).toContain((answer as { error_type?: string }).error_type);
      return;
    }
    case 'settle':
      clock.advance(o.seconds * 1000);
      await server.auction.tick();
      return;
    case 'cancel': {
      const answer = await call(server, 'POST', `/store/items/${itemIds[o.item]}/cancel`, { token: admin.token });
      expect([200, 409]).toContain(answer.status);
      return;
    }
    case 'bulk': {
      const csv = o.rows.map((r) => `${players[r.user].username},${r.amount},bulk`).join('\n');
      const preview = await upload(server, '/points/bulk/preview', admin.token, csv, 'bulk.csv', 'text/csv');
      expect(preview.status).toBe(200);
      const applied = await call(server, 'POST', '/points/bulk/apply', { token: admin.token, body: { token: preview.body.token } });
      // refused as a whole when a row was flagged, or a balance fell below reserved meanwhile
      expect([200, 400, 409]).toContain(applied.status);
      return;
    }
    case 'automatic': {
      // one rule over one pair of scans: previewed, then applied (twice at once, sometimes); a pair paid before is refused
      const from = scanIds[o.from];
      const to = scanIds[Math.min(SCANS - 1, o.from + o.span)];
      const preview = await call(server, 'POST', `/points/rules/${ruleIds[o.rule]}/preview`, { token: admin.token, body: { fromScanId: from, toScanId: to } });
      expect([200, 409]).toContain(preview.status);
      if (preview.status === 409) return;
      const token = (preview.body.preview as { token: string }).token;
      const answers = await Promise.all((o.twice ? [1, 2] : [1]).map(() => call(server, 'POST', `/points/rules/${ruleIds[o.rule]}/apply`, { token: admin.token, body: { token } })));
      for (const answer of answers) expect([200, 409]).toContain(answer.status);
      expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(1);
      return;
    }
  }
}

describe('ledger invariants (property)', () => {
  it('hold after any concurrent mix of grants, deducts, bulk awards, automatic points runs, bids, cancellations and settlements', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 18 }),
        fc.array(fc.integer({ min: 20, max: 400 }), { minLength: ITEMS_PER_RUN, maxLength: ITEMS_PER_RUN }),
        async (ops, durations) => {
          const itemIds: number[] = [];
          for (const duration of durations) itemIds.push((await createItem(server, admin.token, { duration, start_price: 10, minIncrement: 5, extendWindow: 10, maxExtensions: 2 })).itemId);
          const before = await server.db.selectFrom('points_transactions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
          await Promise.all(ops.map((o) => run(o, itemIds)));
          await server.auction.exclusive(async () => undefined);

          await expectBooksBalance(server.db);
          const check = await call(server, 'GET', '/points/ledger-check', { token: admin.token });
          expect(check.body).toMatchObject({ result: true, ok: true, mismatches: [] });
          // every automatic run is booked once: its entries are exactly its ledger rows, and its pair at most once
          const runs = await server.db.selectFrom('points_runs').selectAll().execute();
          expect(new Set(runs.map((r) => `${r.rule_id}:${r.from_scan_id}:${r.to_scan_id}`)).size).toBe(runs.length);
          const automatic = await server.db.selectFrom('points_transactions').select(['delta']).where('kind', '=', 'automatic').execute();
          expect(automatic.length).toBe(runs.reduce((n, r) => n + r.entries, 0));
          expect(automatic.reduce((n, t) => n + t.delta, 0)).toBe(runs.reduce((n, r) => n + r.total, 0));
          // the ledger only grows
          const after = await server.db.selectFrom('points_transactions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
          expect(Number(after.n)).toBeGreaterThanOrEqual(Number(before.n));
        },
      ),
      // seeded: a failure prints its seed and path, and TEST_SEED replays the run
      { numRuns: 25, seed: TEST_SEED },
    );
    // automatic runs were in the mix, and paid
    const paid = await server.db.selectFrom('points_runs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(paid.n)).toBeGreaterThan(0);
    // finally everything ends and settles: nothing stays reserved
    clock.advance(3_600_000);
    await server.auction.tick();
    await expectBooksBalance(server.db);
    const reserved = await server.db.selectFrom('users').select((eb) => eb.fn.sum<number>('reserved').as('r')).executeTakeFirstOrThrow();
    expect(Number(reserved.r)).toBe(0);
  }, 120_000);
});
