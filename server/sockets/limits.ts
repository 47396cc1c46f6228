import fs from 'node:fs';
import { FRAME_BURST, FRAME_RATE_PER_S } from '../../src/protocol/socket';

/**
 * Every limit of the two sockets, in one place. Each socket server (auction, user)
 * keeps its own counts: "per account" and "per address" below are per socket.
 *
 * What a client over a limit gets, with the close codes of src/protocol/socket.ts:
 * - frames over a budget (its connection's, its account's or its address's): the first is answered
 *   ERROR WS_ERROR (naming the bid it dropped), the next are dropped without an answer; once the
 *   dropped frames pass `floodStrikes` (they decay at the connection's refill rate), the connection
 *   is closed with 4429 (WS_CLOSE_FLOODING). Once the drops have decayed to none and `warnEveryMs`
 *   has passed since the warning, the next drop is warned again.
 * - a connection not yet authenticated over a budget: no warning; its TCP socket is no longer read
 *   and is destroyed at once (the client sees 1006), and nothing more it sent is parsed or answered.
 * - a second AUTHENTICATION on a connection: ERROR WS_ERROR, and no second HISTORY.
 * - an account's socket over `socketsPerAccount`: ERROR WS_ERROR, closed with 4409 (WS_CLOSE_TOO_MANY_SOCKETS).
 * - an address over `socketsPerAddress`, `anonymousPerAddress` or `handshakes`: the HTTP upgrade is
 *   answered 429 and the TCP connection closed (the browser sees close 1006).
 * - at `maxConnections`: the connection silent the longest (no frame, pong or upgrade request
 *   received for the longest time; not yet authenticated first) is destroyed to make room (1006).
 * - no AUTHENTICATION within `authTimeoutMs`: ERROR UNAUTHENTICATED, closed with 4401.
 * - a session that expires or is revoked: closed with 4401 at once (no frame needed; no ERROR first).
 * - no pong to the previous ping (`heartbeatMs`): terminated (1006).
 * - more than `maxBufferedBytes` waiting to be sent because the client does not read: terminated.
 * A connection being closed is given `closeGraceMs` for the closing handshake, then terminated.
 */
export interface Budget {
  /** Frames per second refilled. */
  perSecond: number;
  /** Frames that may arrive at once. */
  burst: number;
}

export interface SocketLimits {
  /** Frames of one account, all its connections together. */
  accountFrames: Budget;
  /** Frames from one address, all its connections together (authenticated or not). */
  addressFrames: Budget;
  /** New connections (WebSocket handshakes) from one address. */
  handshakes: Budget;
  /** Dropped frames a connection may pile up (decaying at its refill rate) before it is closed. */
  floodStrikes: number;
  /** A connection is warned again only once its drops have decayed to none and this long has passed since its last warning. */
  warnEveryMs: number;
  /** Open connections of one account. */
  socketsPerAccount: number;
  /** Open TCP connections from one address (pending handshakes included). */
  socketsPerAddress: number;
  /** Connections from one address that have not authenticated yet. */
  anonymousPerAddress: number;
  /** Bytes waiting to be sent to one connection; beyond it the client is not reading and is dropped. */
  maxBufferedBytes: number;
  /** Time for the closing handshake before a closed connection is terminated. */
  closeGraceMs: number;
  /**
   * Writes to the sockets are held and flushed together at most this often: under a
   * burst of bids each socket gets one write per this many ms, carrying every frame since the last,
   * instead of one write per bid; a frame waits at most this long. When it is quiet (the last flush
   * was longer ago) a frame leaves at the end of its event-loop turn. A write costs a system call
   * whatever it carries (about 10 µs on a loopback socket here: 10 ms for 1,000 sockets), so under
   * load this bounds what fan-out costs per second instead of letting it grow with the bid rate
   * (measured with 1,000 sockets, 5 ms carried ~650 bids/s, 25 ms ~800-1,000).
   */
  coalesceMs: number;
  /**
   * The connections are flushed in this many groups (by connection id), spread over `coalesceMs`
   * (see Hub): each flush then writes a share of the sockets, so no single one holds the event loop
   * for long (1,000 sockets: ~1 ms each instead of ~10 ms).
   */
  flushGroups: number;
  /** Time a TCP connection has to send its HTTP upgrade request. */
  headersTimeoutMs: number;
  /**
   * Open TCP connections of one socket server; null: from the process's file limit (see
   * `maxConnectionsFor`). At it, a new connection takes the place of the one silent the longest,
   * one not yet authenticated first (see ConnectionRoom).
   */
  maxConnections: number | null;
}

/** Per connection (both sockets): the protocol's own FRAME_BURST frames at once, FRAME_RATE_PER_S a second. */
export const CONNECTION_FRAMES: Budget = { perSecond: FRAME_RATE_PER_S, burst: FRAME_BURST };
/** A socket that has not authenticated within this is closed (4401). */
export const AUTH_TIMEOUT_MS = 5_000;
/** Ping interval; a connection that did not answer the previous ping is terminated. */
export const HEARTBEAT_MS = 20_000;

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  accountFrames: { perSecond: 20, burst: 40 },
  addressFrames: { perSecond: 300, burst: 600 },
  handshakes: { perSecond: 20, burst: 120 },
  floodStrikes: 2 * FRAME_BURST,
  warnEveryMs: 10_000,
  socketsPerAccount: 12,
  socketsPerAddress: 256,
  anonymousPerAddress: 32,
  maxBufferedBytes: 1024 * 1024,
  closeGraceMs: 2_000,
  coalesceMs: 25,
  flushGroups: 8,
  headersTimeoutMs: 10_000,
  maxConnections: null,
};

/** File descriptors kept for everything but the two sockets: HTTP, SQLite, logs. */
const RESERVED_FDS = 1024;

/** The soft limit on open files (Linux: /proc/self/limits), or null when it cannot be read. */
export function openFilesLimit(): number | null {
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    const n = Number(soft);
    return Number.isSafeInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

/**
 * The TCP connections one socket server accepts: the configured number, or 40 % of the file limit
 * left after RESERVED_FDS (the two sockets together stay under it, so the process never runs out of
 * file descriptors and HTTP keeps working); 10,000 when the limit cannot be read.
 */
export function maxConnectionsFor(limits: SocketLimits, fileLimit = openFilesLimit()): number {
  if (limits.maxConnections !== null) return limits.maxConnections;
  if (fileLimit === null) return 10_000;
  return Math.max(64, Math.floor((fileLimit - RESERVED_FDS) * 0.4));
}
