import type { FastifyBaseLogger } from 'fastify';
import type { Bid, Item, StoreState } from '../../src/protocol/socket';
import type { Clock } from '../clock';
import type { Db } from '../db/open';
import type { UserRow } from '../db/schema';
import { announceBalance } from '../points/announce';
import type { Hub } from '../sockets/hub';
import { clusterAnnouncer, localAnnouncer, type Announcer } from '../sockets/announcer';
import { isPostgres } from '../db/dialect';
import type { ClusterEvent } from '../cluster/events';
import { relay } from '../cluster/relay';
import { BidView } from './bid-view';
import { Bidding, type BidAnswer, type BidRequest, type EarlyRefusalAudit, type MaxRequest } from './bidding';
import type { MaxBid } from '../../src/protocol/socket';
import type { Scheduler } from './scheduler';
import { Serial } from './serial';
import { BidQueue } from './bid-queue';
import type { BidCommits, BidWriter } from './bid-writer';
import { SqliteBidWriter } from './bid-writer-sqlite';
import { PostgresBidWriter } from './bid-writer-postgres';
import { Settlement } from './settlement';
import { StoreItems } from './store-items';
import { auctionSnapshot } from './store-queries';

export type { Clock } from '../clock';
export type { BidAnswer, BidRequest, EarlyRefusalAudit, MaxRequest } from './bidding';
export type { HistoryFilter } from './store-queries';

/** What the auction socket asks of the engine. */
export interface AuctionService {
  /** Sent as HISTORY on authentication: bids newest first, the live and recently finished items, and whether the store is open. */
  history(user: UserRow): Promise<{ bids: Bid[]; items: Item[]; store: StoreState; maxBids?: MaxBid[] }>;
  /** Called as the frame arrives: the bid is stamped and queued (or refused early) before this returns. */
  createBid(user: Pick<UserRow, 'id'>, bid: BidRequest): Promise<BidAnswer>;
  /** SET_MAX_BID, called as the frame arrives: stamped and queued with the bids. */
  setMaxBid(user: Pick<UserRow, 'id'>, request: MaxRequest): Promise<BidAnswer>;
}

export interface EngineDeps {
  db: Db;
  hub: Hub;
  now: Clock;
  log: FastifyBaseLogger;
  /**
   * Other processes serve the same kingdom (PostgreSQL): the scheduler waits until this process is
   * its leader (setLeader), the bids' picture refuses only what no other process can undo, and the
   * other processes' events come in through `remote`.
   */
  clustered?: boolean;
}

/**
 * The live auction: one serial queue that every change runs through,
 * and the parts that run in it, one concern each:
 *
 * - `bids` (bidding.ts): CREATE_BID, stamped on arrival, refused early by `judgeBid` on the
 *   picture (bid-view.ts) or judged in its write transaction;
 * - `settlement` (settlement.ts): the schedule (starts, ends, sales and 'purchase' entries) and
 *   the store's opening and closing;
 * - `items` (store-items.ts): the store's items created, edited, cancelled, duplicated;
 * - the reads (store-queries.ts) need no queue, except HISTORY's snapshot (`history`).
 *
 * Each job's write transaction commits, then it is announced, then the next job starts. Balances
 * change only through the ledger (server/points/ledger.ts), booked in this queue by the points
 * service (server/points/service.ts) or by settlement.
 */
export class AuctionEngine implements AuctionService {
  private readonly queue = new Serial();
  private readonly db: Db;
  private readonly hub: Hub;
  private readonly log: FastifyBaseLogger;
  readonly now: Clock;
  /** The engine's picture of the committed state, for refusing bids early (bid-view.ts). */
  readonly bidView: BidView;
  /**
   * What the engine's parts announce through (server/sockets/announcer.ts): alone, the hub;
   * clustered, nothing here: each event comes back from PostgreSQL in commit order, with the other
   * processes', and is told from there (`remote`), so every process tells it in the same order.
   */
  readonly announcer: Announcer;
  /** The database's bid writer (bid-writer-sqlite.ts, bid-writer-postgres.ts). */
  private readonly writer: BidWriter;
  /** Where bids run: the queue, in group commits. */
  private readonly bidQueue: BidQueue;

  /** Write transactions run for bids so far, and the bids they carried (group commit, bid-queue.ts). */
  get bidCommits(): BidCommits {
    return this.bidQueue.commits;
  }
  /** Clustered: the events from PostgreSQL, told one after the other in the order they came. */
  private readonly deliveries = new Serial();
  readonly bids: Bidding;
  readonly settlement: Settlement;
  readonly items: StoreItems;
  readonly scheduler: Scheduler;

  constructor(deps: EngineDeps) {
    this.db = deps.db;
    this.hub = deps.hub;
    this.now = deps.now;
    this.log = deps.log;
    this.bidView = new BidView({ shared: deps.clustered ?? false });
    this.announcer = deps.clustered ? clusterAnnouncer : localAnnouncer(deps.hub);
    this.writer = isPostgres(deps.db) ? new PostgresBidWriter(deps.db) : new SqliteBidWriter(deps.db);
    this.bidQueue = new BidQueue(this.queue, this.writer, () => this.now());
    const exclusive = <T>(job: () => Promise<T>) => this.exclusive(job);
    this.bids = new Bidding({
      db: deps.db,
      announcer: this.announcer,
      now: deps.now,
      log: deps.log,
      bids: this.bidQueue,
      bidView: this.bidView,
      // a bought item ended with its bid: settled at once, by the process that took the bid (settling is conditional, so once)
      settleDue: () => {
        this.tick().catch((error: unknown) => this.log.error({ err: error }, 'settling a bought item failed'));
      },
    });
    this.settlement = new Settlement({
      db: deps.db,
      announcer: this.announcer,
      now: deps.now,
      log: deps.log,
      exclusive,
      fire: () => {
        this.tick().catch((error: unknown) => this.log.error({ err: error }, 'auction schedule failed'));
      },
    });
    this.scheduler = this.settlement.scheduler;
    if (deps.clustered) this.scheduler.setEnabled(false);
    this.items = new StoreItems({ db: deps.db, announcer: this.announcer, now: deps.now, exclusive, scheduler: this.scheduler });
  }

  /**
   * Runs `job` alone, after every change queued before it (grants use it too, so balance updates
   * keep their order). Every change of an item, a balance or the store's settings must come through
   * here: while such a job is queued no bid is refused early, and after it the bids' picture is read
   * again (`BidView`).
   */
  exclusive<T>(job: () => Promise<T>): Promise<T> {
    this.bidView.otherQueued();
    // (after every bid that arrived before it: those are in the queue already)
    return this.queue.run(async () => {
      try {
        return await job();
      } finally {
        await this.bidView.reload(this.db).catch((error: unknown) => this.log.error({ err: error }, 'reading the bids\' picture failed; bids go to the queue'));
        this.bidView.otherDone();
      }
    });
  }

  /**
   * Catches up (starts, ends and settles what fell due while stopped), then arms the timer. With
   * other processes (clustered) only the leader does that, when it becomes the leader; this reads
   * the bids' picture.
   */
  start(): Promise<void> {
    if (!this.scheduler.isEnabled) return this.exclusive(() => Promise.resolve());
    return this.tick();
  }

  /** This process became the scheduler's leader (catch up, then keep the timer) or stopped being it. */
  setLeader(leader: boolean): Promise<void> {
    this.scheduler.setEnabled(leader);
    if (!leader) return Promise.resolve();
    return this.tick().catch((error: unknown) => this.log.error({ err: error }, 'auction schedule failed'));
  }

  /**
   * An event committed by any process (this one too), in commit order: its frames go to this
   * process's sockets, read from the rows it names, one event after the other. A bid updates the
   * picture itself; after anything else the picture is read again (an empty job in the queue), and
   * the leader re-arms its timer when the schedule may have moved.
   */
  remote(event: ClusterEvent): Promise<void> {
    const deps = { db: this.db, hub: this.hub, bidView: this.bidView };
    const told = this.deliveries.run(() => relay(deps, event));
    const after =
      event.k === 'bids' || event.k === 'users' || event.k === 'all-users'
        ? told
        : told.then(() =>
            this.exclusive(async () => {
              if (this.scheduler.isEnabled && (event.k === 'schedule' || event.k === 'store' || event.k === 'start')) await this.scheduler.arm();
            }),
          );
    return after.catch((error: unknown) => this.log.error({ err: error, event: event.k }, 'telling an event from PostgreSQL failed'));
  }

  /**
   * The link to the other processes was lost for a while: frames may have been missed. The
   * picture is read again, and every auction socket is closed with 1012 (service restart), so each
   * board connects again and gets HISTORY, the whole state; balances are re-read.
   */
  gap(): Promise<void> {
    return this.exclusive(async () => {
      for (const conn of this.hub.connections('auction')) this.hub.close(conn, 1012, 'Reconnect');
      await relay({ db: this.db, hub: this.hub, bidView: this.bidView }, { k: 'all-users' });
    }).catch((error: unknown) => this.log.error({ err: error }, 'catching up after the cluster link came back failed'));
  }

  /** Resolves once the events delivered so far have been told and the queue has drained (tests). */
  async idle(): Promise<void> {
    await this.deliveries.idle();
    await this.queue.idle();
  }

  /** Stops the timer and waits for the queue to drain. */
  async stop(): Promise<void> {
    this.scheduler.stop();
    await this.queue.idle();
    await this.writer.close();
  }

  /** Starts, ends and settles everything due now (the timer calls it; tests with a manual clock too). */
  tick(): Promise<void> {
    return this.exclusive(() => this.settlement.runDue());
  }

  /** One CREATE_BID, stamped now (Bidding.createBid). */
  createBid(user: Pick<UserRow, 'id'>, request: BidRequest): Promise<BidAnswer> {
    return this.bids.createBid(user, request);
  }

  /** One SET_MAX_BID, stamped now (Bidding.setMaxBid). */
  setMaxBid(user: Pick<UserRow, 'id'>, request: MaxRequest): Promise<BidAnswer> {
    return this.bids.setMaxBid(user, request);
  }

  /** Checks every early refusal from now on against the transaction (tests). */
  auditEarlyRefusals(): EarlyRefusalAudit {
    return this.bids.auditEarlyRefusals();
  }

  /** HISTORY: in the queue (never older than a frame sent before it), but not `exclusive`: it changes nothing. */
  history(reader?: Pick<UserRow, 'id'>): Promise<{ bids: Bid[]; items: Item[]; store: StoreState; maxBids?: MaxBid[] }> {
    const readerId = reader?.id ?? null;
    // clustered: after every event told so far (frames come from the events there)
    if (this.announcer === clusterAnnouncer) return this.deliveries.run(() => auctionSnapshot(this.db, this.now(), readerId));
    return this.queue.run(() => auctionSnapshot(this.db, this.now(), readerId));
  }

  /** The store opens or closes, or other settings change, in the queue (Settlement.updateSettings). */
  updateSettings(...args: Parameters<Settlement['updateSettings']>): ReturnType<Settlement['updateSettings']> {
    return this.settlement.updateSettings(...args);
  }

  /** After a commit that changed a user's balance or reserved points: their pages hear of it. */
  announceBalance(user: UserRow): void {
    announceBalance(this.hub, user);
  }
}
