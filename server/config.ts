import path from 'node:path';
import { AUTH_TIMEOUT_MS, CONNECTION_FRAMES, DEFAULT_SOCKET_LIMITS, HEARTBEAT_MS, type SocketLimits } from './sockets/limits';
import type { FrameRateLimit } from './sockets/rate-limit';

/** Argon2 cost parameters. Production uses PRODUCTION_HASH_COST (server/auth/passwords.ts); only tests pass cheaper ones, in code. */
export interface PasswordHashCost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export interface LoginRateLimit {
  /** Attempts per window for one email address. */
  perEmail: number;
  /** Attempts per window from one client address. */
  perAddress: number;
  windowMs: number;
}

/** Sign-ups from one client address per window (sign-in has LoginRateLimit). */
export interface RegisterRateLimit {
  perAddress: number;
  windowMs: number;
}

/**
 * The HTTP port's defences against connections that hold a file descriptor and do nothing: every
 * timeout closes the connection, the caps refuse a new one at once (closed right after accept).
 */
export interface HttpLimits {
  /** A connection with no traffic at all for this long is closed (an idle keep-alive, a request that stopped sending). */
  idleTimeoutMs: number;
  /**
   * A new connection that has not sent a byte within this is closed without an answer (by a sweep
   * every timeoutCheckMs, in batches: see server/http/connections.ts). Below headersTimeoutMs, so
   * that the sweep, not Node's headers timeout, closes the connections that never speak.
   */
  firstByteTimeoutMs: number;
  /** The whole header block of a request must arrive within this time (a slow, half-sent request is closed). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this time. */
  requestTimeoutMs: number;
  /** A keep-alive connection waits this long for its next request. */
  keepAliveTimeoutMs: number;
  /** How often the server looks for requests over headersTimeoutMs / requestTimeoutMs, and for silent connections over firstByteTimeoutMs. */
  timeoutCheckMs: number;
  /**
   * Open connections in total; at it a new one takes the place of the connection silent the longest
   * (one that never sent a byte, else one idle between requests), and is closed at once only when
   * every open one has a request under way (server/http/connections.ts).
   */
  maxConnections: number;
  /** Open connections from one client address; over it a new one from that address is closed at once. Not applied behind a trusted proxy (every connection comes from it). */
  maxConnectionsPerAddress: number;
  /**
   * A request refused before Fastify (server/http/gate.ts: a sign-up over the address's limit) is
   * answered this long after it came: a client looping on refusals waits instead of asking again at
   * once, so its rate falls to its connections per delay (and connections per address are capped).
   */
  refusalDelayMs: number;
}

/**
 * argon2id runs in libuv's thread pool, which token checks (jose) and file reads share: at most
 * `concurrency` hashes run at once, `queue` more wait, and beyond that a sign-up or sign-in is
 * answered 503 at once instead of waiting behind a flood.
 */
export interface PasswordHashing {
  concurrency: number;
  queue: number;
  /** argon2 runs in a child process at a low CPU priority (production), not in this process's thread pool. */
  lowPriorityProcess: boolean;
}

/** The server's own backups (BACKUP_DIR, BACKUP_EVERY, BACKUP_KEEP; server/backup/schedule.ts). */
export interface BackupConfig {
  dir: string;
  /** Hours between two backups. */
  everyHours: number;
  /** How many of the newest scheduled backups are kept in `dir`. */
  keep: number;
}

export interface Config {
  /** Interface the three ports listen on. */
  host: string;
  port: number;
  auctionPort: number;
  userPort: number;
  dataDir: string;
  /** The built client (vite build output). */
  distDir: string;
  tlsCert: string | null;
  tlsKey: string | null;
  sentryDsn: string | null;
  /** Domain events' reactions (server/events/reactions.ts): the poll for other processes' events, the retention of handled events, and a pause (events recorded, reactions run on the next start without it). */
  reactions: { pollMs: number; keepDays: number; paused: boolean };
  /** Notices' passes (server/notices/producer.ts): how often bids are read for outbid notices and items ending soon are looked for. */
  notices: { pollMs: number };
  /** HS256 secret; when null a random one is kept in DATA_DIR/jwt-secret. */
  jwtSecret: string | null;
  /** PostgreSQL (postgres://…) instead of DATA_DIR/kingdom.db; several processes may share it. */
  databaseUrl: string | null;
  logLevel: string;
  /** Trust X-Forwarded-For from a reverse proxy in front of the server (rate limits use the client address). */
  trustProxy: boolean;
  loginRateLimit: LoginRateLimit;
  registerRateLimit: RegisterRateLimit;
  httpLimits: HttpLimits;
  passwordHashing: PasswordHashing;
  /** Heartbeat interval of both sockets; a connection that missed one pong is dropped. */
  heartbeatMs: number;
  /** A socket that has not authenticated within this time is closed. */
  authTimeoutMs: number;
  /** Per-connection frame budget of both sockets (a token bucket); see server/sockets/limits.ts. */
  frameRateLimit: FrameRateLimit;
  /** Every other limit of the sockets (accounts, addresses, caps, buffers): server/sockets/limits.ts. */
  socketLimits: SocketLimits;
  /** Scheduled backups of the SQLite database; null when BACKUP_DIR is not set (or on PostgreSQL, where pg_dump does it). */
  backup: BackupConfig | null;
  /** Only for tests: cheaper argon2id. Never read from the environment. */
  passwordHashCost: PasswordHashCost | null;
  /** The stat cards' drawing workers and their queue (server/cards/pool.ts); DEFAULT_POOL when absent. */
  cardPool?: { size: number; maxQueue: number };
  /** The threads that read scan and bulk award files, their queue and memory (server/files/readers.ts); DEFAULT_READERS when absent. */
  fileReaders?: { size: number; maxQueue: number; maxMemoryMb: number };
  /** Discord's REST API (DISCORD_API_URL): Discord's own, or a stand-in for tests and staging. */
  discordApiUrl: string;
}

export const DEFAULT_DISCORD_API_URL = 'https://discord.com/api/v10';

function discordApiUrl(env: NodeJS.ProcessEnv): string {
  const raw = text(env, 'DISCORD_API_URL') ?? DEFAULT_DISCORD_API_URL;
  if (!/^https?:\/\/[^\s/]+(\/\S*)?$/.test(raw)) throw new ConfigError(`DISCORD_API_URL is the address of Discord's REST API (${DEFAULT_DISCORD_API_URL}), not "${raw}".`);
  return raw.replace(/\/+$/, '');
}

export const DEFAULT_PORT = 7331;
export const DEFAULT_AUCTION_PORT = 8081;
export const DEFAULT_USER_PORT = 8082;

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  idleTimeoutMs: 30_000,
  firstByteTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  timeoutCheckMs: 1_000,
  maxConnections: 4_000,
  maxConnectionsPerAddress: 64,
  refusalDelayMs: 1_000,
};

export class ConfigError extends Error {}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new ConfigError(`${name} must be a port number between 0 and 65535, not "${raw}".`);
  }
  return value;
}

function count(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new ConfigError(`${name} must be a whole number from 1, not "${raw}".`);
  return value;
}

function text(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

export const DEFAULT_BACKUP_EVERY_HOURS = 24;
export const DEFAULT_BACKUP_KEEP = 7;
/** A year: a longer period is surely a mistake (and past setTimeout's reach in steps of 24 days anyway). */
const MAX_BACKUP_EVERY_HOURS = 8_760;

function backupConfig(env: NodeJS.ProcessEnv): BackupConfig | null {
  const dir = text(env, 'BACKUP_DIR');
  const every = text(env, 'BACKUP_EVERY');
  const keep = text(env, 'BACKUP_KEEP');
  if (dir === null) {
    if (every !== null || keep !== null) throw new ConfigError('BACKUP_EVERY and BACKUP_KEEP need BACKUP_DIR, the folder the server writes its backups to.');
    return null;
  }
  if (text(env, 'DATABASE_URL') !== null) {
    throw new ConfigError('BACKUP_DIR is for a SQLite database: on PostgreSQL (DATABASE_URL) back up with pg_dump (see the README) and unset BACKUP_DIR.');
  }
  const everyHours = every === null ? DEFAULT_BACKUP_EVERY_HOURS : Number(every);
  if (!Number.isFinite(everyHours) || everyHours < 0.01 || everyHours > MAX_BACKUP_EVERY_HOURS) {
    throw new ConfigError(`BACKUP_EVERY is the hours between two backups, a number from 0.01 to ${MAX_BACKUP_EVERY_HOURS} (24: once a day), not "${every}".`);
  }
  return { dir: path.resolve(dir), everyHours, keep: keep === null ? DEFAULT_BACKUP_KEEP : count(env, 'BACKUP_KEEP', DEFAULT_BACKUP_KEEP) };
}

/** Reads the configuration from the environment. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const tlsCert = text(env, 'TLS_CERT');
  const tlsKey = text(env, 'TLS_KEY');
  if ((tlsCert === null) !== (tlsKey === null)) {
    throw new ConfigError('Set both TLS_CERT and TLS_KEY (paths to PEM files) to serve https/wss, or neither for http/ws.');
  }
  return {
    discordApiUrl: discordApiUrl(env),
    host: text(env, 'HOST') ?? '0.0.0.0',
    port: port(env, 'PORT', DEFAULT_PORT),
    auctionPort: port(env, 'AUCTION_PORT', DEFAULT_AUCTION_PORT),
    userPort: port(env, 'USER_PORT', DEFAULT_USER_PORT),
    dataDir: path.resolve(text(env, 'DATA_DIR') ?? './data'),
    distDir: path.resolve(text(env, 'DIST_DIR') ?? './dist'),
    tlsCert,
    tlsKey,
    sentryDsn: text(env, 'SENTRY_DSN'),
    reactions: { pollMs: count(env, 'EVENTS_POLL_MS', 2_000), keepDays: count(env, 'EVENTS_KEEP_DAYS', 30), paused: text(env, 'REACTIONS_PAUSED') === '1' },
    notices: { pollMs: count(env, 'NOTICES_POLL_MS', 1_000) },
    jwtSecret: text(env, 'JWT_SECRET'),
    databaseUrl: text(env, 'DATABASE_URL'),
    logLevel: text(env, 'LOG_LEVEL') ?? 'info',
    trustProxy: text(env, 'TRUST_PROXY') === 'true' || text(env, 'TRUST_PROXY') === '1',
    loginRateLimit: { perEmail: 10, perAddress: 30, windowMs: 60_000 },
    registerRateLimit: { perAddress: count(env, 'SIGNUPS_PER_HOUR', 60), windowMs: 3_600_000 },
    httpLimits: DEFAULT_HTTP_LIMITS,
    // one hash at a time, on one lane (PRODUCTION_HASH_COST): a sign-up flood keeps a core free
    passwordHashing: { concurrency: 1, queue: 32, lowPriorityProcess: true },
    heartbeatMs: HEARTBEAT_MS,
    authTimeoutMs: AUTH_TIMEOUT_MS,
    frameRateLimit: CONNECTION_FRAMES,
    socketLimits: DEFAULT_SOCKET_LIMITS,
    backup: backupConfig(env),
    passwordHashCost: null,
  };
}

/** Environment first, then the caller's overrides (tests pass ports 0 and a temp DATA_DIR). */
export function resolveConfig(overrides: Partial<Config> = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const config = { ...loadConfig(env), ...overrides };
  config.dataDir = path.resolve(config.dataDir);
  config.distDir = path.resolve(config.distDir);
  if (config.databaseUrl !== null && !/^postgres(ql)?:\/\//i.test(config.databaseUrl)) {
    throw new ConfigError(
      'DATABASE_URL must be a PostgreSQL address (postgres://user:password@host:5432/database); unset it to keep the data in DATA_DIR/kingdom.db.',
    );
  }
  if (config.backup !== null && config.databaseUrl !== null) {
    throw new ConfigError('BACKUP_DIR is for a SQLite database: on PostgreSQL (DATABASE_URL) back up with pg_dump (see the README) and unset BACKUP_DIR.');
  }
  if (config.jwtSecret !== null && config.jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET must have at least 32 characters; leave it unset to have a random one kept in DATA_DIR/jwt-secret.');
  }
  return config;
}

/** Cheap argon2id for throwaway servers only: production always uses argon2id's defaults. */
const THROWAWAY_HASH_COST: PasswordHashCost = { memoryCost: 256, timeCost: 1, parallelism: 1 };

/**
 * A throwaway server: loopback, random ports, its data and client folders under `dir`, nothing
 * taken from the environment (no TLS, secret, PostgreSQL or Sentry), silent logs, cheap password
 * hashing and no limit on sign-ups. For tests, benchmarks and recording fixtures; `overrides` adjust it.
 */
export function ephemeralConfig(dir: string, overrides: Partial<Config> = {}): Partial<Config> {
  return {
    host: '127.0.0.1',
    port: 0,
    auctionPort: 0,
    userPort: 0,
    dataDir: path.join(dir, 'data'),
    distDir: path.join(dir, 'dist'),
    tlsCert: null,
    tlsKey: null,
    databaseUrl: null,
    jwtSecret: null,
    sentryDsn: null,
    backup: null,
    logLevel: 'silent',
    passwordHashCost: THROWAWAY_HASH_COST,
    // in this process: a throwaway server starts no hashing process (a test of that path asks for it)
    passwordHashing: { concurrency: 1, queue: 32, lowPriorityProcess: false },
    // tests and benchmarks create many accounts from 127.0.0.1; the sign-up limit has its own test
    registerRateLimit: { perAddress: 1_000_000, windowMs: 60_000 },
    ...overrides,
  };
}
