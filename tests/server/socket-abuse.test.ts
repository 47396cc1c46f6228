import net from 'node:net';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_BURST, WS_CLOSE_FLOODING, WS_CLOSE_TOO_MANY_SOCKETS, WS_CLOSE_UNAUTHENTICATED } from '../../src/protocol/socket';
import { revokeUserSessions } from '../../server/auth/sessions';
import { TOKEN_LIFETIME_MS } from '../../server/auth/tokens';
import { DEFAULT_SOCKET_LIMITS } from '../../server/sockets/limits';
import { meterAnonymous } from '../../server/sockets/socket-server';
import { bidCreated, bidder, createItem, errorFor, ManualClock, sendBid, type Bidder } from './auction-helpers';
import { authedSocket, signedIn, startTestServer, TestSocket } from './helpers';
import { onPostgres } from './test-database';

/** The budgets' clock, moved by hand: frames are never refilled behind a test's back. */
class SocketClock {
  t = 0;
  readonly now = () => this.t;
  /** Long enough for every bucket to be full again. */
  refill(): void {
    this.t += 3_600_000;
  }
}

const bidRows = async (db: Parameters<typeof revokeUserSessions>[0]) =>
  Number((await db.selectFrom('bid_requests').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('frame budgets', () => {
  const clock = new SocketClock();
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(async () => {
    server = await startTestServer({}, { socketClock: clock.now });
    admin = await signedIn(server, 'admin');
  });
  afterAll(() => server.close());

  it('a flooding socket is answered within its budget, warned once naming the dropped bid, then dropped silently, then closed with 4429', async () => {
    const socket = await authedSocket(server.auctionUrl, admin.token);
    await socket.nextOf('HISTORY');
    clock.refill();
    const answers: Promise<Record<string, unknown>>[] = [];
    for (let i = 0; i < FRAME_BURST; i++) answers.push(errorFor(socket, sendBid(socket, 4242, 10, `within-${i}`)));
    expect((await Promise.all(answers)).map((f) => f.error_type)).toEqual(Array(FRAME_BURST).fill('UNKNOWN_ITEM'));
    // the budget is spent (the clock stands still): one warning naming the first dropped bid, silence, then the close
    for (let i = 0; i < DEFAULT_SOCKET_LIMITS.floodStrikes + 50; i++) sendBid(socket, 4242, 10, `flood-${i}`);
    expect((await socket.closed).code).toBe(WS_CLOSE_FLOODING);
    expect(socket.drain()).toEqual([{ type: 'ERROR', error_type: 'WS_ERROR', data: { itemId: 4242, requestId: 'flood-0' } }]);
  });

  it('the account budget is shared by all its sockets; once the budget has refilled, its sockets are answered again', async () => {
    clock.refill();
    const account = await signedIn(server);
    const sockets = await Promise.all([1, 2, 3].map(() => authedSocket(server.userUrl, account.token)));
    for (const s of sockets) {
      s.send({ type: 'GET_STATUS' });
      await s.nextOf('STATUS');
    }
    clock.refill();
    // every socket has its own 20, the account 40 between them: 15 and 14 pass, then 11 of the third's 14
    const { burst } = DEFAULT_SOCKET_LIMITS.accountFrames;
    const statuses = async (s: TestSocket, n: number) => {
      for (let i = 0; i < n; i++) expect((await s.next()).type).toBe('STATUS');
    };
    for (let i = 0; i < 15; i++) sockets[0].send({ type: 'GET_STATUS' });
    await statuses(sockets[0], 15);
    for (let i = 0; i < 14; i++) sockets[1].send({ type: 'GET_STATUS' });
    await statuses(sockets[1], 14);
    for (let i = 0; i < 14; i++) sockets[2].send({ type: 'GET_STATUS' });
    // (the warning is written at once, the answers after a read: any order)
    const third = await Promise.all(Array.from({ length: burst - 29 + 1 }, () => sockets[2].next()));
    expect(third.filter((f) => f.type === 'STATUS')).toHaveLength(burst - 29);
    expect(third.filter((f) => f.type === 'ERROR')).toEqual([{ type: 'ERROR', error_type: 'WS_ERROR' }]);
    // the first socket still has its own tokens, but the account has none: its own one warning
    sockets[0].send({ type: 'GET_STATUS' });
    sockets[0].send({ type: 'GET_STATUS' });
    expect(await sockets[0].next()).toEqual({ type: 'ERROR', error_type: 'WS_ERROR' });
    // once the budget has refilled, each socket's next frame is the answer to its next request:
    // none of the dropped frames was answered in between
    clock.refill();
    for (const s of sockets) expect((await s.roundTrip({ type: 'GET_STATUS' })).type).toBe('STATUS');
    for (const s of sockets) expect(s.isOpen).toBe(true);
    for (const s of sockets) s.close();
  });

  it('an unauthenticated socket over its budget is cut off: nothing it sent after the budget is parsed or answered, and its socket is destroyed', async () => {
    clock.refill();
    const socket = await TestSocket.open(server.userUrl);
    // the budget, frame by frame: each is answered UNAUTHENTICATED
    for (let i = 0; i < FRAME_BURST; i++) expect(await socket.roundTrip({ type: 'GET_STATUS' })).toEqual({ type: 'ERROR', error_type: 'UNAUTHENTICATED' });
    // over it (the clock stands still): frames that would each be answered (JSON_ERROR or
    // UNAUTHENTICATED) were they parsed, and an AUTHENTICATION that would be taken
    for (let i = 0; i < 50; i++) socket.send(i % 2 ? 'not json' : { type: 'GET_STATUS' });
    socket.send({ type: 'AUTHENTICATION', access_token: `Bearer ${admin.token}` });
    // no warning, no closing handshake: the server destroys the TCP connection (the client sees 1006)
    expect((await socket.closed).code).toBe(1006);
    expect(socket.drain()).toEqual([]);
    expect(server.hub.count('user')).toBe(0);
  });

  it('what a connection not yet authenticated sends reaches ws a piece at a time, none once its socket is destroyed, and whole once it is authenticated', () => {
    const socket = new PassThrough();
    const pieces: number[] = [];
    // as ws's reader: the second piece puts the connection over its budget
    function reader(chunk: Buffer) {
      pieces.push(chunk.length);
      if (pieces.length === 2) socket.destroy();
    }
    socket.on('data', reader);
    const peer: { conn: { auth: unknown } } = { conn: { auth: null } };
    meterAnonymous(socket, peer as Parameters<typeof meterAnonymous>[1]);
    socket.emit('data', Buffer.alloc(64 * 1024));
    expect(pieces).toEqual([1024, 1024]);
    const authed = new PassThrough();
    const whole: number[] = [];
    const wholeReader = (chunk: Buffer) => whole.push(chunk.length);
    authed.on('data', wholeReader);
    meterAnonymous(authed, { conn: { auth: {} } } as Parameters<typeof meterAnonymous>[1]);
    authed.emit('data', Buffer.alloc(64 * 1024));
    expect(whole).toEqual([64 * 1024]);
    // ws takes its reader off by itself: the metered one goes with it
    authed.removeListener('data', wholeReader);
    expect(authed.listenerCount('data')).toBe(0);
  });

  it('a repeated AUTHENTICATION is refused with WS_ERROR and no second HISTORY', async () => {
    clock.refill();
    const socket = await authedSocket(server.auctionUrl, admin.token);
    expect((await socket.next()).type).toBe('HISTORY');
    for (let i = 0; i < 3; i++) socket.send({ type: 'AUTHENTICATION', access_token: `Bearer ${admin.token}` });
    for (let i = 0; i < 3; i++) expect(await socket.next()).toEqual({ type: 'ERROR', error_type: 'WS_ERROR' });
    // no second HISTORY: the next frame is the answer to the next request
    expect(await socket.roundTrip()).toEqual({ type: 'ERROR', error_type: 'WS_ERROR' });
    expect(socket.isOpen).toBe(true);
    socket.close();
  });
});

describe('caps on sockets', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer({ socketLimits: { ...DEFAULT_SOCKET_LIMITS, socketsPerAccount: 2, anonymousPerAddress: 3, socketsPerAddress: 6 } });
    await signedIn(server, 'admin');
  });
  afterAll(() => server.close());

  it('an account over its socket cap is refused (WS_ERROR, close 4409) and its other sockets stay', async () => {
    const account = await signedIn(server);
    const first = await authedSocket(server.auctionUrl, account.token);
    const second = await authedSocket(server.auctionUrl, account.token);
    await first.nextOf('HISTORY');
    await second.nextOf('HISTORY');
    const third = await authedSocket(server.auctionUrl, account.token);
    expect(await third.next()).toEqual({ type: 'ERROR', error_type: 'WS_ERROR' });
    expect((await third.closed).code).toBe(WS_CLOSE_TOO_MANY_SOCKETS);
    expect(first.isOpen && second.isOpen).toBe(true);
    // the user socket counts apart
    const user = await authedSocket(server.userUrl, account.token);
    user.send({ type: 'GET_STATUS' });
    expect((await user.next()).type).toBe('STATUS');
    for (const s of [first, second, user]) s.close();
    await Promise.all([first.closed, second.closed, user.closed]);
  });

  it('an address over its cap of sockets waiting to sign in is refused at the handshake (HTTP 429)', async () => {
    const waiting = await Promise.all([1, 2, 3].map(() => TestSocket.open(server.userUrl)));
    await expect(TestSocket.open(server.userUrl)).rejects.toThrow(/429/);
    waiting[0].close();
    await waiting[0].closed;
    const another = await TestSocket.open(server.userUrl);
    for (const s of [...waiting.slice(1), another]) s.close();
    await Promise.all([...waiting.slice(1), another].map((s) => s.closed));
  });

  it('an address over its cap of TCP connections is cut off before any handshake', async () => {
    const port = Number(new URL(server.userUrl).port);
    const raw = await Promise.all(
      Array.from({ length: 6 }, () => new Promise<net.Socket>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => resolve(s));
      })),
    );
    const extra = net.connect(port, '127.0.0.1');
    extra.on('error', () => undefined);
    await new Promise<void>((resolve) => extra.once('close', () => resolve()));
    expect(extra.bytesRead).toBe(0);
    for (const s of raw) s.destroy();
  });
});

describe('the total cap of a socket server', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    // no timeout closes a connection during the test: only the cap does
    server = await startTestServer({ authTimeoutMs: 60_000, socketLimits: { ...DEFAULT_SOCKET_LIMITS, maxConnections: 4 } });
    await signedIn(server, 'admin');
  });
  afterAll(() => server.close());

  /** A new player's auction socket, once it has its HISTORY. */
  const player = async () => {
    const socket = await authedSocket(server.auctionUrl, (await signedIn(server)).token);
    expect((await socket.next()).type).toBe('HISTORY');
    return socket;
  };

  it('makes room by closing the connection silent the longest, those not yet authenticated first', async () => {
    const watcher = await player();
    const [first, second, third] = [await TestSocket.open(server.auctionUrl), await TestSocket.open(server.auctionUrl), await TestSocket.open(server.auctionUrl)];
    // the third speaks (it is still not authenticated): the first and second are now silent the longest
    expect(await third.roundTrip()).toEqual({ type: 'ERROR', error_type: 'UNAUTHENTICATED' });
    // the cap (4) is reached: players still get in, and the oldest silent anonymous ones make room
    const a = await player();
    expect((await first.closed).code).toBe(1006);
    const b = await player();
    expect((await second.closed).code).toBe(1006);
    // an anonymous one goes before any authenticated, though the watcher has been silent longer
    const c = await player();
    expect((await third.closed).code).toBe(1006);
    // all authenticated: the one silent the longest (the watcher) makes room
    const d = await player();
    expect((await watcher.closed).code).toBe(1006);
    for (const s of [a, b, c, d]) expect(s.isOpen).toBe(true);
    for (const s of [a, b, c, d]) s.close();
    await Promise.all([a, b, c, d].map((s) => s.closed));
  });
});

describe('idle and slow connections', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(async () => {
    server = await startTestServer({
      frameRateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
      socketLimits: { ...DEFAULT_SOCKET_LIMITS, addressFrames: { perSecond: 1_000_000, burst: 1_000_000 }, accountFrames: { perSecond: 1_000_000, burst: 1_000_000 }, maxBufferedBytes: 64 * 1024, headersTimeoutMs: 300 },
    });
    admin = await signedIn(server, 'admin');
  });
  afterAll(() => server.close());

  it('a socket that never reads is dropped once its unsent answers pass the bound, instead of being buffered without end', async () => {
    const socket = await authedSocket(server.userUrl, admin.token);
    socket.send({ type: 'GET_STATUS' });
    await socket.nextOf('STATUS');
    socket.ws.pause();
    // every frame is answered JSON_ERROR (43 bytes): 200,000 of them are 8.6 MB, more than the kernel holds
    const sent = 200_000;
    for (let i = 0; i < sent; i++) socket.ws.send('x');
    // the server drops it: wait for that event, not for time
    await new Promise<void>((resolve) => {
      if (server.hub.count('user') === 0) return resolve();
      const stop = server.hub.onDetach(() => {
        if (server.hub.count('user') === 0) {
          stop();
          resolve();
        }
      });
    });
    socket.ws.resume();
    expect((await socket.closed).code).toBe(1006);
    expect(socket.drain().length).toBeLessThan(sent);
  });

  it('a TCP connection that never sends its upgrade request is closed', async () => {
    const raw = net.connect(Number(new URL(server.auctionUrl).port), '127.0.0.1');
    raw.on('error', () => undefined);
    await new Promise<void>((resolve) => raw.once('close', () => resolve()));
    expect(raw.destroyed).toBe(true);
  });
});

describe('sessions', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  // the sockets tell an ended session by this clock: the test moves it, no time has to pass
  const sessions = new ManualClock();
  beforeAll(async () => {
    server = await startTestServer({ heartbeatMs: 100 }, { sessionClock: sessions.now });
    await signedIn(server, 'admin');
  });
  afterAll(() => server.close());

  const sessionOf = async (username: string) => {
    const user = await server.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
    return { userId: user.id, session: await server.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow() };
  };

  it('a socket closes when its session expires, without sending anything', async () => {
    const account = await signedIn(server);
    const { session } = await sessionOf(account.username);
    await server.db.updateTable('sessions').set({ expires_at: sessions.t + 60_000 }).where('id', '=', session.id).execute();
    const socket = await authedSocket(server.auctionUrl, account.token);
    expect((await socket.next()).type).toBe('HISTORY');
    // the session ends: the next heartbeat's sweep finds it
    sessions.advance(120_000);
    expect((await socket.closed).code).toBe(WS_CLOSE_UNAUTHENTICATED);
    expect(socket.drain()).toEqual([]);
  });

  it('revoking an account\'s sessions closes their sockets at once, on both channels', async () => {
    const account = await signedIn(server);
    const { userId } = await sessionOf(account.username);
    const auction = await authedSocket(server.auctionUrl, account.token);
    await auction.nextOf('HISTORY');
    const user = await authedSocket(server.userUrl, account.token);
    user.send({ type: 'GET_STATUS' });
    await user.nextOf('STATUS');
    expect(await revokeUserSessions(server.db, userId)).toHaveLength(1);
    expect((await auction.closed).code).toBe(WS_CLOSE_UNAUTHENTICATED);
    expect((await user.closed).code).toBe(WS_CLOSE_UNAUTHENTICATED);
  });

  it('a session revoked in the database by another process is found at the next heartbeat', async () => {
    const account = await signedIn(server);
    const { session } = await sessionOf(account.username);
    const socket = await authedSocket(server.auctionUrl, account.token);
    await socket.nextOf('HISTORY');
    await sql`update sessions set revoked_at = ${Date.now()} where id = ${session.id}`.execute(server.db);
    expect((await socket.closed).code).toBe(WS_CLOSE_UNAUTHENTICATED);
  });
});

describe('the sockets read session ends from their injected clock', () => {
  // sessions are written on the real clock: the injected one starts there and moves by hand
  const sessionClock = new ManualClock();
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer({}, { sessionClock: sessionClock.now });
  });
  afterAll(() => server.close());

  it('a frame after the session has ended on that clock is refused and the socket closed', async () => {
    const account = await signedIn(server);
    const socket = await authedSocket(server.userUrl, account.token);
    expect((await socket.roundTrip({ type: 'GET_STATUS' })).type).toBe('STATUS');
    sessionClock.advance(TOKEN_LIFETIME_MS + 60_000);
    expect(await socket.roundTrip({ type: 'GET_STATUS' })).toEqual({ type: 'ERROR', error_type: 'UNAUTHENTICATED' });
    expect((await socket.closed).code).toBe(WS_CLOSE_UNAUTHENTICATED);
  });
});

describe('bids that cannot succeed are refused without a write', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  let who: Bidder;
  beforeAll(async () => {
    server = await startTestServer({ frameRateLimit: { perSecond: 1000, burst: 1000 } });
    admin = await signedIn(server, 'admin');
    who = await bidder(server, admin.token, 500);
  });
  afterAll(() => server.close());

  it('unknown item, not live, below the minimum, over the balance: the same ERROR as ever, no bid_requests row, no write transaction', async () => {
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 10 });
    const scheduled = await createItem(server, admin.token, { startsAt: Date.now() + 3_600_000 });
    // the bidder's row comes into the picture with their first bid's transaction
    sendBid(who.auction, item.itemId, 100);
    await bidCreated(who.auction, item.itemId, 100, who.username);
    const rows = await bidRows(server.db);
    const { queued, early } = server.auction.bidView.stats;

    const cases: [number, unknown, string][] = [
      [987_654, 200, 'UNKNOWN_ITEM'],
      [scheduled.itemId, 200, 'BID_OPEN_ERROR'],
      [item.itemId, 105, 'BID_AMOUNT_ERROR'],
      [item.itemId, 'lots', 'BID_AMOUNT_ERROR'],
      [item.itemId, 501, 'OUT_OF_BALANCE'],
    ];
    for (const [itemId, amount, errorType] of cases) {
      const requestId = sendBid(who.auction, itemId, amount);
      expect(await errorFor(who.auction, requestId)).toEqual({ type: 'ERROR', error_type: errorType, data: { itemId, requestId } });
    }
    // (on PostgreSQL the bids sent to the transaction leave their refusal on record)
    expect(await bidRows(server.db)).toBe(rows + (onPostgres ? cases.filter(([, , type]) => type !== 'BID_AMOUNT_ERROR').length : 0));
    // on PostgreSQL other processes may create or start an item or free a bidder's points, so only
    // what none can undo (an amount below the minimum or not an amount) is refused without a write
    const refusedEarly = onPostgres ? cases.filter(([, , type]) => type === 'BID_AMOUNT_ERROR').length : cases.length;
    expect(server.auction.bidView.stats).toEqual({ queued: queued + cases.length - refusedEarly, early: early + refusedEarly });
  });

  it('an accepted requestId sent again gets its BID_CREATED, even when the picture would now refuse it', async () => {
    const item = await createItem(server, admin.token, { start_price: 10, minIncrement: 10 });
    const requestId = sendBid(who.auction, item.itemId, 10);
    const first = await bidCreated(who.auction, item.itemId, 10, who.username);
    sendBid(who.auction, item.itemId, 20);
    await bidCreated(who.auction, item.itemId, 20, who.username);
    who.auction.drain();
    // 10 is now below the minimum (30), but this requestId was accepted
    sendBid(who.auction, item.itemId, 10, requestId);
    expect(await who.auction.nextOf('BID_CREATED')).toEqual(first);
  });

  it('a requestId refused early keeps its answer when sent again, even once the bid would pass', async () => {
    const item = await createItem(server, admin.token, { start_price: 10, minIncrement: 10 });
    sendBid(who.auction, item.itemId, 10);
    await bidCreated(who.auction, item.itemId, 10, who.username);
    const requestId = sendBid(who.auction, item.itemId, 15);
    expect((await errorFor(who.auction, requestId)).error_type).toBe('BID_AMOUNT_ERROR');
    sendBid(who.auction, item.itemId, 40, requestId);
    expect((await errorFor(who.auction, requestId)).error_type).toBe('BID_AMOUNT_ERROR');
    expect((await server.db.selectFrom('items').select('amount').where('id', '=', item.itemId).executeTakeFirstOrThrow()).amount).toBe(10);
  });
});

describe('the snipe fails: a bid is judged against the end as it stood when the bid arrived', () => {
  const clock = new ManualClock();
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(async () => {
    server = await startTestServer(
      { frameRateLimit: { perSecond: 1000, burst: 1000 }, socketLimits: { ...DEFAULT_SOCKET_LIMITS, accountFrames: { perSecond: 1000, burst: 1000 } } },
      { now: clock.now },
    );
    admin = await signedIn(server, 'admin');
  });
  afterAll(() => server.close());

  it('while the leader floods, no refused bid is written and a rival bid 5 s before the end wins', async () => {
    const [leader, rival] = await Promise.all([bidder(server, admin.token, 1_000, 'leader'), bidder(server, admin.token, 1_000, 'rival')]);
    const item = await createItem(server, admin.token, { start_price: 10, minIncrement: 5, duration: 60 });
    sendBid(leader.auction, item.itemId, 10);
    await bidCreated(leader.auction, item.itemId, 10, leader.username);
    const rows = await bidRows(server.db);

    clock.t = item.endsAt - 22_000;
    const flood = Array.from({ length: 200 }, (_, i) => sendBid(leader.auction, item.itemId, 1 + (i % 10)));
    clock.t = item.endsAt - 5_000;
    sendBid(rival.auction, item.itemId, 50);
    await bidCreated(rival.auction, item.itemId, 50, rival.username);
    for (const requestId of flood) expect((await errorFor(leader.auction, requestId)).error_type).toBe('BID_AMOUNT_ERROR');
    expect(await bidRows(server.db)).toBe(rows + 1);

    clock.t = item.endsAt;
    await server.auction.tick();
    expect(await rival.auction.nextOf('WINNER')).toMatchObject({ data: { itemId: item.itemId, amount: 50, username: rival.username } });
  });

  it('a bid that arrived before the end, behind a queue that drains after it, is accepted and timed at its arrival', async () => {
    const [leader, rival] = await Promise.all([bidder(server, admin.token, 1_000, 'leader'), bidder(server, admin.token, 1_000, 'rival')]);
    const item = await createItem(server, admin.token, { start_price: 10, minIncrement: 5, duration: 60 });
    sendBid(leader.auction, item.itemId, 10);
    await bidCreated(leader.auction, item.itemId, 10, leader.username);

    // the queue is held (a slow disk, a long job): the flood and the rival's bid wait in it
    let release!: () => void;
    const held = server.auction.exclusive(() => new Promise<void>((resolve) => (release = () => resolve())));
    clock.t = item.endsAt - 22_000;
    const flood = Array.from({ length: 100 }, () => sendBid(leader.auction, item.itemId, 11));
    clock.t = item.endsAt - 5_000;
    sendBid(rival.auction, item.itemId, 50);
    // a frame answered at once, after the bid: the bid has reached the server
    rival.auction.send('not json');
    expect(await rival.auction.nextOf('ERROR')).toEqual({ type: 'ERROR', error_type: 'JSON_ERROR' });

    // the end passes and its settlement queues behind the bids
    clock.t = item.endsAt + 6_500;
    const settled = server.auction.tick();
    release();
    await held;
    const created = await bidCreated(rival.auction, item.itemId, 50, rival.username);
    expect(created.data).toMatchObject({ timestamp: item.endsAt - 5_000, endsAt: item.endsAt });
    for (const requestId of flood) expect((await errorFor(leader.auction, requestId)).error_type).toBe('BID_AMOUNT_ERROR');
    await settled;
    expect(await rival.auction.nextOf('WINNER')).toMatchObject({ data: { itemId: item.itemId, amount: 50, username: rival.username } });
  });
});
