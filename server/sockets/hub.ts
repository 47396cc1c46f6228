import { WebSocket } from 'ws';
import type { Channel, ServerMsg } from '../../src/protocol/socket';
import type { AuthContext } from '../auth/authenticate';
import { textFrame } from './frame';
import { DEFAULT_SOCKET_LIMITS, type SocketLimits } from './limits';

/** One socket connection on either channel. `auth` is set once its AUTHENTICATION frame was accepted. */
export interface Connection {
  readonly id: number;
  readonly channel: Channel;
  readonly ws: WebSocket;
  auth: AuthContext | null;
}

export type AuthedConnection = Connection & { auth: AuthContext };

/** The TCP socket under a ws connection: ws keeps it in a private field, the one way to cork it or write a ready frame to it. */
type Tcp = { cork(): void; uncork(): void; write(chunk: Buffer): boolean; writable: boolean; writableLength: number };
function tcpOf(ws: WebSocket): Tcp | null {
  const socket = (ws as unknown as { _socket?: Tcp })._socket;
  return socket && typeof socket.cork === 'function' && typeof socket.write === 'function' ? socket : null;
}

/**
 * How a connection is written to, worked out on its first write (its extensions are settled by the
 * handshake): `raw` when a ready frame may go straight to the TCP socket (no extension negotiated:
 * permessage-deflate would compress and set RSV1; the server does not offer it, but a connection
 * that has it gets ws.send). With no extension, ws buffers nothing of its own (it queues only to
 * deflate, or for a Blob, which the server never sends), so what waits is the TCP socket's
 * `writableLength`.
 */
interface Route {
  tcp: Tcp | null;
  raw: boolean;
}
const routes = new WeakMap<WebSocket, Route>();
function routeOf(ws: WebSocket): Route {
  let route = routes.get(ws);
  if (!route) {
    const tcp = tcpOf(ws);
    routes.set(ws, (route = { tcp, raw: tcp !== null && ws.extensions === '' }));
  }
  return route;
}

/**
 * A message ready to go: its JSON bytes, and the whole text frame around them, built once for every
 * socket (a broadcast to 1,000 sockets frames it once, not 1,000 times).
 */
interface Outgoing {
  payload: Buffer;
  frame: Buffer;
}
function outgoing(msg: ServerMsg): Outgoing {
  const payload = Buffer.from(JSON.stringify(msg));
  return { payload, frame: textFrame(payload) };
}

function addTo<K>(map: Map<K, Set<Connection>>, key: K, conn: Connection) {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(conn);
}

function removeFrom<K>(map: Map<K, Set<Connection>>, key: K, conn: Connection) {
  const set = map.get(key);
  if (!set) return;
  set.delete(conn);
  if (set.size === 0) map.delete(key);
}

/**
 * The authenticated connections of both sockets, by user and by session: the auction engine tells
 * everyone or one user through it, and logout or a password change closes a session's sockets.
 */
export class Hub {
  /**
   * `monotonic`: milliseconds from a monotonic clock (tests pass their own), for spacing flushes
   * `limits.coalesceMs` apart.
   */
  constructor(
    private readonly limits: Pick<SocketLimits, 'maxBufferedBytes' | 'closeGraceMs' | 'coalesceMs'> = DEFAULT_SOCKET_LIMITS,
    private readonly monotonic: () => number = () => performance.now(),
  ) {}

  private readonly byUser = new Map<number, Set<Connection>>();
  private readonly bySession = new Map<string, Set<Connection>>();
  private readonly byChannel = new Map<Channel, Set<Connection>>();

  attach(conn: Connection, auth: AuthContext): AuthedConnection {
    this.detach(conn);
    conn.auth = auth;
    addTo(this.byUser, auth.user.id, conn);
    addTo(this.bySession, auth.sessionId, conn);
    addTo(this.byChannel, conn.channel, conn);
    return conn as AuthedConnection;
  }

  private readonly detachListeners = new Set<(conn: Connection) => void>();

  /** Calls `listener` after each authenticated connection leaves (tests wait on it); answers the way to stop. */
  onDetach(listener: (conn: Connection) => void): () => void {
    this.detachListeners.add(listener);
    return () => this.detachListeners.delete(listener);
  }

  detach(conn: Connection): void {
    if (!conn.auth) return;
    removeFrom(this.byUser, conn.auth.user.id, conn);
    removeFrom(this.bySession, conn.auth.sessionId, conn);
    removeFrom(this.byChannel, conn.channel, conn);
    for (const listener of this.detachListeners) listener(conn);
    conn.auth = null;
  }

  /**
   * Frames leave in order, but each socket is corked until the next flush, so the frames it gets
   * in between (a burst of bids) go out in one write (one system call) instead of one each. A
   * flush comes at the end of the event-loop turn, or, when the previous one was less than
   * `coalesceMs` ago, that long after it: when bids come faster than that, each socket is written
   * to at most once every `coalesceMs` whatever the rate, and a frame waits at most that long.
   */
  private readonly corked = new Set<Tcp>();
  private flushScheduled = false;
  private lastFlushAt = Number.NEGATIVE_INFINITY;

  private cork(tcp: Tcp): void {
    if (this.corked.has(tcp)) return;
    tcp.cork();
    this.corked.add(tcp);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const wait = this.lastFlushAt + this.limits.coalesceMs - this.monotonic();
    if (wait >= 1) setTimeout(() => this.flush(), wait);
    else setImmediate(() => this.flush());
  }

  /**
   * The ready frame goes straight to the TCP socket when ws would write exactly those bytes itself
   * (see Route). ws's sender writes synchronously to the same socket and the server sends no Blob
   * (the one thing ws queues without deflate), so frames sent either way keep their order.
   */
  private write(conn: Connection, out: Outgoing): void {
    const { ws } = conn;
    if (ws.readyState !== WebSocket.OPEN) return;
    const { tcp, raw } = routeOf(ws);
    // a client that does not read is dropped, not buffered for without end
    const waiting = raw && tcp ? tcp.writableLength : ws.bufferedAmount;
    if (waiting + out.frame.length > this.limits.maxBufferedBytes) {
      this.detach(conn);
      ws.terminate();
      return;
    }
    if (tcp) this.cork(tcp);
    if (raw && tcp && tcp.writable) tcp.write(out.frame);
    else ws.send(out.payload, { binary: false });
  }

  private flush(): void {
    this.flushScheduled = false;
    this.lastFlushAt = this.monotonic();
    for (const tcp of this.corked) tcp.uncork();
    this.corked.clear();
  }

  send(conn: Connection, msg: ServerMsg): void {
    this.write(conn, outgoing(msg));
  }

  /** To every authenticated connection of a channel. */
  broadcast(channel: Channel, msg: ServerMsg): void {
    // encoded and framed once for every socket, not once per socket
    const out = outgoing(msg);
    for (const conn of this.byChannel.get(channel) ?? []) this.write(conn, out);
  }

  /** To every connection of one user on a channel (a user may have several tabs). */
  sendToUser(userId: number, channel: Channel, msg: ServerMsg): void {
    let out: Outgoing | null = null;
    for (const conn of this.connectionsOf(userId)) {
      if (conn.channel === channel) this.write(conn, (out ??= outgoing(msg)));
    }
  }

  /** A user's account changed (rank, balance…): their connections see the new row. */
  refreshUser(user: AuthContext['user']): void {
    for (const conn of this.byUser.get(user.id) ?? []) if (conn.auth) conn.auth = { ...conn.auth, user };
  }

  /** The accounts with at least one authenticated connection here. */
  connectedUserIds(): number[] {
    return [...this.byUser.keys()];
  }

  connectionsOf(userId: number): Connection[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  /** Closes every socket of one user, on every channel (an account disabled or signed out everywhere). */
  closeUser(userId: number, code: number, reason: string): void {
    for (const conn of this.connectionsOf(userId)) this.close(conn, code, reason);
  }

  /** Closes every socket authenticated with one of these sessions (logout, password change, revocation, expiry). */
  closeSessions(sessionIds: Iterable<string>, code: number, reason: string): void {
    for (const id of sessionIds) {
      for (const conn of [...(this.bySession.get(id) ?? [])]) this.close(conn, code, reason);
    }
  }

  /** Closes a connection: its closing handshake, then terminated after closeGraceMs if the client does not answer. */
  close(conn: Connection, code: number, reason: string): void {
    this.detach(conn);
    const { ws } = conn;
    if (ws.readyState === WebSocket.CLOSED) return;
    if (ws.readyState === WebSocket.OPEN) ws.close(code, reason);
    const timer = setTimeout(() => ws.terminate(), this.limits.closeGraceMs);
    timer.unref();
    ws.once('close', () => clearTimeout(timer));
  }

  /** The authenticated connections of one channel, for the session sweep. */
  connections(channel: Channel): Connection[] {
    return [...(this.byChannel.get(channel) ?? [])];
  }

  count(channel?: Channel): number {
    if (channel) return this.byChannel.get(channel)?.size ?? 0;
    let n = 0;
    for (const set of this.byChannel.values()) n += set.size;
    return n;
  }
}
