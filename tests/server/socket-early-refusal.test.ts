import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Serial } from '../../server/auction/serial';
import { DEFAULT_SOCKET_LIMITS } from '../../server/sockets/limits';
import { bidCreated, bidder, createItem, errorFor, expectBooksBalance, grant, ManualClock, sendBid, type Bidder } from './auction-helpers';
import type { TestSocket } from './helpers';
import { call, signedIn, startTestServer } from './helpers';
import { onPostgres } from './test-database';

/**
 * The cheap refusal path against the transaction, under a random load: every bid refused early is
 * also run, at the place in the queue it would have taken, through its real transaction (rolled
 * back), and both answers must be the same. Bids, grants, starts, ends and cancels are fired without
 * waiting, so the queue is never empty while bids are judged.
 */
const clock = new ManualClock();
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  const unlimited = { perSecond: 1_000_000, burst: 1_000_000 };
  server = await startTestServer(
    {
      frameRateLimit: unlimited,
      socketLimits: { ...DEFAULT_SOCKET_LIMITS, accountFrames: unlimited, addressFrames: unlimited },
      loginRateLimit: { perEmail: 100, perAddress: 10_000, windowMs: 60_000 },
    },
    { now: clock.now },
  );
  admin = await signedIn(server, 'admin');
});
afterAll(() => server.close());

/** Holds the engine's queue (a slow disk) with a job that is neither a bid nor a change: bids queue behind it. */
function holdQueue(): () => void {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = () => resolve()));
  void (server.auction as unknown as { queue: Serial }).queue.run(() => gate);
  return release;
}

/** Resolves once every frame this socket sent so far has reached the server (a frame answered at once, after them). */
async function reached(socket: TestSocket): Promise<void> {
  socket.send('not json');
  await socket.waitFor((f) => f.error_type === 'JSON_ERROR');
}

// SQLite, one process: the picture knows what is queued. On PostgreSQL (other processes may write)
// none of these is refused early at all (BidView's shared mode; socket-abuse.test.ts shows which are).
describe.skipIf(onPostgres)('what queued work could change is never refused early', () => {
  it('a balance a queued grant raises', async () => {
    const audit = server.auction.auditEarlyRefusals();
    const seen = audit.mismatches.length;
    const p = await bidder(server, admin.token, 50);
    const item = await createItem(server, admin.token, { start_price: 10, minIncrement: 10 });
    const first = sendBid(p.auction, item.itemId, 60); // the transaction learns P's balance
    expect((await errorFor(p.auction, first)).error_type).toBe('OUT_OF_BALANCE');
    let release!: () => void;
    // the queue is held, and the grant waits in it behind the hold
    const hold = server.auction.exclusive(() => new Promise<void>((resolve) => (release = () => resolve())));
    const granted = server.points.book([{ userId: p.id, delta: 1_000, reason: 'test' }], { actorId: null });
    sendBid(p.auction, item.itemId, 500);
    await reached(p.auction);
    release();
    await hold;
    await granted;
    await bidCreated(p.auction, item.itemId, 500, p.username);
    await Promise.all(audit.pending);
    expect(audit.mismatches.slice(seen)).toEqual([]);
  });

  it('a balance a queued bid frees by outbidding its owner', async () => {
    const audit = server.auction.auditEarlyRefusals();
    const seen = audit.mismatches.length;
    const [p, q] = await Promise.all([bidder(server, admin.token, 150), bidder(server, admin.token, 1_000)]);
    const x = await createItem(server, admin.token, { start_price: 100, minIncrement: 10 });
    const y = await createItem(server, admin.token, { start_price: 100, minIncrement: 10 });
    sendBid(p.auction, x.itemId, 100);
    await bidCreated(p.auction, x.itemId, 100, p.username);
    const release = holdQueue();
    sendBid(q.auction, x.itemId, 120); // will outbid P: P's 100 come free
    await reached(q.auction);
    sendBid(p.auction, y.itemId, 100); // 50 available now, 150 once Q's bid is in
    await reached(p.auction);
    release();
    await bidCreated(p.auction, y.itemId, 100, p.username);
    await Promise.all(audit.pending);
    expect(audit.mismatches.slice(seen)).toEqual([]);
  });

  it('an end a queued bid extends (soft close)', async () => {
    const audit = server.auction.auditEarlyRefusals();
    const seen = audit.mismatches.length;
    const [p, q] = await Promise.all([bidder(server, admin.token, 1_000), bidder(server, admin.token, 1_000)]);
    const item = await createItem(server, admin.token, { start_price: 10, minIncrement: 10, duration: 60, extendWindow: 10, maxExtensions: 2 });
    const release = holdQueue();
    clock.t = item.endsAt - 2_000;
    sendBid(p.auction, item.itemId, 10); // will move the end to endsAt + 8 s
    await reached(p.auction);
    clock.t = item.endsAt + 1_000;
    sendBid(q.auction, item.itemId, 20); // after the old end, before the new one
    await reached(q.auction);
    release();
    await bidCreated(q.auction, item.itemId, 20, q.username);
    await Promise.all(audit.pending);
    expect(audit.mismatches.slice(seen)).toEqual([]);
  });

  it('a requestId whose first sending is still queued', async () => {
    const audit = server.auction.auditEarlyRefusals();
    const seen = audit.mismatches.length;
    const p = await bidder(server, admin.token, 1_000);
    const item = await createItem(server, admin.token, { start_price: 10, minIncrement: 10 });
    sendBid(p.auction, item.itemId, 10);
    await bidCreated(p.auction, item.itemId, 10, p.username);
    const release = holdQueue();
    const requestId = sendBid(p.auction, item.itemId, 50);
    sendBid(p.auction, item.itemId, 5, requestId); // below the minimum, but the same request
    await reached(p.auction);
    release();
    const created = await bidCreated(p.auction, item.itemId, 50, p.username);
    expect(await p.auction.nextOf('BID_CREATED')).toEqual(created);
    await Promise.all(audit.pending);
    expect(audit.mismatches.slice(seen)).toEqual([]);
  });
});

describe.each([1, 2, 3])('early refusals match the transaction (seed %i)', (seed) => {
  it('under random bids, grants, cancels and the clock moving, no early refusal differs from the transaction', { timeout: 60_000 }, async () => {
    let state = seed * 7919;
    const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];

    const players: Bidder[] = await Promise.all(Array.from({ length: 6 }, (_, i) => bidder(server, admin.token, [0, 50, 300, 1_000, 5_000, 20_000][i])));
    const items = [];
    for (let i = 0; i < 4; i++) {
      items.push(
        await createItem(server, admin.token, {
          start_price: pick([1, 10, 100, 500]),
          minIncrement: pick([1, 5, 50]),
          duration: int(20, 90),
          extendWindow: pick([0, 10, 30]),
          maxExtensions: pick([0, 1, 3]),
          ...(i === 3 ? { eligibility: { ranks: ['admin', 'council'] } } : {}),
        }),
      );
    }
    const scheduled = await createItem(server, admin.token, { startsAt: clock.t + int(5_000, 40_000), duration: 30 });
    const ids = [...items.map((i) => i.itemId), scheduled.itemId, 9_999_999];
    const audit = server.auction.auditEarlyRefusals();
    const seen = audit.mismatches.length;
    const checkedBefore = audit.checked;

    const background: Promise<unknown>[] = [];
    const sent = new Map<Bidder, string[]>();
    let held: (() => void) | null = null;
    for (let step = 0; step < 600; step++) {
      const roll = random();
      if (roll < 0.8) {
        const who = pick(players);
        const itemId = pick(ids);
        const amount = pick<unknown>([int(1, 40), int(1, 600), int(400, 3_000), int(1_000, 30_000), 'x', -5, 2.5]);
        const mine = sent.get(who) ?? [];
        const requestId = mine.length && random() < 0.1 ? pick(mine) : `s${seed}-${step}`;
        mine.push(requestId);
        sent.set(who, mine);
        who.auction.send({ type: 'CREATE_BID', data: { itemId, amount, requestId } });
        // now and then the bid is known to have arrived before the clock moves on
        if (random() < 0.3) await reached(who.auction);
      } else if (roll < 0.84) {
        if (held) {
          held();
          held = null;
        } else held = holdQueue();
      } else if (roll < 0.88) {
        clock.advance(int(0, 4_000));
      } else if (roll < 0.93) {
        background.push(server.auction.tick());
      } else if (roll < 0.97) {
        background.push(grant(server, admin.token, pick(players).username, int(1, 500)));
      } else if (roll < 0.98) {
        background.push(call(server, 'POST', `/store/items/${pick(items).itemId}/cancel`, { token: admin.token }));
      }
    }
    await Promise.all(players.map((who) => reached(who.auction)));
    (held as (() => void) | null)?.();
    await Promise.all(background);
    await server.auction.exclusive(async () => undefined);
    await Promise.all(audit.pending);

    expect(audit.mismatches.slice(seen)).toEqual([]);
    // (on PostgreSQL other processes may write too: the picture refuses only what none can undo, and
    // a seed may bring none of those; every one it refused was checked above all the same)
    if (!onPostgres) expect(audit.checked - checkedBefore).toBeGreaterThan(50);
    await expectBooksBalance(server.db);
    for (const who of players) {
      who.auction.close();
      who.user.close();
    }
  });
});
