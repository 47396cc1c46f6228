import { Server, WebSocket as MockWebSocket, type Client } from 'mock-socket';
import type { Subscription } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutgoingFrame } from '../../src/protocol/socket';
import { createSocket, type SocketEvent, type WebSocketCtor } from '../../src/streams/socket';
import { STATUS } from './support/fixtures';

const URL = 'ws://kingdom.test:8082';
const MockCtor = MockWebSocket as unknown as WebSocketCtor;

/** mock-socket delivers open, client frames and close on its own 4 ms timers: wait for the outcome, not for a time. */
const eventually = (assertion: () => void) => vi.waitFor(assertion, { timeout: 2000, interval: 2 });

describe('createSocket (mock-socket)', () => {
  let server: Server;
  let serverSide: Client[];
  let received: string[];
  let subscription: Subscription | undefined;

  beforeEach(() => {
    server = new Server(URL, { mock: false });
    serverSide = [];
    received = [];
    server.on('connection', (socket) => {
      serverSide.push(socket);
      socket.on('message', (data) => received.push(String(data)));
    });
  });

  afterEach(async () => {
    subscription?.unsubscribe();
    subscription = undefined;
    await new Promise<void>((resolve) => server.stop(resolve));
  });

  function listen(handle: ReturnType<typeof createSocket>) {
    const events: SocketEvent[] = [];
    let completed = false;
    subscription = handle.events$.subscribe({ next: (e) => events.push(e), complete: () => (completed = true) });
    return { events, isCompleted: () => completed };
  }

  it('emits open, then every frame normalised, then close, in order, and completes', async () => {
    const handle = createSocket(URL, MockCtor);
    const { events, isCompleted } = listen(handle);
    expect(events).toEqual([]); // opening is asynchronous, like a browser's

    await eventually(() => expect(serverSide).toHaveLength(1));
    const socket = serverSide[0];
    socket.send(JSON.stringify(STATUS));
    socket.send('not json');
    socket.send('{"type":"NOPE"}');
    socket.send(new ArrayBuffer(4));
    socket.close({ code: 4401, reason: 'token revoked', wasClean: true });

    await eventually(() => expect(isCompleted()).toBe(true));
    // live, every frame comes on its own, as soon as it arrives (no time of arrival given)
    expect(events.filter((e) => e.kind === 'frames').every((e) => e.frames.length === 1 && e.frames[0].at === undefined)).toBe(true);
    const label = (e: SocketEvent) => {
      if (e.kind !== 'frames') return e.kind;
      const { event } = e.frames[0];
      return event.type === 'message' ? event.msg.type : event.reason;
    };
    expect(events.map(label)).toEqual([
      'open',
      'STATUS',
      'json',
      'schema',
      'binary',
      'close',
    ]);
    expect(events[1]).toEqual({ kind: 'frames', frames: [{ event: { type: 'message', msg: STATUS } }] });
    expect(events[5]).toEqual({ kind: 'close', code: 4401 });
  });

  it('sends frames as JSON once open, records them on sent$ and returns true', async () => {
    const handle = createSocket(URL, MockCtor);
    const recorded: OutgoingFrame[] = [];
    handle.sent$.subscribe((f) => recorded.push(f));
    const { events } = listen(handle);
    await eventually(() => expect(events).toEqual([{ kind: 'open' }]));

    const auth: OutgoingFrame = { type: 'AUTHENTICATION', access_token: 'Bearer tok-1' };
    const status: OutgoingFrame = { type: 'GET_STATUS' };
    expect(handle.send(auth)).toBe(true);
    expect(handle.send(status)).toBe(true);

    expect(recorded).toEqual([auth, status]);
    await eventually(() => expect(received).toHaveLength(2));
    expect(received.map((r) => JSON.parse(r))).toEqual([auth, status]);
  });

  it('returns false and records nothing before anyone subscribed, while connecting and after close', async () => {
    const handle = createSocket(URL, MockCtor);
    const recorded: OutgoingFrame[] = [];
    handle.sent$.subscribe((f) => recorded.push(f));
    const frame: OutgoingFrame = { type: 'GET_STATUS' };

    expect(handle.send(frame)).toBe(false); // no socket yet

    const { events, isCompleted } = listen(handle);
    expect(handle.send(frame)).toBe(false); // still connecting

    await eventually(() => expect(events).toEqual([{ kind: 'open' }]));
    serverSide[0].close({ code: 1000, reason: '', wasClean: true });
    await eventually(() => expect(isCompleted()).toBe(true));

    expect(handle.send(frame)).toBe(false); // closed
    expect(recorded).toEqual([]);
    expect(received).toEqual([]);
  });

  it('close() closes the socket with 1000 and the stream reports it', async () => {
    const handle = createSocket(URL, MockCtor);
    const { events, isCompleted } = listen(handle);
    await eventually(() => expect(events).toEqual([{ kind: 'open' }]));

    handle.close();

    await eventually(() => expect(isCompleted()).toBe(true));
    expect(events).toEqual([{ kind: 'open' }, { kind: 'close', code: 1000 }]);
    expect(handle.send({ type: 'GET_STATUS' })).toBe(false);
  });

  it('unsubscribing closes the socket: the server sees it go', async () => {
    const handle = createSocket(URL, MockCtor);
    const { events } = listen(handle);
    await eventually(() => expect(events).toEqual([{ kind: 'open' }]));
    const serverClosed = vi.fn();
    serverSide[0].on('close', serverClosed);

    subscription?.unsubscribe();

    await eventually(() => expect(serverClosed).toHaveBeenCalledTimes(1));
    expect(server.clients()).toHaveLength(0);
    expect(events).toEqual([{ kind: 'open' }]); // no close reaches an unsubscribed listener
    expect(handle.send({ type: 'GET_STATUS' })).toBe(false);
  });

  it('shares one WebSocket between subscribers and opens a new one per subscription after a close', async () => {
    const handle = createSocket(URL, MockCtor);
    const first = listen(handle);
    const second: SocketEvent[] = [];
    handle.events$.subscribe((e) => second.push(e));
    await eventually(() => expect(first.events).toEqual([{ kind: 'open' }]));
    expect(serverSide).toHaveLength(1);
    expect(second).toEqual([{ kind: 'open' }]);

    serverSide[0].close({ code: 1000, reason: '', wasClean: true });
    await eventually(() => expect(first.isCompleted()).toBe(true));

    const again = listen(handle);
    await eventually(() => expect(again.events).toEqual([{ kind: 'open' }]));
    expect(serverSide).toHaveLength(2);
  });

  it('reports a close when no server answers at that address', async () => {
    const handle = createSocket('ws://nobody.test:9999', MockCtor);
    const { events, isCompleted } = listen(handle);
    await eventually(() => expect(isCompleted()).toBe(true));
    expect(events).toHaveLength(1);
    expect(events[0].kind).toBe('close');
  });

  it('reports close 1006 and completes when the constructor throws (a malformed URL)', () => {
    const handle = createSocket('http://not-a-socket', MockCtor);
    const events: SocketEvent[] = [];
    let completed = false;
    expect(() => handle.events$.subscribe({ next: (e) => events.push(e), complete: () => (completed = true) })).not.toThrow();
    expect(events).toEqual([{ kind: 'close', code: 1006 }]);
    expect(completed).toBe(true);
    expect(handle.send({ type: 'GET_STATUS' })).toBe(false);
  });

  it('passes the URL to the constructor it was given', () => {
    const urls: string[] = [];
    class RecordingSocket extends MockWebSocket {
      constructor(url: string) {
        urls.push(url);
        super(url);
      }
    }
    const handle = createSocket(URL, RecordingSocket as unknown as WebSocketCtor);
    expect(urls).toEqual([]); // nothing opens before a subscription
    listen(handle);
    expect(urls).toEqual([URL]);
  });
});
