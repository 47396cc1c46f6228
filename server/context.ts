import type { FastifyBaseLogger } from 'fastify';
import type { Authenticate } from './auth/authenticate';
import type { PasswordHasher } from './auth/passwords';
import type { Config } from './config';
import type { Db } from './db/open';
import type { Hub } from './sockets/hub';

/** What every part of the server shares: built once in app.ts. */
export interface AppContext {
  config: Config;
  db: Db;
  jwtSecret: Uint8Array;
  passwords: PasswordHasher;
  authenticate: Authenticate;
  hub: Hub;
  log: FastifyBaseLogger;
  /** Ports actually bound (the configured ones may be 0); filled as each server listens. */
  ports: { http: number; auction: number; user: number };
}
