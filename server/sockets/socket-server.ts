import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  MAX_FRAME_BYTES,
  MSG,
  WS_CLOSE_FLOODING,
  WS_CLOSE_TOO_MANY_SOCKETS,
  WS_CLOSE_UNAUTHENTICATED,
  authenticationFrame,
  clientFrame,
  type Channel,
  type ClientFrame,
  type ErrorType,
} from '../../src/protocol/socket';
import type { AuthContext } from '../auth/authenticate';
import { onSessionsRevoked } from '../auth/sessions';
import type { AppContext } from '../context';
import { isDatabaseError } from '../db/write';
import type { TlsFiles } from '../tls';
import type { AuthedConnection, Connection } from './hub';
import { maxConnectionsFor } from './limits';
import { ConnectionRoom } from './room';
import { BucketMap, FrameBudget, type Clock } from './rate-limit';
import { frameType, ProtocolLog, type FailedFrame } from './protocol-log';

/** What one socket (auction or user) does once a connection is authenticated. */
export interface ChannelHandler {
  channel: Channel;
  /** Client frame types this channel takes after authentication; any other type gets WS_ERROR. */
  accepts: readonly Exclude<ClientFrame['type'], 'AUTHENTICATION'>[];
  onAuthenticated(conn: AuthedConnection): Promise<void>;
  /**
   * Called as the frame arrives (synchronously, in the 'message' event): the auction socket stamps
   * a bid and queues it before anything that happens later.
   */
  onFrame(conn: AuthedConnection, frame: ClientFrame): Promise<void>;
  /**
   * A frame of an accepted type that failed its schema: true when the channel answered it itself,
   * false for the usual WS_ERROR.
   */
  onInvalidFrame?(conn: AuthedConnection, parsed: unknown): Promise<boolean>;
}

export interface SocketServer {
  port: number;
  close(): Promise<void>;
}

export interface SocketServerOptions {
  /** The budgets' clock (ms); tests freeze it. Default: performance.now. */
  clock?: Clock;
  /** The sessions' clock (epoch ms, the one sessions.expires_at is written with): when a session has ended. Default: Date.now. */
  now?: Clock;
}

/**
 * ws refuses (close 1009) frames above this; between MAX_FRAME_BYTES and this a frame only gets
 * WS_ERROR and the connection stays open.
 */
const HARD_PAYLOAD_LIMIT = 64 * 1024;
const GOING_AWAY = 1001;
/** setTimeout's longest delay; a later session end is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Session ids asked about in one query of the revocation sweep. */
const SWEEP_CHUNK = 500;

let nextConnectionId = 1;
/** Bytes of a connection not yet authenticated that ws parses at a time (see meterAnonymous). */
const ANONYMOUS_PIECE = 1024;

/**
 * ws parses every frame of a chunk read from the socket (up to 64 KB: ~9,000 tiny frames) before it
 * looks at the socket again, so a connection cut off at its first frame over budget would still
 * have the rest of that chunk parsed. Until the connection is authenticated, its chunks reach ws's
 * reader in pieces of ANONYMOUS_PIECE bytes, and none once its socket is destroyed (ws's receiver
 * takes a frame cut across pieces as across reads). ws takes its reader off with
 * removeListener('data', reader), which finds the metered one by its `listener`, as it finds a
 * once() wrapper.
 */
export function meterAnonymous(socket: Duplex, peer: { conn: Connection }): void {
  for (const reader of socket.listeners('data') as ((this: Duplex, chunk: Buffer) => void)[]) {
    const metered = (chunk: Buffer) => {
      if (peer.conn.auth) return reader.call(socket, chunk);
      for (let at = 0; at < chunk.length && !socket.destroyed; at += ANONYMOUS_PIECE) reader.call(socket, chunk.subarray(at, at + ANONYMOUS_PIECE));
    };
    socket.removeListener('data', reader);
    socket.on('data', Object.assign(metered, { listener: reader }));
  }
}

/** `{data: {itemId, requestId}}` of a small CREATE_BID frame, so the flood warning names the bid it dropped; else nothing. */
function bidIds(data: RawData, isBinary: boolean): { data?: { itemId?: number; requestId?: string } } {
  if (isBinary || byteLength(data) > MAX_FRAME_BYTES) return {};
  try {
    const frame = JSON.parse(data.toString()) as { type?: unknown; data?: { itemId?: unknown; requestId?: unknown } } | null;
    if (frame?.type !== MSG.CREATE_BID || typeof frame.data !== 'object' || frame.data === null) return {};
    const { itemId, requestId } = frame.data;
    const ids: { itemId?: number; requestId?: string } = {};
    if (typeof itemId === 'number' && Number.isSafeInteger(itemId) && itemId > 0) ids.itemId = itemId;
    if (typeof requestId === 'string' && requestId.length <= 64) ids.requestId = requestId;
    return Object.keys(ids).length ? { data: ids } : {};
  } catch {
    return {};
  }
}

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

/**
 * The client's address: the TCP peer, or behind a trusted proxy the last X-Forwarded-For entry
 * (the address the proxy itself saw; the ones before it are the client's word).
 */
function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = req.headers['x-forwarded-for'];
    const list = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((s) => s.trim()).filter(Boolean);
    if (list.length) return list[list.length - 1];
  }
  return req.socket.remoteAddress ?? 'unknown';
}

function refuseUpgrade(socket: Duplex, reason: string): void {
  socket.end(`HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`);
  socket.destroy();
}

/** A connection's own state beside the hub's. */
interface Peer {
  conn: Connection;
  address: string;
  budget: FrameBudget;
  /** An AUTHENTICATION frame was taken (a second one is refused). */
  authTried: boolean;
  /** Frames wait here while the authentication runs, then go in order. */
  gate: Promise<void> | null;
  closing: boolean;
  anonymous: boolean;
  alive: boolean;
  /** The account whose frame bucket it holds, once authenticated. */
  accountId: number | null;
  timers: Set<NodeJS.Timeout>;
  /** Its TCP connection, in the room (null only if it was not found there). */
  tcp: Socket | null;
}

function increment<K>(map: Map<K, number>, key: K, by: number): number {
  const n = (map.get(key) ?? 0) + by;
  if (n > 0) map.set(key, n);
  else map.delete(key);
  return n;
}

/** Starts one socket server on its own port (https/wss when TLS is configured). */
export async function startSocketServer(
  ctx: AppContext,
  handler: ChannelHandler,
  port: number,
  tls: TlsFiles | null,
  options: SocketServerOptions = {},
): Promise<SocketServer> {
  const { hub, log, config } = ctx;
  const limits = config.socketLimits;
  const clock = options.clock ?? (() => performance.now());
  const now = options.now ?? Date.now;
  const protocolLog = new ProtocolLog(log, clock, undefined, (frame) => ctx.reporter.protocolFailure(frame));
  const serverOptions = { headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: 1000 };
  const server = tls ? https.createServer({ ...serverOptions, handshakeTimeout: limits.headersTimeoutMs, cert: tls.cert, key: tls.key }) : http.createServer(serverOptions);
  server.on('request', (_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket' });
    res.end(`This is Kingdom's ${handler.channel} socket: connect with WebSocket.\n`);
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: HARD_PAYLOAD_LIMIT });
  wss.on('error', () => undefined);

  const peers = new Set<Peer>();
  const tcpByAddress = new Map<string, number>();
  const socketsByAddress = new Map<string, number>();
  const anonymousByAddress = new Map<string, number>();
  const addressFrames = new BucketMap<string>(limits.addressFrames, clock);
  const accountFrames = new BucketMap<number>(limits.accountFrames, clock);
  const handshakes = new BucketMap<string>(limits.handshakes, clock);

  // a connection that has not asked for the upgrade in time is closed (idle connections hold file
  // descriptors); with TLS the socket the upgrade comes on is the one of 'secureConnection'
  const upgraded = new WeakSet<Duplex>();
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    const idle = setTimeout(() => {
      if (!upgraded.has(socket)) socket.destroy();
    }, limits.headersTimeoutMs);
    idle.unref();
    socket.once('close', () => clearTimeout(idle));
  });
  // TCP: at most socketsPerAddress from one peer (behind a proxy every peer is the proxy: counted at
  // the upgrade instead); at the total cap, the connection silent the longest makes room
  const room = new ConnectionRoom<Socket>(maxConnectionsFor(limits));
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (!config.trustProxy && (tcpByAddress.get(address) ?? 0) >= limits.socketsPerAddress) return void socket.destroy();
    if (room.full) {
      const quiet = room.quietest();
      if (!quiet) return void socket.destroy();
      room.remove(quiet);
      quiet.destroy();
    }
    room.add(socket);
    if (!config.trustProxy) increment(tcpByAddress, address, 1);
    socket.once('close', () => {
      room.remove(socket);
      if (!config.trustProxy) increment(tcpByAddress, address, -1);
    });
  });
  /** The TCP connection under a socket (with TLS the upgrade comes on the TLS socket over it: Node's _parent). */
  const tcpOf = (socket: Duplex): Socket | null => {
    if (room.has(socket as Socket)) return socket as Socket;
    const parent = (socket as { _parent?: Socket })._parent;
    return parent && room.has(parent) ? parent : null;
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgraded.add(socket);
    socket.on('error', () => undefined);
    const tcp = tcpOf(socket);
    if (tcp) room.heard(tcp);
    const address = clientAddress(req, config.trustProxy);
    if (!handshakes.get(address).take()) return refuseUpgrade(socket, 'Too many connections from this address: wait a little.\n');
    if ((anonymousByAddress.get(address) ?? 0) >= limits.anonymousPerAddress) return refuseUpgrade(socket, 'Too many connections waiting to sign in from this address.\n');
    if (config.trustProxy && (socketsByAddress.get(address) ?? 0) >= limits.socketsPerAddress) return refuseUpgrade(socket, 'Too many connections from this address.\n');
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, address, socket, tcp));
  });

  const sendError = (conn: Connection, errorType: ErrorType) => hub.send(conn, { type: MSG.ERROR, error_type: errorType });

  function later(peer: Peer, ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      peer.timers.delete(timer);
      fn();
    }, ms);
    timer.unref();
    peer.timers.add(timer);
  }

  function leaveAnonymous(peer: Peer): void {
    if (!peer.anonymous) return;
    peer.anonymous = false;
    increment(anonymousByAddress, peer.address, -1);
  }

  function closePeer(peer: Peer, code: number, reason: string): void {
    if (peer.closing) return;
    peer.closing = true;
    hub.close(peer.conn, code, reason);
  }

  /**
   * An unauthenticated connection over its frame budget costs nothing more: its TCP socket stops
   * being read at once, then is destroyed, with no warning, no closing handshake and no grace. What
   * it sent after that frame is never answered, nor parsed beyond the piece ws was given (see
   * meterAnonymous); frames of that piece are dropped at the door (the connection is closing).
   */
  function cutOff(peer: Peer): void {
    peer.closing = true;
    peer.conn.ws.pause();
    peer.conn.ws.terminate();
  }

  /** ERROR UNAUTHENTICATED, then closed with 4401: a bad, expired or revoked token, or none in time. */
  function reject(peer: Peer): void {
    if (peer.closing) return;
    sendError(peer.conn, 'UNAUTHENTICATED');
    closePeer(peer, WS_CLOSE_UNAUTHENTICATED, 'Unauthenticated');
  }

  /** Closes the connection (4401, as a revoked session's) when its session ends, without waiting for a frame. */
  function watchExpiry(peer: Peer, auth: AuthContext): void {
    const left = auth.sessionExpiresAt - now();
    if (left <= 0) return closePeer(peer, WS_CLOSE_UNAUTHENTICATED, 'Session expired');
    later(peer, Math.min(left, MAX_TIMER_MS), () => {
      if (peer.conn.auth?.sessionId === auth.sessionId) watchExpiry(peer, auth);
    });
  }

  async function authenticate(peer: Peer, parsed: unknown): Promise<void> {
    const { conn } = peer;
    const frame = authenticationFrame.safeParse(parsed);
    if (!frame.success) protocolLog.failed({ channel: handler.channel, connectionId: conn.id, userId: null, reason: 'authentication', type: frameType(parsed) });
    const auth = frame.success ? await ctx.authenticate(frame.data.access_token) : null;
    if (peer.closing) return;
    if (!auth) return reject(peer);
    const mine = hub.connectionsOf(auth.user.id).filter((c) => c.channel === handler.channel).length;
    if (mine >= limits.socketsPerAccount) {
      sendError(conn, 'WS_ERROR');
      return closePeer(peer, WS_CLOSE_TOO_MANY_SOCKETS, 'Too many sockets for this account');
    }
    const authed = hub.attach(conn, auth);
    leaveAnonymous(peer);
    if (peer.tcp) room.authenticate(peer.tcp);
    peer.budget.account = accountFrames.acquire(auth.user.id);
    peer.accountId = auth.user.id;
    watchExpiry(peer, auth);
    await handler.onAuthenticated(authed);
  }

  /** One admitted frame. Synchronous up to the handler, which gets it as it arrived. */
  /** A frame that failed the protocol: logged (bounded, with its reason), then answered. */
  function refuseFrame(peer: Peer, errorType: ErrorType, failure: Omit<FailedFrame, 'channel' | 'connectionId' | 'userId'>): void {
    protocolLog.failed({ channel: handler.channel, connectionId: peer.conn.id, userId: peer.conn.auth?.user.id ?? null, ...failure });
    sendError(peer.conn, errorType);
  }

  function handleFrame(peer: Peer, data: RawData, isBinary: boolean): Promise<void> | void {
    const { conn } = peer;
    // before authentication every frame but AUTHENTICATION is answered UNAUTHENTICATED,
    // whatever else is wrong with it
    const refuse = (errorType: ErrorType, failure: Parameters<typeof refuseFrame>[2]) => refuseFrame(peer, conn.auth ? errorType : 'UNAUTHENTICATED', failure);
    if (isBinary) return refuse('WS_ERROR', { reason: 'binary' });
    if (byteLength(data) > MAX_FRAME_BYTES) return refuse('WS_ERROR', { reason: 'too-large' });
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString());
    } catch {
      return refuse('JSON_ERROR', { reason: 'json' });
    }
    const type = typeof parsed === 'object' && parsed !== null ? (parsed as { type?: unknown }).type : undefined;

    if (type === MSG.AUTHENTICATION) {
      // one per connection: a repeat is refused, with no second HISTORY
      if (peer.authTried) return sendError(conn, 'WS_ERROR');
      peer.authTried = true;
      return setGate(peer, authenticate(peer, parsed).catch(fail(peer)));
    }
    if (!conn.auth) return sendError(conn, 'UNAUTHENTICATED');
    if (now() >= conn.auth.sessionExpiresAt) return reject(peer);
    if (!(handler.accepts as readonly unknown[]).includes(type)) return refuseFrame(peer, 'WS_ERROR', { reason: 'unknown-type', type: frameType(parsed) });
    const frame = clientFrame.safeParse(parsed);
    if (!frame.success) {
      const first = frame.error.issues[0];
      protocolLog.failed({
        channel: handler.channel,
        connectionId: conn.id,
        userId: conn.auth.user.id,
        reason: 'schema',
        type: frameType(parsed),
        issue: { path: (first?.path ?? []).join('.'), message: first?.message ?? '' },
      });
      return (handler.onInvalidFrame?.(conn as AuthedConnection, parsed) ?? Promise.resolve(false)).then((answered) => {
        if (!answered) sendError(conn, 'WS_ERROR');
      });
    }
    return handler.onFrame(conn as AuthedConnection, frame.data);
  }

  /** Later frames wait for `gate` (and whatever waits on it); cleared once the last of them is done. */
  function setGate(peer: Peer, gate: Promise<void>): void {
    peer.gate = gate;
    void gate.then(() => {
      if (peer.gate === gate) peer.gate = null;
    });
  }

  const fail = (peer: Peer) => (error: unknown) => {
    log.error({ err: error, channel: handler.channel }, 'socket frame failed');
    ctx.reporter.exception(error, { where: 'socket', message: 'socket frame failed', userId: peer.conn.auth?.user.id ?? null, extra: { channel: handler.channel } });
    sendError(peer.conn, isDatabaseError(error) ? 'DATABASE_ERROR' : 'SYSTEM_ERROR');
  };

  function run(peer: Peer, data: RawData, isBinary: boolean): void {
    try {
      const done = handleFrame(peer, data, isBinary);
      if (done) done.catch(fail(peer));
    } catch (error) {
      fail(peer)(error);
    }
  }

  function onConnection(ws: WebSocket, address: string, socket: Duplex, tcp: Socket | null): void {
    const conn: Connection = { id: nextConnectionId++, channel: handler.channel, ws, auth: null };
    const peer: Peer = {
      conn,
      address,
      budget: new FrameBudget(config.frameRateLimit, addressFrames.acquire(address), limits.floodStrikes, limits.warnEveryMs, clock),
      authTried: false,
      gate: null,
      closing: false,
      anonymous: true,
      alive: true,
      accountId: null,
      timers: new Set(),
      tcp,
    };
    peers.add(peer);
    meterAnonymous(socket, peer);
    increment(anonymousByAddress, address, 1);
    increment(socketsByAddress, address, 1);
    ws.on('pong', () => {
      peer.alive = true;
      if (tcp) room.heard(tcp);
    });
    later(peer, config.authTimeoutMs, () => {
      if (!conn.auth) reject(peer);
    });

    ws.on('message', (data, isBinary) => {
      if (peer.closing) return;
      if (tcp) room.heard(tcp);
      // a flood is dropped unread (beyond a look for the bid it carried, for the one warning), before it can queue work
      const admission = peer.budget.admit();
      if (admission !== 'ok' && !conn.auth) return cutOff(peer);
      switch (admission) {
        case 'ok':
          break;
        case 'warn':
          hub.send(conn, { type: MSG.ERROR, error_type: 'WS_ERROR', ...bidIds(data, isBinary) });
          return;
        case 'drop':
          return;
        case 'close':
          return closePeer(peer, WS_CLOSE_FLOODING, 'Too many frames');
      }
      // while the authentication runs, frames wait for it (GET_STATUS right after AUTHENTICATION);
      // after it, each is handled as it arrives, so a bid is stamped and queued at once
      if (peer.gate) {
        setGate(
          peer,
          peer.gate.then(() => {
            if (!peer.closing) run(peer, data, isBinary);
          }),
        );
        return;
      }
      run(peer, data, isBinary);
    });
    ws.on('error', (error) => log.warn({ err: error, channel: handler.channel }, 'socket error'));
    ws.on('close', () => {
      peer.closing = true;
      for (const timer of peer.timers) clearTimeout(timer);
      peer.timers.clear();
      leaveAnonymous(peer);
      increment(socketsByAddress, address, -1);
      peers.delete(peer);
      addressFrames.release(address);
      if (peer.accountId !== null) accountFrames.release(peer.accountId);
      hub.detach(conn);
    });
  }

  // revoked sessions (logout, password change, an account disabled): their sockets close at once
  const unsubscribe = onSessionsRevoked(ctx.db, (ids) => hub.closeSessions(ids, WS_CLOSE_UNAUTHENTICATED, 'Session revoked'));

  /** Sessions revoked some other way (another process): found at each heartbeat. */
  async function sweepSessions(): Promise<void> {
    const bySession = new Map<string, Connection[]>();
    for (const conn of hub.connections(handler.channel)) {
      if (!conn.auth) continue;
      const list = bySession.get(conn.auth.sessionId) ?? [];
      list.push(conn);
      bySession.set(conn.auth.sessionId, list);
    }
    const ids = [...bySession.keys()];
    const at = now();
    for (let i = 0; i < ids.length; i += SWEEP_CHUNK) {
      const chunk = ids.slice(i, i + SWEEP_CHUNK);
      const live = await ctx.db.selectFrom('sessions').select('id').where('id', 'in', chunk).where('revoked_at', 'is', null).where('expires_at', '>', at).execute();
      const alive = new Set(live.map((r) => r.id));
      const gone = chunk.filter((id) => !alive.has(id));
      if (gone.length) hub.closeSessions(gone, WS_CLOSE_UNAUTHENTICATED, 'Session ended');
    }
  }

  // Heartbeat: a connection that did not answer the previous ping is dead.
  const heartbeat = setInterval(() => {
    for (const peer of peers) {
      if (!peer.alive) {
        peer.conn.ws.terminate();
        continue;
      }
      peer.alive = false;
      peer.conn.ws.ping();
    }
    addressFrames.sweep();
    accountFrames.sweep();
    handshakes.sweep();
    sweepSessions().catch((error: unknown) => log.warn({ err: error, channel: handler.channel }, 'session sweep failed'));
  }, config.heartbeatMs);
  heartbeat.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      clearInterval(heartbeat);
      unsubscribe();
      // what is waiting for the next flush goes before the closing frames
      hub.flush();
      for (const ws of wss.clients) ws.close(GOING_AWAY, 'Server shutting down');
      for (const peer of peers) peer.conn.ws.close(GOING_AWAY, 'Server shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const peer of peers) peer.conn.ws.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
