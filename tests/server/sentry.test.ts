import * as Sentry from '@sentry/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HTTP_ERRORS } from '../../server/http/errors';
import { checkDsn, createReporter, safeExtra, scrub } from '../../server/report';
import { ProtocolLog } from '../../server/sockets/protocol-log';
import { bidder, createItem, errorFor, itemBody, sendBid } from './auction-helpers';
import { authedSocket, call, signedIn, startTestServer } from './helpers';
import { EnvelopeReceiver, type SentryEvent } from './sentry-receiver';

/**
 * Errors surfaced: with SENTRY_DSN set, the server reports its 500s, the frames that
 * fail the protocol and the auction's failed jobs to Sentry; without it, nothing. A tiny HTTP
 * server (./sentry-receiver.ts) stands in for Sentry and keeps every envelope it gets; the tests wait
 * for the envelope they expect to arrive (an event), never for time.
 */

const exceptionValue = (event: SentryEvent) => event.exception?.values.map((v) => v.value).join(' | ') ?? '';

const receiver = new EnvelopeReceiver();
let dsn: string;
beforeAll(async () => {
  dsn = await receiver.start();
});
afterAll(() => receiver.stop());
afterEach(() => vi.restoreAllMocks());

describe('the server reports to Sentry when SENTRY_DSN is set', () => {
  /** The engine's clock fails this many more times: how a test makes an auction job fail. */
  let clockFailures = 0;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  /** The server's first account: its admin. */
  let admin: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(async () => {
    server = await startTestServer(
      { sentryDsn: dsn },
      {
        now: () => {
          if (clockFailures > 0) {
            clockFailures -= 1;
            throw new Error('the clock failed');
          }
          return Date.now();
        },
      },
    );
    admin = await signedIn(server, 'admin');
  });
  afterAll(() => server.close());

  it('an unexpected error the error mapper answers with a 500: the error, where, the route and the user id, and no e-mail or token', async () => {
    const me = await call(server, 'POST', '/auth/me', { token: admin.token });
    const adminId = (me.body.user as { id: number }).id;
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    vi.spyOn(server.auction.items, 'create').mockRejectedValueOnce(new Error(`insert failed for ${admin.email} with Bearer ${token}`));

    const answer = await call(server, 'POST', '/store/items', { token: admin.token, body: itemBody({ itemName: 'Broken relic' }) });
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ result: false, error: HTTP_ERRORS.internal });

    const { raw, event } = await receiver.next((e) => e.tags?.where === 'http' && exceptionValue(e).startsWith('insert failed'));
    expect(event.level).toBe('error');
    expect(exceptionValue(event)).toBe('insert failed for [email] with Bearer [token]');
    expect(event.extra).toMatchObject({ method: 'POST', route: '/store/items', statusCode: 500, message: 'request failed' });
    expect(event.user).toEqual({ id: String(adminId) });
    expect(event.request).toBeUndefined();
    for (const secret of [admin.email, admin.username, admin.password, admin.token, token]) expect(raw).not.toContain(secret);
  });

  it('a frame that fails the protocol: its reason, the socket and the user id, never the frame', async () => {
    const player = await signedIn(server, 'framer');
    const socket = await authedSocket(server.auctionUrl, player.token);
    await socket.nextOf('HISTORY');
    socket.send(`{"type":"CREATE_BID","data":{"note":"secret-${player.email}"`);
    await socket.nextOf('ERROR');

    const { raw, event } = await receiver.next((e) => e.tags?.where === 'socket' && e.tags.reason === 'json');
    expect(event.level).toBe('warning');
    expect(event.message).toBe('socket frame failed the protocol on the auction socket: json');
    expect(event.tags).toMatchObject({ channel: 'auction', reason: 'json' });
    expect(event.user?.id).toMatch(/^\d+$/);
    expect(raw).not.toContain('secret-');
    expect(raw).not.toContain(player.email);
    socket.close();
  });

  it('a frame whose handler fails (the socket’s own 500): the error and the user id', async () => {
    const player = await bidder(server, admin.token, 100, 'sockfail');
    vi.spyOn(server.auction, 'createBid').mockRejectedValueOnce(new Error('bid handler exploded'));
    sendBid(player.auction, 1, 10);
    await player.auction.nextOf('ERROR');
    const { event } = await receiver.next((e) => exceptionValue(e) === 'bid handler exploded');
    expect(event.tags?.where).toBe('socket');
    expect(event.extra).toMatchObject({ channel: 'auction', message: 'socket frame failed' });
    expect(event.user).toEqual({ id: String(player.id) });
    player.auction.close();
    player.user.close();
  });

  it('the auction’s failed jobs, logged at error level: the schedule, and a bid (with its user and item)', async () => {
    const player = await bidder(server, admin.token, 100, 'jobbidder');
    const item = await createItem(server, admin.token);
    // nothing else of the engine's may read the clock meanwhile (on PostgreSQL the item's start
    // comes back as an event, told to the sockets, then the picture is read again)
    await player.auction.waitFor((f) => f.type === 'BIDDING_STARTED' && (f.data as { itemId?: number }).itemId === item.itemId);
    await server.auction.idle();

    // the schedule's run reads the clock first: it logs 'auction schedule failed; retrying' and tries again later
    clockFailures = 1;
    await server.auction.tick();
    expect(clockFailures).toBe(0);
    // a bid is stamped with the clock as it arrives: it fails with SYSTEM_ERROR
    clockFailures = 1;
    const requestId = sendBid(player.auction, item.itemId, item.start_price);
    expect((await errorFor(player.auction, requestId)).error_type).toBe('SYSTEM_ERROR');
    expect(clockFailures).toBe(0);

    const schedule = await receiver.next((e) => e.tags?.where === 'auction' && e.extra?.message === 'auction schedule failed; retrying');
    expect(schedule.event.level).toBe('error');
    const bid = await receiver.next((e) => e.tags?.where === 'auction' && e.extra?.message === 'bid failed');
    expect(bid.event.user).toEqual({ id: String(player.id) });
    expect(bid.event.extra).toMatchObject({ itemId: item.itemId });
    player.auction.close();
    player.user.close();
  });
});

describe('closing the server', () => {
  it('sends what is still on its way before close resolves', async () => {
    const server = await startTestServer({ sentryDsn: dsn });
    const admin = await signedIn(server, 'closer');
    vi.spyOn(server.auction.items, 'create').mockRejectedValueOnce(new Error('failed just before closing'));
    expect((await call(server, 'POST', '/store/items', { token: admin.token, body: itemBody({ itemName: 'Last relic' }) })).status).toBe(500);
    await server.close();
    expect(receiver.received.some((r) => exceptionValue(r.event) === 'failed just before closing')).toBe(true);
  });
});

describe('without SENTRY_DSN', () => {
  it('builds no Sentry client and sends nothing, whatever fails', async () => {
    const before = receiver.received.length;
    const server = await startTestServer();
    expect(server.reporter.enabled).toBe(false);
    const admin = await signedIn(server, 'quiet');
    vi.spyOn(server.auction.items, 'create').mockRejectedValueOnce(new Error('unreported failure'));
    expect((await call(server, 'POST', '/store/items', { token: admin.token, body: itemBody({ itemName: 'Quiet relic' }) })).status).toBe(500);
    const socket = await authedSocket(server.auctionUrl, admin.token);
    await socket.nextOf('HISTORY');
    socket.send('{not json');
    await socket.nextOf('ERROR');
    socket.close();
    await server.close();
    // no process-wide client either (each server's client is its own)
    expect(Sentry.getClient()).toBeUndefined();
    expect(receiver.received.slice(before).filter((r) => /unreported failure|quiet/.test(r.raw))).toEqual([]);
  });

  it('a SENTRY_DSN that is not a DSN stops the start with a clear error', async () => {
    expect(() => checkDsn('sentry.example.com')).toThrow('SENTRY_DSN is not a URL');
    expect(() => checkDsn('https://sentry.example.com/1')).toThrow('SENTRY_DSN is not a Sentry DSN');
    expect(() => checkDsn('https://key@sentry.example.com/')).toThrow('SENTRY_DSN is not a Sentry DSN');
    expect(() => checkDsn('https://key@o1.ingest.sentry.io/123')).not.toThrow();
    await expect(startTestServer({ sentryDsn: 'ftp://key@host/1' })).rejects.toThrow('SENTRY_DSN is not a Sentry DSN');
  });
});

describe('what a report may carry', () => {
  it('texts lose e-mail addresses and tokens', () => {
    expect(scrub('user a.b+c@mail.example.org failed, Bearer abc.def and eyJx.eyJy.zz')).toBe('user [email] failed, Bearer [token] and [token]');
  });

  it('extra facts keep numbers, booleans and short texts under names that are not personal', () => {
    expect(
      safeExtra({ itemId: 3, ok: true, route: '/x', email: 'a@b.c', password: 'p', token: 't', username: 'Beorn', ip: '10.0.0.1', nested: { a: 1 }, long: 'x'.repeat(500), note: 'to a@b.c' }),
    ).toEqual({ itemId: 3, ok: true, route: '/x', long: 'x'.repeat(200), note: 'to [email]' });
  });

  it('the protocol log hands each line it writes to the reporter, within the same budget', () => {
    let t = 0;
    const reported: unknown[] = [];
    const log = new ProtocolLog({ warn: () => undefined } as never, () => t, { perSecond: 1, burst: 2 }, (frame) => reported.push(frame));
    for (let i = 0; i < 50; i++) log.failed({ channel: 'user', reason: 'schema', connectionId: i, userId: null });
    expect(reported).toHaveLength(2);
    t += 1_000;
    log.failed({ channel: 'user', reason: 'json', connectionId: 99, userId: 4 });
    expect(reported).toHaveLength(3);
  });

  it('no DSN: the reporter does nothing', async () => {
    const reporter = await createReporter(null);
    expect(reporter.enabled).toBe(false);
    reporter.exception(new Error('x'), { where: 'test' });
    await reporter.close();
  });
});
