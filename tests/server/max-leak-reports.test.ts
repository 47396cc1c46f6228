import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auctionTestServer, bidCreated, bidder, createItem, errorFor, ManualClock, sendBid, setMax } from './auction-helpers';
import { EnvelopeReceiver } from './sentry-receiver';

/**
 * A maximum bid is its owner's alone while the item runs: not in the server's log (every line, at
 * its most talkative level) nor in what it reports to Sentry, whatever happens around it: maxima
 * answered and beaten, frames that fail the protocol carrying one, a max refused, the engine
 * failing in the middle of setting one. The frames and REST answers other players get are read in
 * max-bids.test.ts.
 */
const clock = new ManualClock();
const receiver = new EnvelopeReceiver();
const lines: string[] = [];
let server: Awaited<ReturnType<typeof auctionTestServer>>['server'];
let admin: Awaited<ReturnType<typeof auctionTestServer>>['admin'];

beforeAll(async () => {
  const dsn = await receiver.start();
  ({ server, admin } = await auctionTestServer(clock, { sentryDsn: dsn, logLevel: 'trace' }, { logStream: { write: (line: string) => void lines.push(line) } }));
});
afterAll(async () => {
  await server.close();
  await receiver.stop();
});

// maxima no other number of the test (a port, a pid, a balance) can be: above the largest pid, 7 digits
const HIGH = 7_654_321;
const LOW = 5_432_109;
const REFUSED = 9_876_543;
const MALFORMED = 6_543_217;

/** The number as digits, with or without a thousands separator, not inside a longer number (a timestamp). */
const written = (n: number) => new RegExp(`(?<![\\d])${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '[,.\\u202f\\u00a0 ]?')}(?![\\d])`);

describe('a max in the log and in error reports', () => {
  it('appears in no log line and no Sentry report while its item runs', async () => {
    const alice = await bidder(server, admin.token, 8_000_000, 'alice');
    const bob = await bidder(server, admin.token, 8_000_000, 'bob');
    const carol = await bidder(server, admin.token, 8_000_000, 'carol');
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 10, itemName: 'Sceptre', extendWindow: 30, maxExtensions: 5 });

    expect(await setMax(alice, item.itemId, HIGH)).toMatchObject({ type: 'MAX_BID', data: { max: HIGH } });
    sendBid(carol.auction, item.itemId, 500);
    await bidCreated(carol.auction, item.itemId, 510, alice.username);
    // bob's max is beaten at once (exhausted: an event, a notice, a reaction)
    expect(await setMax(bob, item.itemId, LOW)).toMatchObject({ type: 'MAX_BID' });
    sendBid(carol.auction, item.itemId, LOW + 20);
    await bidCreated(carol.auction, item.itemId, LOW + 30, alice.username);

    // frames that fail the protocol with a max in them: logged and reported, never with the frame
    alice.auction.send({ type: 'SET_MAX_BID', data: { itemId: item.itemId, max: MALFORMED, requestId: 42 } });
    alice.auction.send(`{"type":"SET_MAX_BID","data":{"itemId":${item.itemId},"max":${MALFORMED}`);
    await receiver.next((e) => e.tags?.where === 'socket' && e.tags.reason === 'schema');
    await receiver.next((e) => e.tags?.where === 'socket' && e.tags.reason === 'json');
    // refused: only its owner hears why
    expect(await setMax(alice, item.itemId, REFUSED)).toMatchObject({ type: 'ERROR', error_type: 'OUT_OF_BALANCE' });
    // the engine fails while setting one: logged at error level and reported
    clock.failNext = true;
    expect(await setMax(alice, item.itemId, HIGH)).toMatchObject({ type: 'ERROR', error_type: 'SYSTEM_ERROR' });
    await receiver.next((e) => e.tags?.where === 'auction' && e.extra?.message === 'max bid failed');
    // a bid that fails the same way
    clock.failNext = true;
    expect((await errorFor(carol.auction, sendBid(carol.auction, item.itemId, LOW + 40))).error_type).toBe('SYSTEM_ERROR');
    await receiver.next((e) => e.tags?.where === 'auction' && e.extra?.message === 'bid failed');

    // what runs after the commits has run: the reactions (notices of the exhausted max) and the outbid pass
    server.reactions.wake();
    await server.reactions.idle();
    server.notices.wake();
    await server.notices.idle();
    expect(await server.db.selectFrom('notices').select('kind').where('user_id', '=', bob.id).where('kind', '=', 'max-exhausted').execute()).toHaveLength(1);

    const log = lines.join('');
    const reports = receiver.received.map((r) => r.raw).join('\n');
    // (the log is at its most talkative, and both carry what the test did)
    expect(lines.length).toBeGreaterThan(30);
    expect(log).toContain('max bid failed');
    expect(reports).toContain('max bid failed');
    for (const max of [HIGH, LOW, REFUSED, MALFORMED]) {
      expect(log).not.toMatch(written(max));
      expect(reports).not.toMatch(written(max));
    }
  });
});
