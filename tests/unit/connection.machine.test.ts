import { Server, WebSocket as MockWebSocket, type Client } from 'mock-socket';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, setup, type ActorRefFrom } from 'xstate';
import { WS_CLOSE_UNAUTHENTICATED, type Channel } from '../../src/protocol/socket';
import {
  AUTH_TIMEOUT_MS,
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  CLOSE_UNAUTHORIZED,
  backoffDelay,
  connectionMachine,
  connectionWith,
  type CreateSocket,
  type ConnectionEvent,
  type ConnectionInput,
  type ConnectionOutEvent,
} from '../../src/machines/connection.machine';
import { createSocket, type WebSocketCtor } from '../../src/streams/socket';
import { fakeSocketFactory, type FakeSocketFactory } from './support/fake-socket';
import { BID_CREATED, HISTORY, STATUS, UNAUTHENTICATED } from './support/fixtures';

const AUCTION_URL = 'ws://kingdom.test:8081';
const USER_URL = 'ws://kingdom.test:8082';

/**
 * The connection talks to its parent with sendParent, so it runs as the child of a tiny parent
 * that records everything it is told.
 */
function start(options: { channel?: Channel; token?: string | null; createSocket?: CreateSocket } = {}) {
  const sockets: FakeSocketFactory = fakeSocketFactory();
  const channel = options.channel ?? 'auction';
  const input: ConnectionInput = {
    channel,
    url: channel === 'auction' ? AUCTION_URL : USER_URL,
    token: options.token === undefined ? 'tok-1' : options.token,
  };
  const told: ConnectionOutEvent[] = [];
  const parentMachine = setup({
    types: { events: {} as ConnectionOutEvent },
    actors: { connection: connectionWith(options.createSocket ?? sockets.createSocket) },
  }).createMachine({
    invoke: { id: 'connection', src: 'connection', input },
    on: { '*': { actions: ({ event }) => told.push(event) } },
  });
  const clock = new SimulatedClock();
  const parent = createActor(parentMachine, { clock }).start();
  const connection = parent.getSnapshot().children.connection as ActorRefFrom<typeof connectionMachine>;
  return {
    sockets,
    told,
    clock,
    parent,
    connection,
    send: (event: ConnectionEvent) => connection.send(event),
    state: () => connection.getSnapshot().value,
    context: () => connection.getSnapshot().context,
    statuses: () => told.filter((e) => e.type === 'CONNECTION.STATUS').map((e) => (e as { connected: boolean }).connected),
  };
}

/** Brings a fresh connection to `connected` on the current socket. */
function connect(t: ReturnType<typeof start>) {
  const socket = t.sockets.last();
  socket.open();
  socket.receive(t.context().channel === 'auction' ? HISTORY : STATUS);
  expect(t.state()).toEqual({ online: 'connected' });
  return socket;
}

describe('backoffDelay', () => {
  it('doubles from 1 s and stops at 30 s', () => {
    expect(BACKOFF_BASE_MS).toBe(1000);
    expect(BACKOFF_MAX_MS).toBe(30_000);
    expect([1, 2, 3, 4, 5, 6, 7, 20, 100].map(backoffDelay)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000]);
  });

  it("the close code it treats as unauthorized is the wire contract's", () => {
    expect(CLOSE_UNAUTHORIZED).toBe(WS_CLOSE_UNAUTHENTICATED);
  });

  it('treats attempt 0 (or less) as the first attempt', () => {
    expect(backoffDelay(0)).toBe(1000);
    expect(backoffDelay(-3)).toBe(1000);
  });
});

describe('connection machine', () => {
  it('stays idle without a token and opens no socket, even as time passes', () => {
    const t = start({ token: null });
    t.clock.increment(60_000);
    expect(t.state()).toBe('idle');
    expect(t.sockets.sockets).toHaveLength(0);
    expect(t.told).toEqual([]);
  });

  it('opens a socket to its URL when it has a token (connecting)', () => {
    const t = start({ token: 'tok-1' });
    expect(t.state()).toEqual({ online: 'connecting' });
    expect(t.sockets.sockets.map((s) => s.url)).toEqual([AUCTION_URL]);
    expect(t.sockets.last().subscribed).toBe(true);
  });

  it('auction: authenticates with "Bearer <token>" on open, and only that', () => {
    const t = start({ token: 'tok-1' });
    t.sockets.last().open();
    expect(t.state()).toEqual({ online: 'authenticating' });
    expect(t.sockets.last().sent).toEqual([{ type: 'AUTHENTICATION', access_token: 'Bearer tok-1' }]);
  });

  it('user: authenticates, then asks GET_STATUS', () => {
    const t = start({ channel: 'user', token: 'tok-9' });
    t.sockets.last().open();
    expect(t.sockets.last().url).toBe(USER_URL);
    expect(t.sockets.last().sent).toEqual([{ type: 'AUTHENTICATION', access_token: 'Bearer tok-9' }, { type: 'GET_STATUS' }]);
  });

  it('auction: HISTORY makes it connected; the parent gets the message, then the status', () => {
    const t = start();
    t.sockets.last().open();
    t.sockets.last().receive(HISTORY);
    expect(t.state()).toEqual({ online: 'connected' });
    expect(t.told).toEqual([
      { type: 'CONNECTION.MESSAGES', channel: 'auction', frames: [{ event: { type: 'message', msg: HISTORY } }] },
      { type: 'CONNECTION.STATUS', channel: 'auction', connected: true },
    ]);
  });

  it('a run of frames while authenticating is taken one frame at a time: connected at its HISTORY, the rest forwarded after', () => {
    const t = start();
    t.sockets.last().open();
    t.sockets.last().receiveRun([
      { raw: JSON.stringify(STATUS), at: 1 },
      { raw: 'garbage', at: 2 },
      { raw: JSON.stringify(HISTORY), at: 3 },
      { raw: JSON.stringify(BID_CREATED), at: 4 },
    ]);
    expect(t.state()).toEqual({ online: 'connected' });
    expect(t.told).toEqual([
      { type: 'CONNECTION.MESSAGES', channel: 'auction', frames: [{ event: { type: 'message', msg: STATUS }, at: 1 }] },
      { type: 'CONNECTION.PROTOCOL_ERRORS', channel: 'auction', errors: [{ type: 'protocol-error', reason: 'json', raw: 'garbage' }] },
      { type: 'CONNECTION.MESSAGES', channel: 'auction', frames: [{ event: { type: 'message', msg: HISTORY }, at: 3 }] },
      { type: 'CONNECTION.STATUS', channel: 'auction', connected: true },
      { type: 'CONNECTION.MESSAGES', channel: 'auction', frames: [{ event: { type: 'message', msg: BID_CREATED }, at: 4 }] },
    ]);
  });

  it('a run with ERROR UNAUTHENTICATED while authenticating stops there: nothing after it is forwarded', () => {
    const t = start();
    t.sockets.last().open();
    t.sockets.last().receiveRun([
      { raw: JSON.stringify(UNAUTHENTICATED), at: 1 },
      { raw: JSON.stringify(HISTORY), at: 2 },
    ]);
    expect(t.state()).toBe('unauthorized');
    expect(t.told.filter((e) => e.type === 'CONNECTION.MESSAGES')).toEqual([
      { type: 'CONNECTION.MESSAGES', channel: 'auction', frames: [{ event: { type: 'message', msg: UNAUTHENTICATED }, at: 1 }] },
    ]);
  });

  it('once connected, a run goes to the parent as one message event (the frames themselves) and one of protocol errors', () => {
    const t = start();
    const socket = connect(t);
    t.told.length = 0;
    socket.receiveRun([
      { raw: JSON.stringify(BID_CREATED), at: 10 },
      { raw: 'garbage', at: 11 },
      { raw: JSON.stringify(STATUS), at: 12 },
      { raw: '{"type":"NOPE"}', at: 13 },
    ]);
    expect(t.told).toEqual([
      {
        type: 'CONNECTION.MESSAGES',
        channel: 'auction',
        frames: [
          { event: { type: 'message', msg: BID_CREATED }, at: 10 },
          { event: { type: 'message', msg: STATUS }, at: 12 },
        ],
      },
      {
        type: 'CONNECTION.PROTOCOL_ERRORS',
        channel: 'auction',
        errors: [
          { type: 'protocol-error', reason: 'json', raw: 'garbage' },
          expect.objectContaining({ type: 'protocol-error', reason: 'schema', raw: '{"type":"NOPE"}' }),
        ],
      },
    ]);
    expect(t.state()).toEqual({ online: 'connected' });
  });

  it('gives up authenticating after AUTH_TIMEOUT_MS of silence and retries with backoff', () => {
    const t = start();
    t.sockets.last().open();
    t.clock.increment(AUTH_TIMEOUT_MS - 1);
    expect(t.state()).toEqual({ online: 'authenticating' });
    t.clock.increment(1);
    expect(t.state()).toBe('disconnected');
    expect(t.sockets.last().tornDown).toBe(true);
    t.clock.increment(backoffDelay(1));
    expect(t.state()).toEqual({ online: 'connecting' });
    expect(t.sockets.sockets).toHaveLength(2);
  });

  it('auction: a STATUS is not its answer to authentication (forwarded, still authenticating)', () => {
    const t = start();
    t.sockets.last().open();
    t.sockets.last().receive(STATUS);
    expect(t.state()).toEqual({ online: 'authenticating' });
    expect(t.told).toEqual([{ type: 'CONNECTION.MESSAGES', channel: 'auction', frames: [{ event: { type: 'message', msg: STATUS } }] }]);
  });

  it('user: STATUS makes it connected, HISTORY does not', () => {
    const t = start({ channel: 'user' });
    t.sockets.last().open();
    t.sockets.last().receive(HISTORY);
    expect(t.state()).toEqual({ online: 'authenticating' });
    t.sockets.last().receive(STATUS);
    expect(t.state()).toEqual({ online: 'connected' });
    expect(t.told).toEqual([
      { type: 'CONNECTION.MESSAGES', channel: 'user', frames: [{ event: { type: 'message', msg: HISTORY } }] },
      { type: 'CONNECTION.MESSAGES', channel: 'user', frames: [{ event: { type: 'message', msg: STATUS } }] },
      { type: 'CONNECTION.STATUS', channel: 'user', connected: true },
    ]);
  });

  it('forwards every message once connected, and bad frames as protocol errors', () => {
    const t = start();
    const socket = connect(t);
    t.told.length = 0;
    socket.receive(BID_CREATED);
    socket.receiveRaw('garbage');
    socket.receiveRaw(new ArrayBuffer(2));
    expect(t.told).toEqual([
      { type: 'CONNECTION.MESSAGES', channel: 'auction', frames: [{ event: { type: 'message', msg: BID_CREATED } }] },
      { type: 'CONNECTION.PROTOCOL_ERRORS', channel: 'auction', errors: [{ type: 'protocol-error', reason: 'json', raw: 'garbage' }] },
      { type: 'CONNECTION.PROTOCOL_ERRORS', channel: 'auction', errors: [{ type: 'protocol-error', reason: 'binary', raw: '' }] },
    ]);
    expect(t.state()).toEqual({ online: 'connected' });
  });

  it('sends SEND frames once authenticating or connected, and not while connecting', () => {
    const t = start();
    const bid = { type: 'CREATE_BID' as const, data: { itemId: 3, amount: 160, requestId: 'r-1' } };
    t.send({ type: 'SEND', frame: bid });
    expect(t.sockets.last().sent).toEqual([]);
    const socket = connect(t);
    t.send({ type: 'SEND', frame: bid });
    expect(socket.sent).toEqual([{ type: 'AUTHENTICATION', access_token: 'Bearer tok-1' }, bid]);
  });

  it('goes disconnected on close, tells the parent, and reconnects after 1 s of the clock', () => {
    const t = start();
    const first = connect(t);
    first.close(1006);
    expect(t.state()).toBe('disconnected');
    expect(t.statuses()).toEqual([true, false]);
    expect(t.context().attempt).toBe(1);
    expect(t.context().lastCloseCode).toBe(1006);
    expect(first.tornDown).toBe(true);

    t.clock.increment(999);
    expect(t.state()).toBe('disconnected');
    expect(t.sockets.sockets).toHaveLength(1);

    t.clock.increment(1);
    expect(t.state()).toEqual({ online: 'connecting' });
    expect(t.sockets.sockets).toHaveLength(2);
    const second = t.sockets.last();
    second.open();
    expect(second.sent).toEqual([{ type: 'AUTHENTICATION', access_token: 'Bearer tok-1' }]);
  });

  it('a close before it was ever connected is no "disconnected" news for the parent', () => {
    const t = start();
    t.sockets.last().open();
    t.sockets.last().close(1006);
    expect(t.state()).toBe('disconnected');
    expect(t.statuses()).toEqual([]);
  });

  it('backs off 1 s, 2 s, 4 s, 8 s, 16 s, then 30 s at most, while every attempt fails', () => {
    const t = start();
    const expected = [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000];
    for (const [i, delay] of expected.entries()) {
      t.sockets.last().close(1006);
      expect(t.state()).toBe('disconnected');
      expect(t.context().attempt).toBe(i + 1);
      t.clock.increment(delay - 1);
      expect(t.sockets.sockets).toHaveLength(i + 1);
      t.clock.increment(1);
      expect(t.sockets.sockets).toHaveLength(i + 2);
      expect(t.state()).toEqual({ online: 'connecting' });
    }
  });

  it('resets the attempts once connected: the next drop waits 1 s again', () => {
    const t = start();
    t.sockets.last().close(1006);
    t.clock.increment(1000);
    t.sockets.last().close(1006);
    t.clock.increment(2000);
    t.sockets.last().close(1006);
    expect(t.context().attempt).toBe(3);
    t.clock.increment(4000);

    connect(t);
    expect(t.context().attempt).toBe(0);

    t.sockets.last().close(1006);
    expect(t.context().attempt).toBe(1);
    const before = t.sockets.sockets.length;
    t.clock.increment(1000);
    expect(t.sockets.sockets).toHaveLength(before + 1);
  });

  it('RETRY_NOW reconnects at once from disconnected', () => {
    const t = start();
    t.sockets.last().close(1006);
    t.send({ type: 'RETRY_NOW' });
    expect(t.state()).toEqual({ online: 'connecting' });
    expect(t.sockets.sockets).toHaveLength(2);
    // the pending backoff timer went with the state: no third socket when it would have fired
    t.clock.increment(5000);
    expect(t.sockets.sockets).toHaveLength(2);
  });

  it('ERROR UNAUTHENTICATED while authenticating: unauthorized, socket closed, no retry until a new TOKEN', () => {
    const t = start();
    const socket = t.sockets.last();
    socket.open();
    socket.receive(UNAUTHENTICATED);
    expect(t.state()).toBe('unauthorized');
    expect(t.told).toEqual([
      { type: 'CONNECTION.MESSAGES', channel: 'auction', frames: [{ event: { type: 'message', msg: UNAUTHENTICATED } }] },
      { type: 'CONNECTION.UNAUTHORIZED', channel: 'auction' },
    ]);
    expect(socket.tornDown).toBe(true);

    t.clock.increment(10 * 60_000);
    expect(t.state()).toBe('unauthorized');
    expect(t.sockets.sockets).toHaveLength(1);
    t.send({ type: 'RETRY_NOW' });
    expect(t.sockets.sockets).toHaveLength(1);

    t.send({ type: 'TOKEN', token: 'tok-2' });
    expect(t.state()).toEqual({ online: 'connecting' });
    expect(t.sockets.sockets).toHaveLength(2);
    t.sockets.last().open();
    expect(t.sockets.last().sent).toEqual([{ type: 'AUTHENTICATION', access_token: 'Bearer tok-2' }]);
  });

  it('close code 4401 (from connected): disconnected news, then unauthorized, and no retry', () => {
    expect(CLOSE_UNAUTHORIZED).toBe(4401);
    const t = start({ channel: 'user' });
    const socket = connect(t);
    socket.close(4401);
    expect(t.state()).toBe('unauthorized');
    expect(t.context().lastCloseCode).toBe(4401);
    expect(t.told.slice(-2)).toEqual([
      { type: 'CONNECTION.STATUS', channel: 'user', connected: false },
      { type: 'CONNECTION.UNAUTHORIZED', channel: 'user' },
    ]);
    t.clock.increment(10 * 60_000);
    expect(t.sockets.sockets).toHaveLength(1);
    expect(t.state()).toBe('unauthorized');
  });

  it('close code 4401 while still connecting is unauthorized too', () => {
    const t = start();
    t.sockets.last().close(4401);
    expect(t.state()).toBe('unauthorized');
    t.clock.increment(60_000);
    expect(t.sockets.sockets).toHaveLength(1);
  });

  it('TOKEN null goes idle: the socket closes, the parent hears "disconnected", nothing retries', () => {
    const t = start();
    const socket = connect(t);
    t.send({ type: 'TOKEN', token: null });
    expect(t.state()).toBe('idle');
    expect(t.context().token).toBeNull();
    expect(socket.tornDown).toBe(true);
    expect(t.statuses()).toEqual([true, false]);
    t.clock.increment(60_000);
    expect(t.sockets.sockets).toHaveLength(1);
  });

  it('TOKEN null while waiting to retry cancels the retry', () => {
    const t = start();
    t.sockets.last().close(1006);
    t.send({ type: 'TOKEN', token: null });
    expect(t.state()).toBe('idle');
    expect(t.context().attempt).toBe(0);
    t.clock.increment(60_000);
    expect(t.sockets.sockets).toHaveLength(1);
  });

  it('a new TOKEN while connected reconnects with the new token and fresh attempts', () => {
    const t = start();
    const first = connect(t);
    t.send({ type: 'TOKEN', token: 'tok-2' });
    expect(first.tornDown).toBe(true);
    expect(t.state()).toEqual({ online: 'connecting' });
    expect(t.statuses()).toEqual([true, false]);
    t.sockets.last().open();
    expect(t.sockets.last().sent).toEqual([{ type: 'AUTHENTICATION', access_token: 'Bearer tok-2' }]);
  });

  it('a TOKEN while idle starts connecting', () => {
    const t = start({ token: null });
    t.send({ type: 'TOKEN', token: 'tok-3' });
    expect(t.state()).toEqual({ online: 'connecting' });
    t.sockets.last().open();
    expect(t.sockets.last().sent).toEqual([{ type: 'AUTHENTICATION', access_token: 'Bearer tok-3' }]);
  });

  it('a TOKEN while waiting to retry connects at once and resets the attempts', () => {
    const t = start();
    t.sockets.last().close(1006);
    t.clock.increment(1000);
    t.sockets.last().close(1006);
    expect(t.context().attempt).toBe(2);
    t.send({ type: 'TOKEN', token: 'tok-2' });
    expect(t.state()).toEqual({ online: 'connecting' });
    expect(t.sockets.sockets).toHaveLength(3);
    t.sockets.last().close(1006);
    expect(t.context().attempt).toBe(1);
  });

  it('stopping the parent closes the socket', () => {
    const t = start();
    const socket = connect(t);
    t.parent.stop();
    expect(socket.tornDown).toBe(true);
  });
});

describe('connection machine over mock-socket (end to end)', () => {
  const URL = 'ws://kingdom.test:18081';
  let server: Server | undefined;

  afterEach(async () => {
    const s = server;
    server = undefined;
    if (s) await new Promise<void>((resolve) => s.stop(resolve));
  });

  const eventually = (assertion: () => void) => vi.waitFor(assertion, { timeout: 2000, interval: 2 });

  it('authenticates, connects on HISTORY, forwards, drops, and reconnects on the simulated clock', async () => {
    server = new Server(URL, { mock: false });
    const clients: Client[] = [];
    const frames: unknown[] = [];
    server.on('connection', (socket) => {
      clients.push(socket);
      socket.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { type: string; access_token?: string };
        frames.push(frame);
        if (frame.type === 'AUTHENTICATION' && frame.access_token === 'Bearer tok-e2e') socket.send(JSON.stringify(HISTORY));
      });
    });

    const t = start({
      token: 'tok-e2e',
      createSocket: (url: string) => createSocket(url.replace(AUCTION_URL, URL), MockWebSocket as unknown as WebSocketCtor),
    });
    expect(t.state()).toEqual({ online: 'connecting' });

    await eventually(() => expect(t.state()).toEqual({ online: 'connected' }));
    expect(frames).toEqual([{ type: 'AUTHENTICATION', access_token: 'Bearer tok-e2e' }]);
    expect(t.told).toEqual([
      { type: 'CONNECTION.MESSAGES', channel: 'auction', frames: [{ event: { type: 'message', msg: HISTORY } }] },
      { type: 'CONNECTION.STATUS', channel: 'auction', connected: true },
    ]);

    clients[0].send(JSON.stringify(BID_CREATED));
    expect(t.told.at(-1)).toEqual({ type: 'CONNECTION.MESSAGES', channel: 'auction', frames: [{ event: { type: 'message', msg: BID_CREATED } }] });

    clients[0].close({ code: 1011, reason: 'restart', wasClean: false });
    await eventually(() => expect(t.state()).toBe('disconnected'));
    expect(t.context().lastCloseCode).toBe(1011);
    expect(t.statuses()).toEqual([true, false]);

    t.clock.increment(1000);
    await eventually(() => expect(t.state()).toEqual({ online: 'connected' }));
    expect(clients).toHaveLength(2);
    expect(t.statuses()).toEqual([true, false, true]);

    clients[1].close({ code: 4401, reason: 'revoked', wasClean: true });
    await eventually(() => expect(t.state()).toBe('unauthorized'));
    t.clock.increment(60_000);
    expect(t.state()).toBe('unauthorized');
    expect(clients).toHaveLength(2);
  });
});
