import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WebSocket, type ClientOptions } from 'ws';
import { startServer, type RunningServer, type ServerDeps } from '../../server/app';
import { ephemeralConfig, type Config } from '../../server/config';
import { randomSuffix } from './seed';
import { databaseUrlFor } from './test-database';

export const PASSWORD = 'Passw0rd!';

/** A server on random ports over its own temp DATA_DIR, with cheap argon2id (tests only). */
export async function startTestServer(overrides: Partial<Config> = {}, deps: ServerDeps = {}): Promise<RunningServer & { dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-test-'));
  // on PostgreSQL (project server-pg) the database belongs to the data directory, so a restart over it finds its data
  const databaseUrl = 'databaseUrl' in overrides ? (overrides.databaseUrl ?? null) : await databaseUrlFor(overrides.dataDir ?? dir);
  const server = await startServer(ephemeralConfig(dir, { ...overrides, databaseUrl }), deps);
  const close = server.close;
  return {
    ...server,
    dir,
    async close() {
      await close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  /** Sent as is, with `contentType` (default application/json). */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A real HTTP call; `body` parsed when it is JSON. */
export async function call(server: { httpUrl: string }, method: string, url: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | undefined;
  if (options.raw !== undefined) payload = options.raw;
  else if (options.body !== undefined) payload = JSON.stringify(options.body);
  if (payload !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(server.httpUrl + url, { method, headers, body: payload });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON (the client's pages)
  }
  return { status: response.status, headers: response.headers, body, text };
}

let counter = 0;
export function newAccount(prefix = 'player') {
  counter += 1;
  const id = `${prefix}${counter}${randomSuffix()}`;
  return { email: `${id}@example.com`, password: PASSWORD, username: id, playerid: String(100000 + counter) };
}

export async function register(server: { httpUrl: string }, account = newAccount()) {
  const answer = await call(server, 'POST', '/auth/register', { body: account });
  if (answer.status !== 200) throw new Error(`register failed: ${answer.text}`);
  return account;
}

export async function login(server: { httpUrl: string }, email: string, password = PASSWORD): Promise<string> {
  const answer = await call(server, 'POST', '/auth/login', { body: { email, password } });
  if (answer.status !== 200) throw new Error(`login failed: ${answer.text}`);
  return (answer.body.token as { access_token: string }).access_token;
}

/** Registers and signs in a fresh account. */
export async function signedIn(server: { httpUrl: string }, prefix?: string) {
  const account = await register(server, newAccount(prefix));
  return { ...account, token: await login(server, account.email) };
}

/** A ws client that queues incoming frames and remembers how it closed. */
export class TestSocket {
  readonly ws: WebSocket;
  private readonly frames: unknown[] = [];
  /** Pending waits, oldest first: a frame goes to the first whose match takes it, else to the queue. */
  private waiters: { match: (frame: Record<string, unknown>) => boolean; take: (frame: unknown) => void }[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(url: string, options?: ClientOptions) {
    this.ws = new WebSocket(url, options);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    // a server that dies (the crash test) resets the connection: `closed` reports it
    this.ws.on('error', () => undefined);
    this.ws.on('message', (data) => {
      const frame: unknown = JSON.parse(data.toString());
      const waiter = this.waiters.find((w) => w.match(frame as Record<string, unknown>));
      if (waiter) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.take(frame);
      } else this.frames.push(frame);
    });
  }

  static async open(url: string, options?: ClientOptions): Promise<TestSocket> {
    const socket = new TestSocket(url, options);
    await socket.opened;
    return socket;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The next frame from the server; fails after `ms`. */
  next(ms = 3000): Promise<Record<string, unknown>> {
    return this.waitFor(() => true, ms);
  }

  /**
   * The first frame (queued or arriving within `ms`) that matches; frames that do not match stay
   * queued for later waits.
   */
  waitFor(match: (frame: Record<string, unknown>) => boolean, ms = 3000): Promise<Record<string, unknown>> {
    const index = this.frames.findIndex((f) => match(f as Record<string, unknown>));
    if (index >= 0) return Promise.resolve(this.frames.splice(index, 1)[0] as Record<string, unknown>);
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        take: (frame: unknown) => {
          clearTimeout(timer);
          resolve(frame as Record<string, unknown>);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no matching frame from the server within ${ms} ms; queued: ${JSON.stringify(this.frames).slice(0, 500)}`));
      }, ms);
      this.waiters.push(waiter);
    });
  }

  /** The next frame of this type (others stay queued). */
  nextOf(type: string, ms = 3000): Promise<Record<string, unknown>> {
    return this.waitFor((f) => f.type === type, ms);
  }

  /** Every frame received and not yet taken, removed from the queue. */
  drain(): Record<string, unknown>[] {
    return this.frames.splice(0) as Record<string, unknown>[];
  }

  /**
   * "Nothing else came", on events: sends `probe` and answers the very next frame. A connection's
   * frames are answered in order, so anything the server sent before the probe's answer comes
   * first. The default probe has no known type: ERROR WS_ERROR once authenticated, UNAUTHENTICATED
   * before. (For broadcasts from the engine, drain its queue first: `server.auction.exclusive`.)
   * Frames `ignore` matches are left queued and skipped.
   */
  roundTrip(probe: unknown = { type: 'PROBE' }, ignore: (frame: Record<string, unknown>) => boolean = () => false): Promise<Record<string, unknown>> {
    this.send(probe);
    return this.waitFor((frame) => !ignore(frame));
  }

  /**
   * True when nothing arrives within `ms` of real time. Only for what runs on Node's own timers
   * (an HTTP server's headers timeout); everything else waits on events (`roundTrip`).
   */
  async quiet(ms = 150): Promise<boolean> {
    await new Promise((r) => setTimeout(r, ms));
    return this.frames.length === 0;
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  close(): void {
    this.ws.close();
  }
}

/** Opens a socket and authenticates it with the token. */
export async function authedSocket(url: string, token: string): Promise<TestSocket> {
  const socket = await TestSocket.open(url);
  socket.send({ type: 'AUTHENTICATION', access_token: `Bearer ${token}` });
  return socket;
}

/** A test server with its first account (admin) and a council member, as the back-office tests need. */
export async function leadershipServer(deps?: Parameters<typeof startTestServer>[1]) {
  const server = await startTestServer({}, deps);
  const admin = await signedIn(server, 'admin'); // the first account
  const council = await signedIn(server, 'council');
  const ranked = await call(server, 'POST', `/admin/users/${council.username}/rank`, { token: admin.token, body: { rank: 'council' } });
  if (ranked.status !== 200) throw new Error(`could not make a council member: ${ranked.text}`);
  return { server, admin, council };
}
