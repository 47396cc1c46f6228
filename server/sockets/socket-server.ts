import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  MAX_FRAME_BYTES,
  MSG,
  WS_CLOSE_UNAUTHENTICATED,
  authenticationFrame,
  clientFrame,
  type Channel,
  type ClientFrame,
  type ErrorType,
} from '../../src/protocol/socket';
import type { AppContext } from '../context';
import { isDatabaseError } from '../db/write';
import type { TlsFiles } from '../tls';
import type { AuthedConnection, Connection } from './hub';
import { TokenBucket } from './rate-limit';

/** What one socket (auction or user) does once a connection is authenticated. */
export interface ChannelHandler {
  channel: Channel;
  /** Client frame types this channel takes after authentication; any other type gets WS_ERROR. */
  accepts: readonly Exclude<ClientFrame['type'], 'AUTHENTICATION'>[];
  onAuthenticated(conn: AuthedConnection): Promise<void>;
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

/**
 * ws refuses (close 1009) frames above this; between MAX_FRAME_BYTES and this a frame only gets
 * WS_ERROR and the connection stays open.
 */
const HARD_PAYLOAD_LIMIT = 64 * 1024;
const GOING_AWAY = 1001;

let nextConnectionId = 1;

/** `{data: {itemId, requestId}}` of a small CREATE_BID frame, so the rate limit's WS_ERROR names the bid it dropped; else nothing. */
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

/** Starts one socket server on its own port (https/wss when TLS is configured). */
export async function startSocketServer(
  ctx: AppContext,
  handler: ChannelHandler,
  port: number,
  tls: TlsFiles | null,
): Promise<SocketServer> {
  const { hub, log } = ctx;
  const server = tls ? https.createServer({ cert: tls.cert, key: tls.key }) : http.createServer();
  server.on('request', (_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket' });
    res.end(`This is Kingdom's ${handler.channel} socket: connect with WebSocket.\n`);
  });
  const wss = new WebSocketServer({ server, maxPayload: HARD_PAYLOAD_LIMIT });
  // ws re-emits the HTTP server's errors (EADDRINUSE…); listen() below reports them.
  wss.on('error', () => undefined);
  const alive = new WeakMap<WebSocket, boolean>();

  const sendError = (conn: Connection, errorType: ErrorType) => hub.send(conn, { type: MSG.ERROR, error_type: errorType });
  const reject = (conn: Connection) => {
    sendError(conn, 'UNAUTHENTICATED');
    hub.detach(conn);
    conn.ws.close(WS_CLOSE_UNAUTHENTICATED, 'Unauthenticated');
  };

  async function handleFrame(conn: Connection, data: RawData, isBinary: boolean): Promise<void> {
    if (isBinary || byteLength(data) > MAX_FRAME_BYTES) return sendError(conn, 'WS_ERROR');
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString());
    } catch {
      return sendError(conn, 'JSON_ERROR');
    }
    const type = typeof parsed === 'object' && parsed !== null ? (parsed as { type?: unknown }).type : undefined;

    if (type === MSG.AUTHENTICATION) {
      const frame = authenticationFrame.safeParse(parsed);
      const auth = frame.success ? await ctx.authenticate(frame.data.access_token) : null;
      if (!auth) return reject(conn);
      const authed = hub.attach(conn, auth);
      clearTimeout(authTimers.get(conn));
      return handler.onAuthenticated(authed);
    }
    if (!conn.auth) return sendError(conn, 'UNAUTHENTICATED');
    if (Date.now() >= conn.auth.sessionExpiresAt) return reject(conn);
    if (!(handler.accepts as readonly unknown[]).includes(type)) return sendError(conn, 'WS_ERROR');
    const frame = clientFrame.safeParse(parsed);
    if (!frame.success) {
      if (await handler.onInvalidFrame?.(conn as AuthedConnection, parsed)) return;
      return sendError(conn, 'WS_ERROR');
    }
    return handler.onFrame(conn as AuthedConnection, frame.data);
  }

  const authTimers = new WeakMap<Connection, NodeJS.Timeout>();

  wss.on('connection', (ws) => {
    const conn: Connection = { id: nextConnectionId++, channel: handler.channel, ws, auth: null };
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    authTimers.set(
      conn,
      setTimeout(() => {
        if (!conn.auth) reject(conn);
      }, ctx.config.authTimeoutMs),
    );
    // Frames of one connection are handled one after the other: GET_STATUS sent right after
    // AUTHENTICATION waits for the authentication to finish.
    let queue = Promise.resolve();
    const bucket = new TokenBucket(ctx.config.frameRateLimit);
    ws.on('message', (data, isBinary) => {
      // a flood is dropped unread (beyond a look for the bid it carried), before it can queue work
      if (!bucket.take()) {
        hub.send(conn, { type: MSG.ERROR, error_type: 'WS_ERROR', ...bidIds(data, isBinary) });
        return;
      }
      queue = queue
        .then(() => handleFrame(conn, data, isBinary))
        .catch((error: unknown) => {
          log.error({ err: error, channel: handler.channel }, 'socket frame failed');
          sendError(conn, isDatabaseError(error) ? 'DATABASE_ERROR' : 'SYSTEM_ERROR');
        });
    });
    ws.on('error', (error) => log.warn({ err: error, channel: handler.channel }, 'socket error'));
    ws.on('close', () => {
      clearTimeout(authTimers.get(conn));
      hub.detach(conn);
    });
  });

  // Heartbeat: a connection that did not answer the previous ping is dead.
  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (!alive.get(ws)) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, ctx.config.heartbeatMs);
  heartbeat.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, ctx.config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      clearInterval(heartbeat);
      for (const ws of wss.clients) ws.close(GOING_AWAY, 'Server shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
