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

/** The TCP socket under a ws connection: ws keeps it in a private field, the one way to write a ready frame to it. */
type Tcp = { write(chunk: Buffer): boolean; writable: boolean; writableLength: number };
function tcpOf(ws: WebSocket): Tcp | null {
  const socket = (ws as unknown as { _socket?: Tcp })._socket;
  return socket && typeof socket.write === 'function' ? socket : null;
}

/**
 * How a connection is written to, worked out on its first write (its extensions are settled by the
 * handshake): `tcp` when ready frames may go straight to the TCP socket, that is when no extension
 * was negotiated (permessage-deflate would compress and set RSV1; the server does not offer it,
 * but a connection that has it gets ws.send, at once, frame by frame). With no extension ws
 * buffers nothing of its own (it queues only to deflate, or for a Blob, which the server never
 * sends), so what waits is the TCP socket's `writableLength`.
 */
const routes = new WeakMap<WebSocket, Tcp | null>();
function rawTcp(ws: WebSocket): Tcp | null {
  let tcp = routes.get(ws);
  if (tcp === undefined) {
    const socket = tcpOf(ws);
    tcp = socket && ws.extensions === '' ? socket : null;
    routes.set(ws, tcp);
  }
  return tcp;
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

/**
 * One connection's part of the frames waiting for the next flush, when it is not simply "every
 * broadcast of its channel": `start`, the first of the channel's waiting broadcasts it gets (it
 * joined the channel after the ones before), and its own frames, each after the broadcasts that
 * were waiting when it was sent (`at`).
 */
interface Own {
  start: number;
  frames: { at: number; frame: Buffer }[];
}

/** What waits for the next flush: each channel's broadcasts, once for all, and the connections' own frames. */
interface Waiting {
  broadcasts: Map<Channel, Buffer[]>;
  own: Map<Connection, Own>;
}

/** A connection's bytes, in order: its own frames between the broadcasts it gets (`member`: it is in the channel now). */
function bytesFor(broadcasts: Buffer[], own: Own | undefined, member: boolean): Buffer | null {
  if (!own) return member && broadcasts.length ? Buffer.concat(broadcasts) : null;
  const parts: Buffer[] = [];
  let cursor = own.start;
  for (const { at, frame } of own.frames) {
    if (member) for (; cursor < at; cursor++) parts.push(broadcasts[cursor]);
    parts.push(frame);
  }
  if (member) for (; cursor < broadcasts.length; cursor++) parts.push(broadcasts[cursor]);
  return parts.length === 0 ? null : parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

/**
 * The connections that are written together (by connection id, evenly), with what waits for their
 * next flush. The groups flush apart from one another, spread over `coalesceMs`, so a busy stretch
 * costs the event loop a short flush every few milliseconds (1,000 sockets in 8 groups: ~125 writes
 * each) rather than one long one: a bid is never held behind a 10 ms fan-out, and the last socket
 * gets a frame within `coalesceMs` of it, not `coalesceMs` plus the time to write to every other one.
 */
interface FlushGroup {
  readonly index: number;
  /** The group's members of each channel (authenticated connections). */
  readonly members: Map<Channel, Set<Connection>>;
  waiting: Waiting | null;
  /** When the group last flushed, for spacing (set earlier than that after a quiet moment: see `flushGroup`). */
  lastFlushAt: number;
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
    private readonly limits: Pick<SocketLimits, 'maxBufferedBytes' | 'closeGraceMs' | 'coalesceMs'> & Partial<Pick<SocketLimits, 'flushGroups'>> = DEFAULT_SOCKET_LIMITS,
    private readonly monotonic: () => number = () => performance.now(),
  ) {
    const count = Math.max(1, Math.floor(limits.flushGroups ?? DEFAULT_SOCKET_LIMITS.flushGroups));
    this.groups = Array.from({ length: count }, (_, index) => ({ index, members: new Map(), waiting: null, lastFlushAt: Number.NEGATIVE_INFINITY }));
  }

  private readonly groups: FlushGroup[];

  private groupOf(conn: Connection): FlushGroup {
    return this.groups[conn.id % this.groups.length];
  }

  private readonly byUser = new Map<number, Set<Connection>>();
  private readonly bySession = new Map<string, Set<Connection>>();
  private readonly byChannel = new Map<Channel, Set<Connection>>();
  /** The members of a channel that ws writes itself (an extension was negotiated): broadcasts reach them frame by frame. */
  private readonly viaWs = new Map<Channel, Set<Connection>>();

  attach(conn: Connection, auth: AuthContext): AuthedConnection {
    this.detach(conn);
    conn.auth = auth;
    addTo(this.byUser, auth.user.id, conn);
    addTo(this.bySession, auth.sessionId, conn);
    addTo(this.byChannel, conn.channel, conn);
    const group = this.groupOf(conn);
    addTo(group.members, conn.channel, conn);
    if (!rawTcp(conn.ws)) addTo(this.viaWs, conn.channel, conn);
    // the broadcasts waiting now were sent before it joined
    const waiting = group.waiting;
    const before = waiting?.broadcasts.get(conn.channel)?.length ?? 0;
    // (its own frames so far were sent before it joined, so they come first: their `at` ≤ `before`)
    if (waiting && before > 0) this.ownOf(waiting, conn).start = before;
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
    this.release(conn);
    removeFrom(this.viaWs, conn.channel, conn);
    removeFrom(this.byUser, conn.auth.user.id, conn);
    removeFrom(this.bySession, conn.auth.sessionId, conn);
    removeFrom(this.byChannel, conn.channel, conn);
    removeFrom(this.groupOf(conn).members, conn.channel, conn);
    for (const listener of this.detachListeners) listener(conn);
    conn.auth = null;
  }

  /**
   * Frames leave in order, and not one write per frame: each waits for its connection's group's
   * next flush, which writes every connection of the group once, its frames since the last flush
   * together (one system call per socket however many bids there were). A broadcast is kept once
   * for all its channel's sockets of a group, and joined once per flush, so a burst of bids costs
   * per socket one write, not one per bid. A group flushes at the end of the event-loop turn, or,
   * when its previous flush was less than `coalesceMs` ago, that long after it: a frame waits at
   * most that long, and a quiet socket gets its frame at the end of the turn. After a quiet moment
   * the groups flush together, and each then counts its spacing from a little earlier (group i of n
   * from i/n of `coalesceMs` before), so under load their flushes spread over the interval instead
   * of all falling in the same turn. A connection that leaves the channel (closed, signed out)
   * gets what was waiting for it first.
   */
  private schedule(group: FlushGroup): Waiting {
    if (group.waiting) return group.waiting;
    const waiting: Waiting = { broadcasts: new Map(), own: new Map() };
    group.waiting = waiting;
    const wait = group.lastFlushAt + this.limits.coalesceMs - this.monotonic();
    if (wait >= 1) setTimeout(() => this.flushGroup(group, false), wait);
    else setImmediate(() => this.flushGroup(group, true));
    return waiting;
  }

  private ownOf(waiting: Waiting, conn: Connection): Own {
    let own = waiting.own.get(conn);
    if (!own) {
      // a connection with nothing of its own yet gets every broadcast waiting (it was in the channel)
      own = { start: 0, frames: [] };
      waiting.own.set(conn, own);
    }
    return own;
  }

  /** One connection's own frame: after the broadcasts waiting now, before the ones that follow. */
  private write(conn: Connection, out: Outgoing): void {
    const { ws } = conn;
    if (ws.readyState !== WebSocket.OPEN) return;
    if (!rawTcp(ws)) return this.sendNow(conn, out);
    const waiting = this.schedule(this.groupOf(conn));
    this.ownOf(waiting, conn).frames.push({ at: waiting.broadcasts.get(conn.channel)?.length ?? 0, frame: out.frame });
  }

  /** Through ws (a connection with an extension), at once: a client that does not read is dropped, not buffered for without end. */
  private sendNow(conn: Connection, out: Outgoing): void {
    const { ws } = conn;
    if (ws.bufferedAmount + out.frame.length > this.limits.maxBufferedBytes) return this.drop(conn);
    ws.send(out.payload, { binary: false });
  }

  /** The bytes go out to the TCP socket, unless the client has stopped reading (then it is dropped). */
  private writeRaw(conn: Connection, bytes: Buffer): void {
    const { ws } = conn;
    const tcp = rawTcp(ws);
    if (ws.readyState !== WebSocket.OPEN || !tcp || !tcp.writable) return;
    if (tcp.writableLength + bytes.length > this.limits.maxBufferedBytes) return this.drop(conn);
    tcp.write(bytes);
  }

  private drop(conn: Connection): void {
    this.groupOf(conn).waiting?.own.delete(conn);
    // terminated first: nothing more is written to it while it leaves
    conn.ws.terminate();
    this.detach(conn);
  }

  /** Writes everything waiting, each connection once (normally the groups' schedules do; a server that stops calls it first). */
  flush(): void {
    for (const group of this.groups) this.flushGroup(group, false);
  }

  /** Writes what waits for one group. `quiet`: the group had nothing to write for `coalesceMs` (see `schedule`). */
  private flushGroup(group: FlushGroup, quiet: boolean): void {
    const waiting = group.waiting;
    if (!waiting) return;
    group.waiting = null;
    group.lastFlushAt = this.monotonic() - (quiet ? (group.index * this.limits.coalesceMs) / this.groups.length : 0);
    for (const [channel, broadcasts] of waiting.broadcasts) {
      let joined: Buffer | null = null;
      const all = () => (joined ??= broadcasts.length === 1 ? broadcasts[0] : Buffer.concat(broadcasts));
      for (const conn of [...(group.members.get(channel) ?? [])]) {
        if (waiting.own.has(conn) || !rawTcp(conn.ws)) continue;
        this.writeRaw(conn, all());
      }
    }
    for (const [conn, own] of waiting.own) this.writeWaiting(waiting, conn, own);
  }

  /** A connection's part of what waits: its own frames among the broadcasts it gets. */
  private writeWaiting(waiting: Waiting, conn: Connection, own: Own | undefined): void {
    const bytes = bytesFor(waiting.broadcasts.get(conn.channel) ?? [], own, this.isMember(conn));
    if (bytes) this.writeRaw(conn, bytes);
  }

  private isMember(conn: Connection): boolean {
    return conn.auth !== null && (this.byChannel.get(conn.channel)?.has(conn) ?? false);
  }

  /** A connection leaves its channel: what was waiting for it goes out now, so nothing it was sent is lost. */
  private release(conn: Connection): void {
    const waiting = this.groupOf(conn).waiting;
    if (!waiting || !rawTcp(conn.ws)) return;
    const own = waiting.own.get(conn);
    waiting.own.delete(conn);
    this.writeWaiting(waiting, conn, own);
  }

  send(conn: Connection, msg: ServerMsg): void {
    this.write(conn, outgoing(msg));
  }

  /** To every authenticated connection of a channel. */
  broadcast(channel: Channel, msg: ServerMsg): void {
    const members = this.byChannel.get(channel);
    if (!members?.size) return;
    // encoded and framed once for every socket, kept once per group (with members there) for its next flush
    const out = outgoing(msg);
    for (const group of this.groups) {
      if (!group.members.get(channel)?.size) continue;
      const waiting = this.schedule(group);
      let list = waiting.broadcasts.get(channel);
      if (!list) waiting.broadcasts.set(channel, (list = []));
      list.push(out.frame);
    }
    // the few connections ws writes itself (an extension) get it now
    for (const conn of this.viaWs.get(channel) ?? []) if (conn.ws.readyState === WebSocket.OPEN) this.sendNow(conn, out);
  }

  /**
   * To every authenticated connection of a channel but one user's, each as its own frame (a sealed
   * item's bid: masked to everyone, while its bidder gets it in full).
   */
  broadcastExcept(channel: Channel, userId: number, msg: ServerMsg): void {
    const members = this.byChannel.get(channel);
    if (!members?.size) return;
    const out = outgoing(msg);
    for (const conn of members) if (conn.auth?.user.id !== userId) this.write(conn, out);
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
    // what was waiting for it goes first (a member's when it leaves the channel, below)
    if (!conn.auth) this.release(conn);
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
