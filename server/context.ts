import type { FastifyBaseLogger } from 'fastify';
import type { AuctionEngine, Clock } from './auction/engine';
import type { Authenticate } from './auth/authenticate';
import type { BotHub } from './bots/hub';
import type { PasswordHasher } from './auth/passwords';
import type { Config } from './config';
import type { Db } from './db/open';
import type { AutomaticPoints } from './points/automatic';
import type { BulkPreviews } from './points/bulk';
import type { LinkImports } from './scans/link-import';
import type { CardService } from './cards/service';
import type { DiscordOutbox } from './discord/outbox';
import type { FileReaders } from './files/readers';
import type { PointsService } from './points/service';
import type { ScanImports } from './scans/imports';
import type { ErrorReporter } from './report';
import type { Hub } from './sockets/hub';

/** What every part of the server shares: every service is built once, in app.ts (the one composition root); routes only reach them here. */
export interface AppContext {
  config: Config;
  db: Db;
  jwtSecret: Uint8Array;
  passwords: PasswordHasher;
  authenticate: Authenticate;
  hub: Hub;
  /** The live auction: bids, the schedule, the store. Every balance change goes through its queue. */
  auction: AuctionEngine;
  /** Every change of points: serialise (the engine's queue), book (the ledger), announce (the user socket). */
  points: PointsService;
  /** Scan files: previewed, then applied once (server/scans/scans.ts). */
  scans: ScanImports;
  /** Bulk awards: a file's rows previewed, then booked once (server/points/bulk.ts). */
  bulk: BulkPreviews;
  /** Farms linked in bulk: a file's (governor id, account) rows previewed, then linked once (server/scans/link-import.ts). */
  links: LinkImports;
  /** Automatic points: rules' runs previewed then booked once, and the runs after each scan (server/points/automatic.ts). */
  automatic: AutomaticPoints;
  /** Stat cards: their data read and checked, drawn off the event loop by a bounded pool, cached by content (server/cards/service.ts). */
  cards: CardService;
  /** Scan and bulk award files are read in worker threads behind a bounded queue (server/files/readers.ts). */
  readers: FileReaders;
  /** The engine's clock (epoch ms); tests may pass their own. */
  now: Clock;
  log: FastifyBaseLogger;
  /** Reports unexpected errors to Sentry when SENTRY_DSN is set (server/report.ts); does nothing otherwise. */
  reporter: ErrorReporter;
  /** Discord announcements: queued by a reaction, sent from the outbox table within Discord's rate limits (server/discord/outbox.ts). */
  discord: DiscordOutbox;
  /** The scan bots' live side: connections, status, logs, commands, watching admins. */
  bots: BotHub;
  /** When this server started (epoch ms, wall clock): the admin dashboard's uptime. */
  startedAt: number;
  /** Ports actually bound (the configured ones may be 0); filled as each server listens. */
  ports: { http: number; auction: number; user: number };
}
