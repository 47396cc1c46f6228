import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FRAME_BYTES } from '../../src/protocol/socket';
import { authedSocket, signedIn, startTestServer, TestSocket } from './helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
let token: string;
let username: string;
beforeAll(async () => {
  server = await startTestServer();
  await signedIn(server); // the admin
  ({ token, username } = await signedIn(server));
});
afterAll(() => server.close());

const error = (error_type: string) => ({ type: 'ERROR', error_type });

describe.each([
  ['auction', () => server.auctionUrl],
  ['user', () => server.userUrl],
])('%s socket before authentication', (_name, url) => {
  it('answers UNAUTHENTICATED to any other frame and stays open', async () => {
    const socket = await TestSocket.open(url());
    socket.send({ type: 'GET_STATUS' });
    expect(await socket.next()).toEqual(error('UNAUTHENTICATED'));
    socket.send({ type: 'CREATE_BID', data: { itemId: 1, amount: 10, requestId: 'r1' } });
    expect(await socket.next()).toEqual(error('UNAUTHENTICATED'));
    // not JSON, binary, over the size limit: still "authenticate first"
    socket.send('this is not json');
    expect(await socket.next()).toEqual(error('UNAUTHENTICATED'));
    socket.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await socket.next()).toEqual(error('UNAUTHENTICATED'));
    socket.send({ type: 'GET_STATUS', pad: 'x'.repeat(MAX_FRAME_BYTES) });
    expect(await socket.next()).toEqual(error('UNAUTHENTICATED'));
    expect(socket.isOpen).toBe(true);
    socket.close();
  });

  it.each([
    ['a bad token', 'Bearer nope'],
    ['no Bearer prefix', 'nope'],
  ])('answers UNAUTHENTICATED and closes with 4401 for %s', async (_case, accessToken) => {
    const socket = await TestSocket.open(url());
    socket.send({ type: 'AUTHENTICATION', access_token: accessToken });
    expect(await socket.next()).toEqual(error('UNAUTHENTICATED'));
    expect((await socket.closed).code).toBe(4401);
  });

  it('closes with 4401 for an AUTHENTICATION frame without a token', async () => {
    const socket = await TestSocket.open(url());
    socket.send({ type: 'AUTHENTICATION' });
    expect(await socket.next()).toEqual(error('UNAUTHENTICATED'));
    expect((await socket.closed).code).toBe(4401);
  });
});

describe('auction socket', () => {
  it('sends HISTORY with empty lists on authentication', async () => {
    const socket = await authedSocket(server.auctionUrl, token);
    expect(await socket.next()).toEqual({ type: 'HISTORY', data: { bids: [], items: [], store: 'open' } });
    socket.close();
  });

  it('answers CREATE_BID with UNKNOWN_ITEM (no items yet), echoing the item and request', async () => {
    const socket = await authedSocket(server.auctionUrl, token);
    await socket.next();
    socket.send({ type: 'CREATE_BID', data: { itemId: 7, amount: 100, requestId: 'req-1' } });
    expect(await socket.next()).toEqual({ type: 'ERROR', error_type: 'UNKNOWN_ITEM', data: { itemId: 7, requestId: 'req-1' } });
    socket.close();
  });

  it('answers GET_STATUS (a user-socket frame) with WS_ERROR', async () => {
    const socket = await authedSocket(server.auctionUrl, token);
    await socket.next();
    socket.send({ type: 'GET_STATUS' });
    expect(await socket.next()).toEqual(error('WS_ERROR'));
    socket.close();
  });
});

describe('user socket', () => {
  it('answers GET_STATUS with STATUS, also when sent right after AUTHENTICATION', async () => {
    const socket = await TestSocket.open(server.userUrl);
    socket.send({ type: 'AUTHENTICATION', access_token: `Bearer ${token}` });
    socket.send({ type: 'GET_STATUS' });
    expect(await socket.next()).toEqual({
      type: 'STATUS',
      data: { username, rank: 'user', balance: 0, reserved: 0, available: 0 },
    });
    socket.close();
  });
});

describe('bad frames after authentication keep the connection open', () => {
  let socket: TestSocket;
  beforeAll(async () => {
    socket = await authedSocket(server.userUrl, token);
  });
  afterAll(() => socket.close());

  it.each([
    ['not JSON', 'this is not json', 'JSON_ERROR'],
    ['truncated JSON', '{"type":"GET_STATUS"', 'JSON_ERROR'],
    ['an unknown type', { type: 'DANCE' }, 'WS_ERROR'],
    ['no type', { hello: 1 }, 'WS_ERROR'],
    ['a JSON array', [1, 2], 'WS_ERROR'],
    ['a JSON string', '"GET_STATUS"', 'WS_ERROR'],
    ['a bid on the user socket', { type: 'CREATE_BID', data: { itemId: 1, amount: 5, requestId: 'x' } }, 'WS_ERROR'],
    ['a frame over the size limit', { type: 'GET_STATUS', pad: 'x'.repeat(MAX_FRAME_BYTES) }, 'WS_ERROR'],
  ])('%s → %s', async (_name, frame, errorType) => {
    socket.send(frame);
    expect(await socket.next()).toEqual(error(errorType));
    expect(socket.isOpen).toBe(true);
    socket.send({ type: 'GET_STATUS' });
    expect((await socket.next()).type).toBe('STATUS');
  });

  it('binary frame → WS_ERROR', async () => {
    socket.ws.send(Buffer.from('{"type":"GET_STATUS"}'), { binary: true });
    expect(await socket.next()).toEqual(error('WS_ERROR'));
    expect(socket.isOpen).toBe(true);
  });

  it('a frame that fails the schema → WS_ERROR', async () => {
    const auction = await authedSocket(server.auctionUrl, token);
    await auction.next();
    for (const data of [{ itemId: 'one', amount: 5, requestId: 'x' }, { itemId: 1, amount: 5 }, undefined]) {
      auction.send({ type: 'CREATE_BID', data });
      expect(await auction.next()).toEqual(error('WS_ERROR'));
    }
    expect(auction.isOpen).toBe(true);
    auction.close();
  });
});

describe('timeouts', () => {
  let quick: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    quick = await startTestServer({ authTimeoutMs: 200, heartbeatMs: 100 });
  });
  afterAll(() => quick.close());

  it('closes a connection that never authenticates', async () => {
    const socket = await TestSocket.open(quick.userUrl);
    expect(await socket.next()).toEqual(error('UNAUTHENTICATED'));
    expect((await socket.closed).code).toBe(4401);
  });

  it('keeps a connection that answers pings, and drops one that does not', async () => {
    const account = await signedIn(quick);
    const alive = await authedSocket(quick.auctionUrl, account.token);
    const deaf = await TestSocket.open(quick.auctionUrl, { autoPong: false });
    deaf.send({ type: 'AUTHENTICATION', access_token: `Bearer ${account.token}` });
    expect((await deaf.next()).type).toBe('HISTORY');
    expect((await alive.next()).type).toBe('HISTORY');
    // terminated without a close frame
    expect((await deaf.closed).code).toBe(1006);
    // two more pings: the server checked the pong to the first before sending the second
    for (let i = 0; i < 2; i++) await new Promise((resolve) => alive.ws.once('ping', resolve));
    expect(alive.isOpen).toBe(true);
    alive.close();
  });
});
