import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import {
  BOT_CLOSE,
  BOT_ERRORS,
  BOT_MSG,
  BOT_OFFLINE_AFTER_MS,
  BOT_STATUS_EVERY_MS,
  BUILTIN_COMMANDS,
  type Bot,
  type BotProgress,
  type BotState,
  type CommandOutcome,
  type LogLevel,
  type LogLine,
  type SentCommand,
  type WatchMsg,
} from '../../src/protocol/bots';
import type { AuthContext } from '../auth/authenticate';
import type { Db } from '../db/open';
import { Conflict, Invalid, NotFound, TooMany } from '../errors';
import { listBotRows, touchBot, type BotRow } from './registry';

/** Budgets of the bot sockets: every cost is bounded. */
export interface BotLimits {
  /** Log lines a bot may send a second (a bucket of `lineBurst`); more are dropped with one warning a second. */
  linesPerSecond: number;
  lineBurst: number;
  /** Frames of any kind a connection may send a second (twice that at once); beyond, it is closed. */
  framesPerSecond: number;
  /** Log lines kept in memory per bot (a ring), and lines a watcher gets when it connects. */
  ringLines: number;
  snapshotLines: number;
  /** Bot connections that said hello, in all; connections waiting for their hello, per address. */
  maxBots: number;
  maxPendingPerAddress: number;
  /** Admin watch sockets in all, and per account. */
  maxWatchers: number;
  maxWatchersPerAccount: number;
  helloTimeoutMs: number;
  /** Commands sent to one bot and not answered yet. */
  pendingCommands: number;
  /** Log lines go to watchers in batches, at most this often (ms). */
  flushMs: number;
  /** A watcher whose unsent data grows past this (bytes) is too slow and is closed. */
  maxWatcherBuffer: number;
  /** How often the server looks for silent bots (ms). */
  sweepMs: number;
}

export const DEFAULT_BOT_LIMITS: BotLimits = {
  linesPerSecond: 50,
  lineBurst: 100,
  framesPerSecond: 100,
  ringLines: 1000,
  snapshotLines: 1000,
  maxBots: 200,
  maxPendingPerAddress: 20,
  maxWatchers: 50,
  maxWatchersPerAccount: 8,
  helloTimeoutMs: 10_000,
  pendingCommands: 20,
  flushMs: 200,
  maxWatcherBuffer: 4 * 1024 * 1024,
  sweepMs: 5_000,
};

/** A token bucket on the hub's clock. */
class Bucket {
  private tokens: number;
  private at: number;
  constructor(
    private readonly rate: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }
  take(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

export interface BotConnection {
  ws: WebSocket;
  frames: Bucket;
  lines: Bucket;
}

interface LiveBot {
  id: number;
  name: string;
  createdAt: number;
  lastScanAt: number | null;
  lastSeenAt: number | null;
  version: string | null;
  announced: string[];
  conn: BotConnection | null;
  state: BotState | null;
  progress: BotProgress | null;
  message: string | null;
  lastStatusAt: number;
  lastPersistAt: number;
  ring: LogLine[];
  ringNext: number;
  pending: Map<string, SentCommand>;
  dropped: number;
  lastDropWarnAt: number;
}

export interface Watcher {
  ws: WebSocket;
  auth: AuthContext;
}

const send = (ws: WebSocket, frame: unknown) => {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
};

/** Keeps the last `max` items of an array-backed ring. */
function pushCapped<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max * 2) list.splice(0, list.length - max);
}

/**
 * The bots' live side: who is connected, each bot's last status, a bounded ring of each bot's log,
 * the commands waiting for an answer, and the admins watching. Time comes from `now` (tests inject
 * a clock and call sweep()).
 */
export class BotHub {
  readonly limits: BotLimits;
  private readonly bots = new Map<number, LiveBot>();
  private readonly watchers = new Set<Watcher>();
  private readonly outbox: LogLine[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private seq = 0;
  private readonly commands: SentCommand[] = [];
  private readonly answers: CommandOutcome[] = [];

  constructor(
    private readonly db: Db,
    readonly now: () => number,
    private readonly log: FastifyBaseLogger,
    limits: Partial<BotLimits> = {},
  ) {
    this.limits = { ...DEFAULT_BOT_LIMITS, ...limits };
  }

  async start(): Promise<void> {
    for (const row of await listBotRows(this.db)) this.known(row);
    this.sweepTimer = setInterval(() => this.sweep(), this.limits.sweepMs);
    this.sweepTimer.unref();
  }

  close(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    for (const bot of this.bots.values()) bot.conn?.ws.close(1001, 'Server shutting down');
    for (const w of this.watchers) w.ws.close(1001, 'Server shutting down');
  }

  private known(row: BotRow): LiveBot {
    let bot = this.bots.get(row.id);
    if (!bot) {
      bot = {
        id: row.id,
        name: row.name,
        createdAt: row.created_at,
        lastScanAt: row.last_scan_at,
        lastSeenAt: row.last_seen_at,
        version: row.version,
        announced: parseCommands(row.commands),
        conn: null,
        state: null,
        progress: null,
        message: null,
        lastStatusAt: 0,
        lastPersistAt: 0,
        ring: [],
        ringNext: 0,
        pending: new Map(),
        dropped: 0,
        lastDropWarnAt: 0,
      };
      this.bots.set(row.id, bot);
    }
    return bot;
  }

  private online(bot: LiveBot): boolean {
    return bot.conn !== null && this.now() - bot.lastStatusAt < BOT_OFFLINE_AFTER_MS;
  }

  wire(bot: LiveBot): Bot {
    const online = this.online(bot);
    return {
      id: bot.id,
      name: bot.name,
      online,
      state: online ? bot.state : null,
      progress: online ? bot.progress : null,
      message: online ? bot.message : null,
      lastSeenAt: online ? bot.lastStatusAt : bot.lastSeenAt,
      lastScanAt: bot.lastScanAt,
      version: bot.version,
      commands: [...new Set([...BUILTIN_COMMANDS, ...bot.announced])],
      createdAt: bot.createdAt,
    };
  }

  list(): Bot[] {
    return [...this.bots.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id).map((b) => this.wire(b));
  }

  /** How many bots are online now (the admin dashboard's figure). */
  onlineCount(): number {
    let n = 0;
    for (const bot of this.bots.values()) if (this.online(bot)) n += 1;
    return n;
  }

  // ── the registry's changes ─────────────────────────────────────────────────────────────
  registered(row: BotRow): void {
    this.broadcast({ type: BOT_MSG.BOT_UPDATE, bot: this.wire(this.known(row)) });
  }

  /** The bot's token changed or it was revoked: its connection (on the old token) closes now. */
  disconnect(id: number, removed: boolean): void {
    const bot = this.bots.get(id);
    if (!bot) return;
    const conn = bot.conn;
    this.dropConnection(bot, removed ? 'The bot was revoked before answering.' : 'The bot reconnects with its new token.');
    conn?.ws.close(BOT_CLOSE.revoked, removed ? 'Bot revoked' : 'Token rotated');
    if (removed) {
      this.bots.delete(id);
      this.broadcast({ type: BOT_MSG.BOT_REMOVED, botId: id });
    } else {
      this.broadcast({ type: BOT_MSG.BOT_UPDATE, bot: this.wire(bot) });
    }
  }

  /** A scan the bot uploaded was applied. */
  scanApplied(id: number, at: number): void {
    const bot = this.bots.get(id);
    if (!bot) return;
    bot.lastScanAt = at;
    void touchBot(this.db, id, { last_scan_at: at }).catch((error: unknown) => this.log.warn({ err: error }, 'bot: could not store its last scan'));
    this.broadcast({ type: BOT_MSG.BOT_UPDATE, bot: this.wire(bot) });
  }

  // ── bot connections ────────────────────────────────────────────────────────────────────
  connectedCount(): number {
    let n = 0;
    for (const bot of this.bots.values()) if (bot.conn) n += 1;
    return n;
  }

  newConnection(ws: WebSocket): BotConnection {
    const now = this.now();
    return { ws, frames: new Bucket(this.limits.framesPerSecond, this.limits.framesPerSecond * 2, now), lines: new Bucket(this.limits.linesPerSecond, this.limits.lineBurst, now) };
  }

  /** A hello with a good token: the bot is online at once (the hello counts as its first status). */
  hello(row: BotRow, conn: BotConnection, version: string, commands: string[]): void {
    const bot = this.known(row);
    const now = this.now();
    if (bot.conn && bot.conn !== conn) {
      const old = bot.conn;
      this.dropConnection(bot, 'The bot connected again before answering.');
      old.ws.close(BOT_CLOSE.replaced, 'Connected again elsewhere');
    }
    bot.conn = conn;
    bot.version = version;
    bot.announced = commands.filter((c) => !(BUILTIN_COMMANDS as readonly string[]).includes(c));
    bot.state = 'idle';
    bot.progress = null;
    bot.message = null;
    bot.lastStatusAt = now;
    bot.lastPersistAt = now;
    bot.lastSeenAt = now;
    void touchBot(this.db, bot.id, { last_seen_at: now, version, commands: JSON.stringify(bot.announced) }).catch((error: unknown) => this.log.warn({ err: error }, 'bot: could not store its hello'));
    send(conn.ws, { type: BOT_MSG.BOT_WELCOME, bot: { id: bot.id, name: bot.name }, statusEverySeconds: BOT_STATUS_EVERY_MS / 1000 });
    this.addLine(bot, 'info', `Connected (version ${version}).`);
    this.broadcast({ type: BOT_MSG.BOT_UPDATE, bot: this.wire(bot) });
  }

  status(id: number, conn: BotConnection, state: BotState, progress: BotProgress | undefined, message: string | undefined): void {
    const bot = this.bots.get(id);
    if (!bot || bot.conn !== conn) return;
    const now = this.now();
    bot.state = state;
    bot.progress = progress ?? null;
    bot.message = message ?? null;
    bot.lastStatusAt = now;
    bot.lastSeenAt = now;
    if (now - bot.lastPersistAt >= 60_000) {
      bot.lastPersistAt = now;
      void touchBot(this.db, bot.id, { last_seen_at: now }).catch(() => undefined);
    }
    this.broadcast({ type: BOT_MSG.BOT_UPDATE, bot: this.wire(bot) });
  }

  /** One log line from a bot, within its budget; over it, the line is dropped and counted. */
  botLog(id: number, conn: BotConnection, level: LogLevel, text: string): void {
    const bot = this.bots.get(id);
    if (!bot || bot.conn !== conn) return;
    const now = this.now();
    if (!conn.lines.take(now)) {
      bot.dropped += 1;
      this.warnDropped(bot, now);
      return;
    }
    this.warnDropped(bot, now);
    this.addLine(bot, level, text);
  }

  /** At most one warning a second for the lines dropped since the last one: in the log and to the bot. */
  private warnDropped(bot: LiveBot, now: number): void {
    if (bot.dropped === 0 || now - bot.lastDropWarnAt < 1000) return;
    const text = `${bot.dropped} log lines dropped: a bot may send at most ${this.limits.linesPerSecond} a second.`;
    bot.lastDropWarnAt = now;
    bot.dropped = 0;
    this.addLine(bot, 'warn', text);
    if (bot.conn) send(bot.conn.ws, { type: BOT_MSG.BOT_ERROR, error: text });
  }

  private addLine(bot: LiveBot, level: LogLevel, text: string): void {
    this.seq += 1;
    const line: LogLine = { seq: this.seq, botId: bot.id, at: this.now(), level, text };
    if (bot.ring.length < this.limits.ringLines) bot.ring.push(line);
    else bot.ring[bot.ringNext] = line;
    bot.ringNext = (bot.ringNext + 1) % this.limits.ringLines;
    if (this.watchers.size === 0) return;
    this.outbox.push(line);
    // a burst beyond what a watcher could read is cut to the newest lines
    if (this.outbox.length > this.limits.snapshotLines * 2) this.outbox.splice(0, this.outbox.length - this.limits.snapshotLines);
    this.flushTimer ??= setTimeout(() => this.flush(), this.limits.flushMs);
  }

  private flush(): void {
    this.flushTimer = null;
    if (this.outbox.length === 0) return;
    const lines = this.outbox.splice(0, this.outbox.length);
    this.broadcast({ type: BOT_MSG.BOT_LOG_LINES, lines });
  }

  result(id: number, conn: BotConnection, commandId: string, ok: boolean, output: string): void {
    const bot = this.bots.get(id);
    if (!bot || bot.conn !== conn) return;
    if (!bot.pending.delete(commandId)) return;
    this.answer(bot, commandId, ok, output);
  }

  private answer(bot: LiveBot, commandId: string, ok: boolean, output: string): void {
    const outcome: CommandOutcome = { id: commandId, botId: bot.id, ok, output, at: this.now() };
    pushCapped(this.answers, outcome, 200);
    this.broadcast({ type: BOT_MSG.COMMAND_ANSWER, answer: outcome });
  }

  /** The connection is gone: the bot is offline, and its waiting commands fail. */
  closed(id: number, conn: BotConnection): void {
    const bot = this.bots.get(id);
    if (!bot || bot.conn !== conn) return;
    this.dropConnection(bot, 'The bot went offline before answering.');
    this.addLine(bot, 'info', 'Disconnected.');
    this.broadcast({ type: BOT_MSG.BOT_UPDATE, bot: this.wire(bot) });
  }

  private dropConnection(bot: LiveBot, pendingText: string): void {
    if (!bot.conn) return;
    bot.conn = null;
    bot.lastSeenAt = bot.lastStatusAt;
    void touchBot(this.db, bot.id, { last_seen_at: bot.lastStatusAt }).catch(() => undefined);
    for (const id of bot.pending.keys()) this.answer(bot, id, false, pendingText);
    bot.pending.clear();
  }

  /** Bots with no status for 45 s are offline: their connection is closed. */
  sweep(): void {
    const now = this.now();
    for (const bot of this.bots.values()) {
      if (!bot.conn) continue;
      if (now - bot.lastStatusAt >= BOT_OFFLINE_AFTER_MS) {
        const conn = bot.conn;
        this.dropConnection(bot, 'The bot went silent before answering.');
        this.addLine(bot, 'warn', `No status for ${BOT_OFFLINE_AFTER_MS / 1000} s: offline.`);
        conn.ws.close(BOT_CLOSE.silent, 'No status for 45 s');
        this.broadcast({ type: BOT_MSG.BOT_UPDATE, bot: this.wire(bot) });
      } else {
        this.warnDropped(bot, now);
      }
    }
  }

  // ── commands ───────────────────────────────────────────────────────────────────────────
  command(id: number, command: string, args: string[] | undefined, by: string): SentCommand {
    const bot = this.bots.get(id);
    if (!bot) throw new NotFound(BOT_ERRORS.unknownBot);
    if (!this.wire(bot).commands.includes(command)) throw new Invalid(BOT_ERRORS.unknownCommand);
    if (!bot.conn || !this.online(bot)) throw new Conflict(BOT_ERRORS.offline);
    if (bot.pending.size >= this.limits.pendingCommands) throw new TooMany(BOT_ERRORS.tooManyCommands);
    const sent: SentCommand = { id: crypto.randomUUID(), botId: id, command, ...(args?.length ? { args } : {}), at: this.now(), by };
    bot.pending.set(sent.id, sent);
    pushCapped(this.commands, sent, 200);
    send(bot.conn.ws, { type: BOT_MSG.COMMAND, id: sent.id, command, ...(args?.length ? { args } : {}) });
    this.broadcast({ type: BOT_MSG.COMMAND_SENT, command: sent });
    return sent;
  }

  nameOf(id: number): string | null {
    return this.bots.get(id)?.name ?? null;
  }

  // ── watchers ───────────────────────────────────────────────────────────────────────────
  watcherCount(userId?: number): number {
    if (userId === undefined) return this.watchers.size;
    let n = 0;
    for (const w of this.watchers) if (w.auth.user.id === userId) n += 1;
    return n;
  }

  watch(watcher: Watcher): void {
    this.watchers.add(watcher);
    const lines = [...this.bots.values()].flatMap((b) => b.ring).sort((a, b) => a.seq - b.seq).slice(-this.limits.snapshotLines);
    const commands = this.commands.slice(-200);
    const answers = this.answers.slice(-200);
    send(watcher.ws, { type: BOT_MSG.BOTS_SNAPSHOT, at: this.now(), bots: this.list(), lines, commands, answers });
  }

  unwatch(watcher: Watcher): void {
    this.watchers.delete(watcher);
  }

  /** Every watcher, for the periodic check of its account's rank. */
  watcherList(): Watcher[] {
    return [...this.watchers];
  }

  /** Watchers whose sessions were revoked (sign-out, a disabled account) are closed at once. */
  closeSessions(sessionIds: string[]): void {
    const ids = new Set(sessionIds);
    for (const w of this.watchers) if (ids.has(w.auth.sessionId)) w.ws.close(BOT_CLOSE.unauthorized, 'Session revoked');
  }

  private broadcast(msg: WatchMsg): void {
    if (this.watchers.size === 0) return;
    const text = JSON.stringify(msg);
    for (const w of this.watchers) {
      if (w.ws.readyState !== w.ws.OPEN) continue;
      if (w.ws.bufferedAmount > this.limits.maxWatcherBuffer) {
        w.ws.close(BOT_CLOSE.overLimit, 'Too slow to follow the bots');
        continue;
      }
      w.ws.send(text);
    }
  }
}

function parseCommands(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}
