import path from 'node:path';
import { AUTH_TIMEOUT_MS, CONNECTION_FRAMES, DEFAULT_SOCKET_LIMITS, HEARTBEAT_MS, type SocketLimits } from './sockets/limits';
import type { FrameRateLimit } from './sockets/rate-limit';

/** Argon2 cost parameters. Production uses argon2id's defaults; only tests pass cheaper ones, in code. */
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
  /** HS256 secret; when null a random one is kept in DATA_DIR/jwt-secret. */
  jwtSecret: string | null;
  /** Documented path to PostgreSQL; not built yet, so setting it stops the start. */
  databaseUrl: string | null;
  logLevel: string;
  /** Trust X-Forwarded-For from a reverse proxy in front of the server (rate limits use the client address). */
  trustProxy: boolean;
  loginRateLimit: LoginRateLimit;
  /** Heartbeat interval of both sockets; a connection that missed one pong is dropped. */
  heartbeatMs: number;
  /** A socket that has not authenticated within this time is closed. */
  authTimeoutMs: number;
  /** Per-connection frame budget of both sockets (a token bucket); see server/sockets/limits.ts. */
  frameRateLimit: FrameRateLimit;
  /** Every other limit of the sockets (accounts, addresses, caps, buffers): server/sockets/limits.ts. */
  socketLimits: SocketLimits;
  /** Only for tests: cheaper argon2id. Never read from the environment. */
  passwordHashCost: PasswordHashCost | null;
}

export const DEFAULT_PORT = 7331;
export const DEFAULT_AUCTION_PORT = 8081;
export const DEFAULT_USER_PORT = 8082;

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

function text(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

/** Reads the configuration from the environment (see DESIGN.md, "The server"). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const tlsCert = text(env, 'TLS_CERT');
  const tlsKey = text(env, 'TLS_KEY');
  if ((tlsCert === null) !== (tlsKey === null)) {
    throw new ConfigError('Set both TLS_CERT and TLS_KEY (paths to PEM files) to serve https/wss, or neither for http/ws.');
  }
  return {
    host: text(env, 'HOST') ?? '0.0.0.0',
    port: port(env, 'PORT', DEFAULT_PORT),
    auctionPort: port(env, 'AUCTION_PORT', DEFAULT_AUCTION_PORT),
    userPort: port(env, 'USER_PORT', DEFAULT_USER_PORT),
    dataDir: path.resolve(text(env, 'DATA_DIR') ?? './data'),
    distDir: path.resolve(text(env, 'DIST_DIR') ?? './dist'),
    tlsCert,
    tlsKey,
    sentryDsn: text(env, 'SENTRY_DSN'),
    jwtSecret: text(env, 'JWT_SECRET'),
    databaseUrl: text(env, 'DATABASE_URL'),
    logLevel: text(env, 'LOG_LEVEL') ?? 'info',
    trustProxy: text(env, 'TRUST_PROXY') === 'true' || text(env, 'TRUST_PROXY') === '1',
    loginRateLimit: { perEmail: 10, perAddress: 30, windowMs: 60_000 },
    heartbeatMs: HEARTBEAT_MS,
    authTimeoutMs: AUTH_TIMEOUT_MS,
    frameRateLimit: CONNECTION_FRAMES,
    socketLimits: DEFAULT_SOCKET_LIMITS,
    passwordHashCost: null,
  };
}

/** Environment first, then the caller's overrides (tests pass ports 0 and a temp DATA_DIR). */
export function resolveConfig(overrides: Partial<Config> = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const config = { ...loadConfig(env), ...overrides };
  config.dataDir = path.resolve(config.dataDir);
  config.distDir = path.resolve(config.distDir);
  if (config.databaseUrl) {
    throw new ConfigError(
      'DATABASE_URL is set, but only the SQLite store is built so far. Unset DATABASE_URL to keep the data in DATA_DIR/kingdom.db.',
    );
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
 * taken from the environment (no TLS, secret, PostgreSQL or Sentry), silent logs and cheap password
 * hashing. For tests, benchmarks and recording fixtures; `overrides` adjust it.
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
    logLevel: 'silent',
    passwordHashCost: THROWAWAY_HASH_COST,
    ...overrides,
  };
}
