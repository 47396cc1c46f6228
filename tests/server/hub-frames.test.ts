import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import * as wsModule from 'ws';
import { WebSocket, WebSocketServer } from 'ws';
import type { ServerMsg } from '../../src/protocol/socket';
import type { AuthContext } from '../../server/auth/authenticate';
import { textFrame } from '../../server/sockets/frame';
import { Hub, type Connection } from '../../server/sockets/hub';

/**
 * The hub frames a message once and writes the same bytes to every socket (the fan-out
 * floor). These tests read what real ws clients receive: every frame intact and in order, whatever
 * the payload length (7-, 16- and 64-bit length fields), broadcasts mixed with frames for one user,
 * and on a connection that negotiated permessage-deflate (which the server does not offer, but
 * which must still work: ws compresses, asynchronously, so a ready frame must not overtake it).
 */

const { Sender } = wsModule as unknown as {
  Sender: { frame(data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }): Buffer[] };
};

/** Payload lengths around each of the header's length encodings. */
const SIZES = [0, 1, 100, 125, 126, 127, 1000, 65_535, 65_536, 70_000];

describe('textFrame', () => {
  it.each(SIZES)('gives the bytes ws frames an unmasked text message of %i bytes with', (size) => {
    const payload = Buffer.alloc(size, 'k');
    const byWs = Buffer.concat(Sender.frame(payload, { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false }));
    expect(textFrame(payload).equals(byWs)).toBe(true);
  });
});

// ── a hub over a real ws server ──────────────────────────────────────────────────────────────
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

let nextId = 1;
async function hubServer(perMessageDeflate: boolean, hub = new Hub()) {
  const server = http.createServer();
  const wss = new WebSocketServer({ server, perMessageDeflate: perMessageDeflate ? { threshold: 0 } : false });
  const attached: Connection[] = [];
  const waiting: ((conn: Connection) => void)[] = [];
  wss.on('connection', (ws) => {
    const conn: Connection = { id: nextId++, channel: 'auction', ws, auth: null };
    const userId = conn.id;
    hub.attach(conn, { user: { id: userId }, sessionId: `session-${userId}`, sessionExpiresAt: Infinity } as unknown as AuthContext);
    attached.push(conn);
    waiting.shift()?.(conn);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.close(() => resolve());
      }),
  );
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** A client and the server's connection for it; `received` collects every message, parsed. */
  const client = async (offerDeflate: boolean) => {
    const attachedConn = new Promise<Connection>((resolve) => waiting.push(resolve));
    const ws = new WebSocket(url, { perMessageDeflate: offerDeflate });
    const received: unknown[] = [];
    let bytesOnWire = 0;
    let reads = 0;
    ws.on('message', (data: Buffer, isBinary) => {
      expect(isBinary).toBe(false);
      received.push(JSON.parse(data.toString('utf8')));
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const socket = (ws as unknown as { _socket: NodeJS.EventEmitter })._socket;
    socket.prependListener('data', (chunk: Buffer) => {
      bytesOnWire += chunk.length;
      reads += 1;
    });
    closers.push(async () => ws.terminate());
    const conn = await attachedConn;
    /** Resolves once `count` messages arrived (the test's own timeout bounds the wait). */
    const receivedAll = (count: number) =>
      new Promise<unknown[]>((resolve) => {
        const check = () => {
          if (received.length < count) return;
          ws.off('message', check);
          resolve(received);
        };
        ws.on('message', check);
        check();
      });
    return { ws, conn, received, receivedAll, bytesOnWire: () => bytesOnWire, reads: () => reads };
  };
  return { hub, attached, client };
}

const message = (n: number, size: number) => ({ type: 'NO_BUYER', data: { itemId: n, itemName: `${n}:`.padEnd(size, 'é') } }) as unknown as ServerMsg;

/** Broadcasts of every size, each followed by a frame for the first client's user only, in one burst (one event-loop turn). */
function burst(hub: Hub, userId: number) {
  const sent: { all: unknown[]; one: unknown[] } = { all: [], one: [] };
  SIZES.forEach((size, n) => {
    const toAll = message(n, size);
    hub.broadcast('auction', toAll);
    sent.all.push(toAll);
    sent.one.push(toAll);
    const toOne = { type: 'OUTBID', data: { itemId: n, amount: n, username: 'ü'.repeat(n) } } as unknown as ServerMsg;
    hub.sendToUser(userId, 'auction', toOne);
    sent.one.push(toOne);
  });
  return sent;
}

describe('Hub fan-out', () => {
  it('delivers every broadcast and every own frame intact and in order, at every length', async () => {
    const { hub, client } = await hubServer(false);
    const a = await client(true); // offers permessage-deflate: the server declines it
    const b = await client(false);
    expect(a.ws.extensions).toBe('');
    const sent = burst(hub, a.conn.auth!.user.id);
    // a second burst on a later turn, after the first was uncorked
    await new Promise((resolve) => setImmediate(resolve));
    const again = burst(hub, a.conn.auth!.user.id);
    expect(await a.receivedAll(sent.one.length + again.one.length)).toEqual([...sent.one, ...again.one]);
    expect(await b.receivedAll(sent.all.length + again.all.length)).toEqual([...sent.all, ...again.all]);
  });

  it('leaves a connection with permessage-deflate to ws: compressed, intact and in order', async () => {
    const { hub, client } = await hubServer(true);
    const deflating = await client(true);
    const plain = await client(false);
    expect(deflating.ws.extensions).toMatch(/permessage-deflate/);
    expect(plain.ws.extensions).toBe('');
    const sent = burst(hub, deflating.conn.auth!.user.id);
    expect(await deflating.receivedAll(sent.one.length)).toEqual(sent.one);
    expect(await plain.receivedAll(sent.all.length)).toEqual(sent.all);
    // the repetitive payloads went compressed to the deflating client, as they are to the plain one
    const payloadBytes = (list: unknown[]) => list.reduce<number>((n, m) => n + Buffer.byteLength(JSON.stringify(m)), 0);
    expect(deflating.bytesOnWire()).toBeLessThan(payloadBytes(sent.one) / 10);
    expect(plain.bytesOnWire()).toBeGreaterThan(payloadBytes(sent.all));
  });

  it('drops a socket whose unread frames pass the buffer limit, as before', async () => {
    const { client } = await hubServer(false);
    const hub = new Hub({ maxBufferedBytes: 200_000, closeGraceMs: 100, coalesceMs: 5 });
    const c = await client(false);
    const conn: Connection = { id: nextId++, channel: 'auction', ws: c.conn.ws, auth: null };
    hub.attach(conn, { user: { id: 999 }, sessionId: 's', sessionExpiresAt: Infinity } as unknown as AuthContext);
    // both wait for the flush, written together: 280 kB (2 × 70,000 é) pass 200 kB
    hub.broadcast('auction', message(1, 70_000));
    hub.broadcast('auction', message(2, 70_000));
    expect(hub.count('auction')).toBe(1);
    hub.flush();
    expect(hub.count('auction')).toBe(0);
    expect(c.conn.ws.readyState).not.toBe(WebSocket.OPEN);
  });

  it('writes the frames of a busy stretch to each socket together, at most once every coalesceMs', async () => {
    let now = 0;
    const hub = new Hub({ maxBufferedBytes: 1024 * 1024, closeGraceMs: 100, coalesceMs: 30 }, () => now);
    const { client } = await hubServer(false, hub);
    const a = await client(false);
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    // quiet: the first frame leaves at the end of its turn
    hub.broadcast('auction', message(0, 10));
    await a.receivedAll(1);
    expect(a.reads()).toBe(1);
    // three frames on three turns, all within 30 ms of that flush (the clock stands still): one write
    for (const n of [1, 2, 3]) {
      hub.broadcast('auction', message(n, 10));
      await nextTurn();
    }
    expect(a.received).toHaveLength(1);
    expect(await a.receivedAll(4)).toEqual([0, 1, 2, 3].map((n) => message(n, 10)));
    expect(a.reads()).toBe(2);
    // quiet again (the clock moved on): each frame leaves at the end of its own turn
    for (const n of [4, 5]) {
      now += 30;
      hub.broadcast('auction', message(n, 10));
      await a.receivedAll(n + 1);
    }
    expect(a.reads()).toBe(4);
  });

  it('flushes its connections in groups spread over coalesceMs: after a quiet moment each group counts its spacing from a little earlier', async () => {
    const now = 0; // the hub's clock stands still: only the spread moves a group's flush
    const hub = new Hub({ maxBufferedBytes: 1024 * 1024, closeGraceMs: 100, coalesceMs: 200, flushGroups: 2 }, () => now);
    const { client } = await hubServer(false, hub);
    const first = await client(false);
    const second = await client(false);
    // one client in each group (groups by connection id)
    expect(first.conn.id % 2).not.toBe(second.conn.id % 2);
    const [early, late] = first.conn.id % 2 === 1 ? [first, second] : [second, first];
    // quiet: both groups write at the end of the turn
    hub.broadcast('auction', message(0, 10));
    await Promise.all([early.receivedAll(1), late.receivedAll(1)]);
    // busy: group 1 counts from half an interval earlier (100 ms), group 0 waits the whole 200 ms
    const arrived: string[] = [];
    hub.broadcast('auction', message(1, 10));
    let lateWhenEarly = -1;
    await Promise.all([
      early.receivedAll(2).then(() => {
        arrived.push('group 1');
        lateWhenEarly = late.received.length;
      }),
      late.receivedAll(2).then(() => arrived.push('group 0')),
    ]);
    expect(arrived).toEqual(['group 1', 'group 0']);
    // group 0 was still waiting its turn when group 1 had its frame
    expect(lateWhenEarly).toBe(1);
    expect([early.reads(), late.reads()]).toEqual([2, 2]);
  });

  it('a connection that joins while frames wait gets its own earlier frames first, then only the broadcasts after it joined', async () => {
    const { client } = await hubServer(false);
    const hub = new Hub({ maxBufferedBytes: 1024 * 1024, closeGraceMs: 100, coalesceMs: 5 });
    const a = await client(false);
    const b = await client(false);
    const connA: Connection = { id: nextId++, channel: 'auction', ws: a.conn.ws, auth: null };
    const connB: Connection = { id: nextId++, channel: 'auction', ws: b.conn.ws, auth: null };
    const authFor = (id: number) => ({ user: { id }, sessionId: `s${id}`, sessionExpiresAt: Infinity }) as unknown as AuthContext;
    hub.attach(connA, authFor(1));
    const error = { type: 'ERROR', error_type: 'UNAUTHENTICATED' } as unknown as ServerMsg;
    hub.broadcast('auction', message(1, 10));
    hub.send(connB, error); // before it is signed in
    hub.attach(connB, authFor(2));
    hub.broadcast('auction', message(2, 10));
    hub.sendToUser(2, 'auction', message(3, 10));
    hub.broadcast('auction', message(4, 10));
    expect(await a.receivedAll(3)).toEqual([message(1, 10), message(2, 10), message(4, 10)]);
    expect(await b.receivedAll(4)).toEqual([error, message(2, 10), message(3, 10), message(4, 10)]);
  });

  it('a connection closed while frames wait gets them before its closing frame', async () => {
    const { client } = await hubServer(false);
    const hub = new Hub({ maxBufferedBytes: 1024 * 1024, closeGraceMs: 1_000, coalesceMs: 5 });
    const a = await client(false);
    const closed = new Promise<number>((resolve) => a.ws.once('close', (code) => resolve(code)));
    const conn: Connection = { id: nextId++, channel: 'auction', ws: a.conn.ws, auth: null };
    hub.attach(conn, { user: { id: 7 }, sessionId: 's7', sessionExpiresAt: Infinity } as unknown as AuthContext);
    hub.broadcast('auction', message(1, 10));
    hub.sendToUser(7, 'auction', message(2, 10));
    hub.close(conn, 4401, 'Session revoked');
    expect(await closed).toBe(4401);
    expect(a.received).toEqual([message(1, 10), message(2, 10)]);
  });
});
