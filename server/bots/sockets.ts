import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import {
  BOT_CLOSE,
  BOT_MAX_FRAME_BYTES,
  BOT_MSG,
  BOT_SOCKET_PATH,
  BOT_WATCH_PATH,
  botFrame,
  watchAuthentication,
} from '../../src/protocol/bots';
import { onSessionsRevoked } from '../auth/sessions';
import { onRankChanged } from '../users/users';
import type { AppContext } from '../context';
import type { BotConnection, BotHub, Watcher } from './hub';
import { findBotByToken } from './registry';

export const BOT_SOCKET_TEXTS = {
  badToken: 'Unknown or revoked bot token: a bot connects with the token shown when it was registered.',
  helloFirst: 'Send BOT_HELLO first.',
  badHello: 'BOT_HELLO needs the bot token (at most 200 characters) and the bot\'s version (at most 50), as text; commands, when sent, are up to 20 names of letters, digits and dashes.',
  helloTwice: 'This connection already said hello.',
  notJson: 'Frames are JSON text.',
  badFrame: 'This frame does not match the bot protocol.',
  tooMany: 'Too many bots are connected.',
  tooFast: 'Too many frames: slow down.',
  helloTimeout: 'No BOT_HELLO in time.',
  authFirst: 'Send AUTHENTICATION first.',
  adminsOnly: 'Only admins may watch the bots.',
  tooManyWatchers: 'Too many pages are watching the bots.',
} as const;

function refuse(socket: Duplex, status: string, text: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  socket.destroy();
}

function increment(map: Map<string, number>, key: string, by: number): number {
  const n = (map.get(key) ?? 0) + by;
  if (n > 0) map.set(key, n);
  else map.delete(key);
  return n;
}

const isText = (data: RawData, isBinary: boolean): data is Buffer => !isBinary && Buffer.isBuffer(data);

/**
 * The bot protocol (`/bots`) and the admins' watch socket (`/bots/watch`), both WebSocket upgrades on
 * the API's HTTP server. A bot's first frame is BOT_HELLO with its token (a user's token is not a bot
 * token, so it is refused); an admin's is AUTHENTICATION with a user token of rank admin.
 */
export function attachBotSockets(server: Server, ctx: AppContext, hub: BotHub): () => void {
  const { log, config } = ctx;
  const wss = new WebSocketServer({ noServer: true, maxPayload: BOT_MAX_FRAME_BYTES });
  wss.on('error', () => undefined);
  const pendingByAddress = new Map<string, number>();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    const path = (req.url ?? '').split('?')[0];
    if (path !== BOT_SOCKET_PATH && path !== BOT_WATCH_PATH) return refuse(socket, '404 Not Found', 'No socket here.\n');
    const address = (config.trustProxy ? String(req.headers['x-forwarded-for'] ?? '').split(',').pop()?.trim() : undefined) || req.socket.remoteAddress || 'unknown';
    if ((pendingByAddress.get(address) ?? 0) >= hub.limits.maxPendingPerAddress) return refuse(socket, '429 Too Many Requests', 'Too many connections waiting to say hello from this address.\n');
    // the HTTP server's idle timeout is for requests: an upgraded socket lives on its own pings
    (socket as unknown as { setTimeout?: (ms: number) => void }).setTimeout?.(0);
    wss.handleUpgrade(req, socket, head, (ws) => (path === BOT_SOCKET_PATH ? onBot(ws, address) : onWatcher(ws, address)));
  };
  server.on('upgrade', onUpgrade);

  /** Until its first frame is accepted, a connection counts against its address and has a deadline. */
  function pending(ws: WebSocket, address: string): () => void {
    increment(pendingByAddress, address, 1);
    let done = false;
    const timer = setTimeout(() => {
      ws.send(JSON.stringify({ type: BOT_MSG.BOT_ERROR, error: BOT_SOCKET_TEXTS.helloTimeout }));
      ws.close(BOT_CLOSE.unauthorized, 'No hello in time');
    }, hub.limits.helloTimeoutMs);
    timer.unref();
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      increment(pendingByAddress, address, -1);
    };
    ws.once('close', finish);
    return finish;
  }

  /** A watcher whose account is no longer an admin (or whose session ended) is closed at the next beat. */
  async function recheckWatchers(): Promise<void> {
    const watchers = hub.watcherList();
    if (watchers.length === 0) return;
    const ids = [...new Set(watchers.map((w) => w.auth.user.id))];
    const admins = new Set((await ctx.db.selectFrom('users').select('id').where('id', 'in', ids).where('rank', '=', 'admin').execute()).map((r) => r.id));
    const sessions = [...new Set(watchers.map((w) => w.auth.sessionId))];
    const live = new Set(
      (await ctx.db.selectFrom('sessions').select('id').where('id', 'in', sessions).where('revoked_at', 'is', null).where('expires_at', '>', Date.now()).execute()).map((r) => r.id),
    );
    for (const w of watchers) {
      if (!admins.has(w.auth.user.id) || !live.has(w.auth.sessionId)) w.ws.close(BOT_CLOSE.unauthorized, 'No longer allowed');
    }
  }

  const alive = new WeakMap<WebSocket, boolean>();
  const heartbeat = setInterval(() => {
    recheckWatchers().catch((err: unknown) => log.warn({ err }, 'bot watchers: rank check failed'));
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, config.heartbeatMs);
  heartbeat.unref();

  function onBot(ws: WebSocket, address: string): void {
    const conn: BotConnection = hub.newConnection(ws);
    let botId: number | null = null;
    let helloTried = false;
    const admitted = pending(ws, address);
    const error = (text: string) => ws.send(JSON.stringify({ type: BOT_MSG.BOT_ERROR, error: text }));
    ws.on('pong', () => alive.set(ws, true));
    ws.on('error', (err) => log.warn({ err }, 'bot socket error'));
    ws.on('close', () => {
      if (botId !== null) hub.closed(botId, conn);
    });
    ws.on('message', (data, isBinary) => {
      if (!conn.frames.take(hub.now())) {
        error(BOT_SOCKET_TEXTS.tooFast);
        ws.close(BOT_CLOSE.overLimit, 'Too many frames');
        return;
      }
      if (!isText(data, isBinary)) return error(BOT_SOCKET_TEXTS.notJson);
      let parsed: unknown;
      try {
        parsed = JSON.parse(data.toString('utf8'));
      } catch {
        return error(BOT_SOCKET_TEXTS.notJson);
      }
      const frame = botFrame.safeParse(parsed);
      if (!frame.success) {
        if (botId === null) {
          // a hello that does not match says so; anything else is told to say hello first
          const hello = typeof parsed === 'object' && parsed !== null && (parsed as { type?: unknown }).type === BOT_MSG.BOT_HELLO;
          error(hello ? BOT_SOCKET_TEXTS.badHello : BOT_SOCKET_TEXTS.helloFirst);
          ws.close(BOT_CLOSE.unauthorized, hello ? 'Bad hello' : 'Hello first');
          return;
        }
        return error(BOT_SOCKET_TEXTS.badFrame);
      }
      const f = frame.data;
      if (f.type === BOT_MSG.BOT_HELLO) {
        if (helloTried) return error(BOT_SOCKET_TEXTS.helloTwice);
        helloTried = true;
        void findBotByToken(ctx.db, f.token).then(
          (row) => {
            if (ws.readyState !== ws.OPEN) return;
            if (!row) {
              error(BOT_SOCKET_TEXTS.badToken);
              ws.close(BOT_CLOSE.unauthorized, 'Bad token');
              return;
            }
            if (hub.connectedCount() >= hub.limits.maxBots && !hub.list().some((b) => b.id === row.id && b.online)) {
              error(BOT_SOCKET_TEXTS.tooMany);
              ws.close(BOT_CLOSE.overLimit, 'Too many bots');
              return;
            }
            admitted();
            botId = row.id;
            hub.hello(row, conn, f.version, f.commands ?? []);
          },
          (err: unknown) => {
            log.error({ err }, 'bot hello failed');
            ws.close(1011, 'Server error');
          },
        );
        return;
      }
      if (botId === null) {
        error(BOT_SOCKET_TEXTS.helloFirst);
        ws.close(BOT_CLOSE.unauthorized, 'Hello first');
        return;
      }
      switch (f.type) {
        case BOT_MSG.BOT_STATUS:
          return hub.status(botId, conn, f.state, f.progress, f.message);
        case BOT_MSG.BOT_LOG:
          return hub.botLog(botId, conn, f.level, f.text);
        case BOT_MSG.COMMAND_RESULT:
          return hub.result(botId, conn, f.id, f.ok, f.output);
      }
    });
  }

  function onWatcher(ws: WebSocket, address: string): void {
    let watcher: Watcher | null = null;
    let tried = false;
    const admitted = pending(ws, address);
    const error = (text: string) => ws.send(JSON.stringify({ type: BOT_MSG.BOT_ERROR, error: text }));
    ws.on('pong', () => alive.set(ws, true));
    ws.on('error', () => undefined);
    ws.on('close', () => {
      if (watcher) hub.unwatch(watcher);
    });
    ws.on('message', (data, isBinary) => {
      if (watcher) return; // nothing else is asked on this socket
      if (tried) return;
      tried = true;
      let parsed: unknown = null;
      try {
        parsed = isText(data, isBinary) ? JSON.parse(data.toString('utf8')) : null;
      } catch {
        // refused below
      }
      const frame = watchAuthentication.safeParse(parsed);
      if (!frame.success) {
        error(BOT_SOCKET_TEXTS.authFirst);
        ws.close(BOT_CLOSE.unauthorized, 'Authenticate first');
        return;
      }
      void ctx.authenticate(frame.data.access_token).then(
        (auth) => {
          if (ws.readyState !== ws.OPEN) return;
          if (!auth) {
            error(AUTH_ERRORS.unauthenticated);
            ws.close(BOT_CLOSE.unauthorized, 'Unauthenticated');
            return;
          }
          if (auth.user.rank !== 'admin') {
            error(BOT_SOCKET_TEXTS.adminsOnly);
            ws.close(BOT_CLOSE.revoked, 'Admins only');
            return;
          }
          if (hub.watcherCount() >= hub.limits.maxWatchers || hub.watcherCount(auth.user.id) >= hub.limits.maxWatchersPerAccount) {
            error(BOT_SOCKET_TEXTS.tooManyWatchers);
            ws.close(BOT_CLOSE.overLimit, 'Too many watchers');
            return;
          }
          admitted();
          watcher = { ws, auth };
          hub.watch(watcher);
        },
        (err: unknown) => {
          log.error({ err }, 'bot watcher authentication failed');
          ws.close(1011, 'Server error');
        },
      );
    });
  }

  const unsubscribe = onSessionsRevoked(ctx.db, (ids) => hub.closeSessions(ids));
  // a demoted admin's watch closes at once, not at the next beat
  const unsubscribeRank = onRankChanged(ctx.db, (userId) => {
    if (hub.watcherList().some((w) => w.auth.user.id === userId)) recheckWatchers().catch((err: unknown) => log.warn({ err }, 'bot watchers: rank check failed'));
  });

  return () => {
    clearInterval(heartbeat);
    unsubscribe();
    unsubscribeRank();
    server.off('upgrade', onUpgrade);
    hub.close();
    for (const ws of wss.clients) ws.terminate();
    wss.close();
  };
}
