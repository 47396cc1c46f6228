import type { AddressInfo } from 'node:net';
import { AuctionEngine, type Clock } from './auction/engine';
import { createAuthenticator } from './auth/authenticate';
import { isAccountEvent, tellAccountEvent } from './cluster/accounts';
import { loadJwtSecret } from './auth/jwt-secret';
import { createPasswordHasher } from './auth/passwords';
import { BackupSchedule, backupInChildProcess, type RunBackup } from './backup/schedule';
import { BotHub, type BotLimits } from './bots/hub';
import { attachBotSockets } from './bots/sockets';
import { resolveConfig, type Config } from './config';
import type { AppContext } from './context';
import { openDatabase, type Db } from './db/open';
import { ClusterLink } from './cluster/link';
import { AutomaticPoints } from './points/automatic';
import { BulkPreviews } from './points/bulk';
import { PointsService } from './points/service';
import { registerReactions } from './reactions';
import { Reactions } from './events/reactions';
import { Notices } from './notices/producer';
import { ScanImports } from './scans/imports';
import { PreviewStore } from './previews/store';
import { LinkImports } from './scans/link-import';
import { CardPool, DEFAULT_POOL } from './cards/pool';
import { DEFAULT_READERS, FileReaders } from './files/readers';
import { CardService } from './cards/service';
import { DiscordOutbox, type OutboxOptions } from './discord/outbox';
import { uploadsDir } from './http/uploads';
import { createReporter, reportingLogger, type ErrorReporter } from './report';
import { createFastify, setupHttpApp } from './http/build-app';
import { auctionChannel } from './sockets/auction';
import { Hub } from './sockets/hub';
import { startSocketServer, type SocketServer } from './sockets/socket-server';
import { userChannel } from './sockets/user';
import { readTls } from './tls';

export interface RunningServer {
  config: Config;
  httpUrl: string;
  auctionUrl: string;
  userUrl: string;
  db: Db;
  hub: Hub;
  auction: AuctionEngine;
  points: PointsService;
  bots: BotHub;
  /** Discord announcements' sender (tests wait on `idle()` after a change or a step of their clock). */
  discord: DiscordOutbox;
  /** Reactions to domain events (tests wait on `idle()` after a change). */
  reactions: Reactions;
  /** Notices' passes (tests `wake()` then wait on `idle()`). */
  notices: Notices;
  /** The threads that read uploaded files (tests wait on their 'start'). */
  readers: FileReaders;
  /** Where unexpected errors are reported (Sentry with SENTRY_DSN; nowhere without). */
  reporter: ErrorReporter;
  close(): Promise<void>;
}

/** What tests may replace: the engine's clock, the clock of the sockets' frame budgets (ms), and the sockets' session clock (epoch ms). */
export interface ServerDeps {
  now?: Clock;
  socketClock?: () => number;
  sessionClock?: Clock;
  /** The bots' clock (heartbeat timeouts, log budgets) and budgets. */
  botClock?: () => number;
  botLimits?: Partial<BotLimits>;
  /** How a scheduled backup is taken (a child process in production). */
  runBackup?: RunBackup;
  /** The Discord sender's call timeout and claim lease (ms). */
  discordOutbox?: Pick<OutboxOptions, 'timeoutMs' | 'leaseMs'>;
  /** Where the log's lines go (standard output when not given): tests read every line written. */
  logStream?: { write(line: string): void };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function listenError(error: unknown, name: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new Error(`Port ${port} (${name}) is already in use: stop what uses it or set ${name}.`, { cause: error });
  if (code === 'EACCES') return new Error(`Not allowed to listen on port ${port} (${name}): choose a port above 1023.`, { cause: error });
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Opens the database (migrating it), then starts the auction socket, the user socket and HTTP (API
 * and built client). Configuration: the environment, overridden by `opts` (tests pass ports 0).
 */
export async function startServer(opts: Partial<Config> = {}, deps: ServerDeps = {}): Promise<RunningServer> {
  const config = resolveConfig(opts);
  // errors surfaced: one Sentry client for this server when SENTRY_DSN is set (a bad DSN stops the start)
  const reporter = await createReporter(config.sentryDsn);
  const tls = readTls(config);
  const jwtSecret = loadJwtSecret(config.dataDir, config.jwtSecret);
  const db = await openDatabase(config.dataDir, config.databaseUrl);
  const now = deps.now ?? Date.now;
  const app = createFastify(config, tls, now, deps.logStream);
  const hub = new Hub(config.socketLimits);
  // PostgreSQL: other processes may serve the same kingdom
  const clustered = config.databaseUrl !== null;
  // the engine logs its schedule's and bids' failures at error level: each is reported too
  const auction = new AuctionEngine({ db, hub, now, log: reportingLogger(app.log, reporter, 'auction'), clustered });
  // notices: made after the commits they tell of (a reaction, and passes over bids and items ending soon), told on the user sockets
  const notices = new Notices({ db, hub, now, pollMs: config.notices.pollMs, paused: config.reactions.paused, log: reportingLogger(app.log, reporter, 'notices') });
  const link = clustered
    ? new ClusterLink({
        url: config.databaseUrl as string,
        onEvent: (event, own) => {
          if (event.k === 'notices') {
            if (!own) notices.tellRemote(event.n).catch((error: unknown) => app.log.warn({ err: error }, 'telling notices from PostgreSQL failed'));
            return;
          }
          if (!isAccountEvent(event)) return void auction.remote(event);
          if (!own) tellAccountEvent({ db, hub }, event).catch((error: unknown) => app.log.warn({ err: error, event: event.k }, 'telling an account event from PostgreSQL failed'));
        },
        onLeader: (leader) => {
          app.log.info({ leader }, leader ? 'this process now runs the auction schedule' : 'this process no longer runs the auction schedule');
          return auction.setLeader(leader);
        },
        onGap: () => void auction.gap(),
        onError: (error, what) => app.log.warn({ err: error }, what),
      })
    : null;
  const points = new PointsService({ db, announcer: auction.announcer, now, exclusive: (job) => auction.exclusive(job) });
  const bots = new BotHub(db, deps.botClock ?? now, app.log, deps.botLimits);
  // previews wait for their apply in the database, so the apply may reach any process
  const previews = new PreviewStore(db, now);
  // booked through the points service: the engine's queue, then the balances to the user sockets
  const automatic = new AutomaticPoints(db, points, previews, app.log);
  const scans = new ScanImports(db, now, previews);
  const bulk = new BulkPreviews(previews);
  const links = new LinkImports(db, previews, now);
  // stat cards: drawn in low-priority child processes (started on the first card), cached by content
  const cards = new CardService(db, new CardPool(config.cardPool ?? DEFAULT_POOL), uploadsDir(config.dataDir));
  // scan and bulk award files: read in worker threads (started on the first file) behind a bounded queue
  const readers = new FileReaders(config.fileReaders ?? DEFAULT_READERS);
  // reactions to domain events, after their commits: registered once, in server/reactions.ts
  const reactions = new Reactions(db, {
    pollMs: config.reactions.pollMs,
    keepMs: config.reactions.keepDays * 86_400_000,
    paused: config.reactions.paused,
    now,
    log: reportingLogger(app.log, reporter, 'reactions'),
  });
  // Discord announcements: queued by a reaction, sent from the outbox table; a bid or a page never waits on Discord
  const discord = new DiscordOutbox({ db, now, cards, log: reportingLogger(app.log, reporter, 'discord'), pollMs: config.reactions.pollMs, paused: config.reactions.paused, apiUrl: config.discordApiUrl, ...deps.discordOutbox });
  registerReactions(reactions, { automatic, bots, db, discord, notices });
  const ctx: AppContext = {
    config,
    db,
    jwtSecret,
    passwords: createPasswordHasher(config.passwordHashCost, config.passwordHashing),
    authenticate: createAuthenticator(db, jwtSecret),
    hub,
    auction,
    points,
    scans,
    bulk,
    links,
    automatic,
    cards,
    readers,
    now,
    log: app.log,
    reporter,
    bots,
    discord,
    startedAt: Date.now(),
    ports: { http: 0, auction: 0, user: 0 },
  };

  // SQLite only (config.ts refuses BACKUP_DIR with DATABASE_URL), and SQLite has one server process
  const backups = config.backup && !clustered
    ? new BackupSchedule({ config: config.backup, now, run: deps.runBackup ?? backupInChildProcess(config.dataDir), log: app.log })
    : null;

  const sockets: SocketServer[] = [];
  let detachBots: (() => void) | null = null;
  const closeAll = async () => {
    await backups?.stop();
    await reactions.stop();
    await notices.stop();
    await discord.stop();
    await link?.stop();
    await auction.stop();
    detachBots?.();
    await Promise.allSettled(sockets.map((s) => s.close()));
    await app.close().catch(() => undefined);
    await cards.close();
    await readers.close();
    await db.destroy();
    ctx.passwords.close();
    // last: whatever failed while closing is reported too, and sent before close resolves
    await reporter.close();
  };

  try {
    // before anyone can connect: start, end and settle whatever fell due while the server was down
    await auction.start();
    // then hear the other processes, and try to lead the schedule (the leader catches up as above)
    await link?.start();
    const auctionSocket = await startSocketServer(ctx, auctionChannel(ctx), config.auctionPort, tls, { clock: deps.socketClock, now: deps.sessionClock }).catch((e: unknown) => {
      throw listenError(e, 'AUCTION_PORT', config.auctionPort);
    });
    sockets.push(auctionSocket);
    ctx.ports.auction = auctionSocket.port;
    const user = await startSocketServer(ctx, userChannel(ctx), config.userPort, tls, { clock: deps.socketClock, now: deps.sessionClock }).catch((e: unknown) => {
      throw listenError(e, 'USER_PORT', config.userPort);
    });
    sockets.push(user);
    ctx.ports.user = user.port;

    await setupHttpApp(app, ctx);
    await bots.start();
    // then what committed while the server was down, and every commit from now on
    await reactions.start();
    await notices.start();
    discord.start();
    detachBots = attachBotSockets(app.server, ctx, bots);
    await app.listen({ port: config.port, host: config.host }).catch((e: unknown) => {
      throw listenError(e, 'PORT', config.port);
    });
    ctx.ports.http = (app.server.address() as AddressInfo).port;
    backups?.start();
  } catch (error) {
    await closeAll();
    throw error;
  }

  const host = urlHost(config.host);
  const [web, ws] = tls ? ['https', 'wss'] : ['http', 'ws'];
  let closing: Promise<void> | null = null;
  return {
    config,
    httpUrl: `${web}://${host}:${ctx.ports.http}`,
    auctionUrl: `${ws}://${host}:${ctx.ports.auction}`,
    userUrl: `${ws}://${host}:${ctx.ports.user}`,
    db,
    hub,
    auction,
    points,
    bots,
    discord,
    reactions,
    notices,
    readers,
    reporter,
    close: () => (closing ??= closeAll()),
  };
}
