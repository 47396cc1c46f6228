import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod/mini';
import type { KingdomSettings, settingsBody } from '../../src/protocol/settings';
import { MSG, type Bid, type ErrorType, type Item, type ServerMsg, type ServerMsgOf, type StoreState } from '../../src/protocol/socket';
import {
  HISTORY_BIDS,
  HISTORY_FINISHED_ITEMS,
  isEligible,
  SALES_PAGE_SIZE,
  STARTS_AT_PAST_TOLERANCE_MS,
  STORE_ERRORS,
  STORE_ITEMS_PAGE_SIZE,
  type createItemBody,
  type editItemBody,
  type HistoryEntry,
  type HistoryOutcome,
  type ItemState,
  type Sale,
  type StoreItem,
} from '../../src/protocol/store';
import { copyName } from '../../src/protocol/store';
import type { Db } from '../db/open';
import type { ItemRow, UserRow } from '../db/schema';
import { isDatabaseError, writeTransaction, type Queryable } from '../db/write';
import { HttpError } from '../http/errors';
import { storeIsOpen, updateSettings } from '../kingdom/settings';
import { bookIn } from '../points/ledger';
import { recordAuditBy } from '../audit/audit';
import type { Hub } from '../sockets/hub';
import { BidView, endAfterBid, itemFacts, judgeBid, UNKNOWN, validAmount } from './bid-view';
import { Scheduler } from './scheduler';
import { Serial } from './serial';
import { readEligibility, selectBids, selectItems, toBid, toStoreItem, writeEligibility } from './wire';

export type Clock = () => number;

/** A CREATE_BID as the engine takes it: `amount` unchecked (anything but a valid amount is BID_AMOUNT_ERROR). */
export interface BidRequest {
  itemId: number;
  amount: unknown;
  requestId: string;
}

/** What a bid gets back on its own connection: ERROR, the echoed BID_CREATED of a repeated request, or nothing (BID_CREATED went to everyone). */
export type BidAnswer = ServerMsgOf<'ERROR'> | ServerMsgOf<'BID_CREATED'> | null;

/** What the auction socket asks of the engine. */
export interface AuctionService {
  /** Sent as HISTORY on authentication: bids newest first, the live and recently finished items, and whether the store is open. */
  history(user: UserRow): Promise<{ bids: Bid[]; items: Item[]; store: StoreState }>;
  /** Called as the frame arrives: the bid is stamped and queued (or refused early) before this returns. */
  createBid(user: Pick<UserRow, 'id'>, bid: BidRequest): Promise<BidAnswer>;
}

/** The check of early refusals against the transaction (tests). */
export interface EarlyRefusalAudit {
  checked: number;
  mismatches: { userId: number; request: BidRequest; at: number; early: BidAnswer; transaction: unknown }[];
  /** One per early refusal: settles once it is checked. */
  pending: Promise<void>[];
}

export interface EngineDeps {
  db: Db;
  hub: Hub;
  now: Clock;
  log: FastifyBaseLogger;
}

type BidOutcome =
  | { kind: 'rejected'; errorType: ErrorType; itemId: number; bidder?: UserRow }
  | { kind: 'repeat'; bid: Bid }
  | { kind: 'accepted'; bid: Bid; bidder: UserRow; outbid: UserRow | null; item: { id: number; amount: number; leaderId: number; endsAt: number; extensions: number } };

const SETTLE_RETRY_MS = 1000;

function errorFrame(errorType: ErrorType, itemId: number, requestId: string): ServerMsgOf<'ERROR'> {
  return { type: MSG.ERROR, error_type: errorType, data: { itemId, requestId } };
}

function orderFor(state: ItemState | undefined) {
  switch (state) {
    case 'scheduled':
      return [['i.starts_at', 'asc'], ['i.id', 'asc']] as const;
    case 'live':
      return [['i.ends_at', 'asc'], ['i.id', 'asc']] as const;
    case 'finished':
    case 'cancelled':
      return [['i.settled_at', 'desc'], ['i.id', 'desc']] as const;
    default:
      return [['i.id', 'desc']] as const;
  }
}

/**
 * The live auction (DESIGN.md, "Auction rules"). Every change runs through one queue: its write
 * transaction commits, then it is announced, then the next change starts. The schedule is the
 * database's (items.starts_at / ends_at); `start()` catches up on whatever fell due while the
 * server was down, each item exactly once (conditional UPDATEs on the state, and sales.item_id is
 * unique).
 */
export class AuctionEngine implements AuctionService {
  private readonly queue = new Serial();
  readonly scheduler: Scheduler;
  private readonly db: Db;
  private readonly hub: Hub;
  private readonly log: FastifyBaseLogger;
  readonly now: Clock;

  constructor(deps: EngineDeps) {
    this.db = deps.db;
    this.hub = deps.hub;
    this.now = deps.now;
    this.log = deps.log;
    this.scheduler = new Scheduler({
      now: this.now,
      nextDue: () => this.nextDue(),
      fire: () => {
        this.tick().catch((error: unknown) => this.log.error({ err: error }, 'auction schedule failed'));
      },
      onError: (error) => this.log.error({ err: error }, 'reading the auction schedule failed; retrying'),
    });
  }

  /**
   * Runs `job` alone, after every change queued before it (grants use it too, so balance updates
   * keep their order). Every change of an item, a balance or the store's settings must come through
   * here: while such a job is queued no bid is refused early, and after it the bids' picture is read
   * again (`BidView`).
   */
  exclusive<T>(job: () => Promise<T>): Promise<T> {
    this.bidView.otherQueued();
    return this.queue.run(async () => {
      try {
        return await job();
      } finally {
        await this.bidView.reload(this.db).catch((error: unknown) => this.log.error({ err: error }, 'reading the bids\' picture failed; bids go to the queue'));
        this.bidView.otherDone();
      }
    });
  }

  /** Catches up (starts, ends and settles what fell due while stopped), then arms the timer. */
  start(): Promise<void> {
    return this.tick();
  }

  /** Stops the timer and waits for the queue to drain. */
  async stop(): Promise<void> {
    this.scheduler.stop();
    await this.queue.idle();
  }

  /** Starts, ends and settles everything due now (the timer calls it; tests with a manual clock too). */
  tick(): Promise<void> {
    return this.exclusive(() => this.runDue());
  }

  // ── bids (issue 10: arrival stamp, cheap refusals; helper E) ──────────────────────────────

  /** The engine's picture of the committed state, for refusing bids early (bid-view.ts). */
  readonly bidView = new BidView();

  /**
   * One CREATE_BID. The socket calls this as the frame arrives (synchronously), so the bid is
   * stamped with its arrival time and takes its place in the queue before anything that happens
   * later (an item's end): it is judged against the end as it stood when it reached the server,
   * however long the queue before it. A bid the picture shows cannot succeed is answered without a
   * write transaction, with the error the transaction would give.
   */
  createBid(user: Pick<UserRow, 'id'>, request: BidRequest): Promise<BidAnswer> {
    let at: number;
    try {
      at = this.now();
    } catch (error) {
      this.log.error({ err: error, userId: user.id, itemId: request.itemId }, 'bid failed');
      return Promise.resolve(errorFrame('SYSTEM_ERROR', request.itemId, request.requestId));
    }
    const early = this.bidView.verdict(user.id, request.itemId, request.requestId, request.amount, at);
    if (early.kind === 'remembered') return Promise.resolve(errorFrame(early.errorType, early.itemId, request.requestId));
    if (early.kind === 'refuse') {
      const answer = this.refuseEarly(user.id, request, early.errorType, at);
      if (this.audit) this.auditRefusal(this.audit, user.id, request, at, answer);
      return answer;
    }
    return this.queueBid(user.id, request, at);
  }

  /** When set (tests only), every early refusal is checked against the transaction at the bid's place in the queue. */
  private audit: EarlyRefusalAudit | null = null;

  /** Checks every early refusal from now on: `mismatches` lists any the transaction would have answered otherwise. */
  auditEarlyRefusals(): EarlyRefusalAudit {
    return (this.audit ??= { checked: 0, mismatches: [], pending: [] });
  }

  /**
   * Queues, where the bid would have gone, its transaction run to the end and rolled back, and
   * compares that transaction's answer with the early one.
   */
  private auditRefusal(audit: EarlyRefusalAudit, userId: number, request: BidRequest, at: number, early: Promise<BidAnswer>): void {
    const rollback = new Error('audit: roll back');
    const dryRun = this.queue.run(async () => {
      let outcome: BidOutcome | null = null;
      await writeTransaction(this.db, async (trx) => {
        outcome = await this.placeBid(trx, userId, request, at, at);
        throw rollback;
      }).catch((error: unknown) => {
        if (error !== rollback) throw error;
      });
      return outcome as BidOutcome | null;
    });
    audit.pending.push(
      Promise.all([dryRun, early]).then(([outcome, answer]) => {
        audit.checked += 1;
        const wanted = outcome === null ? null : outcome.kind === 'accepted' ? { type: MSG.BID_CREATED, accepted: true } : this.answerOf(outcome, request.requestId);
        if (JSON.stringify(wanted) !== JSON.stringify(answer)) audit.mismatches.push({ userId, request, at, early: answer, transaction: wanted });
      }),
    );
  }

  /** A bid refused by the picture: the stored answer when this requestId was judged before, else the refusal, remembered. */
  private async refuseEarly(userId: number, request: BidRequest, errorType: ErrorType, at: number): Promise<BidAnswer> {
    let stored: BidOutcome | null;
    try {
      stored = await this.storedAnswer(this.db, userId, request.requestId);
    } catch (error) {
      this.log.warn({ err: error, userId }, 'reading a stored bid answer failed; the bid goes to the queue');
      return this.queueBid(userId, request, at);
    }
    if (stored) return this.answerOf(stored, request.requestId);
    this.bidView.stats.early += 1;
    this.bidView.remember(userId, request.requestId, request.itemId, errorType);
    return errorFrame(errorType, request.itemId, request.requestId);
  }

  private queueBid(userId: number, request: BidRequest, at: number): Promise<BidAnswer> {
    this.bidView.bidQueued(userId, request.itemId, request.requestId);
    return this.queue.run(async () => {
      try {
        let outcome: BidOutcome;
        try {
          outcome = await writeTransaction(this.db, (trx) => this.placeBid(trx, userId, request, at, this.now()));
        } catch (error) {
          this.log.error({ err: error, userId, itemId: request.itemId }, 'bid failed');
          return errorFrame(isDatabaseError(error) ? 'DATABASE_ERROR' : 'SYSTEM_ERROR', request.itemId, request.requestId);
        }
        if (outcome.kind === 'accepted') {
          this.bidView.bidCommitted(outcome.item, outcome.outbid ? [outcome.bidder, outcome.outbid] : [outcome.bidder]);
          // committed: now everyone hears of it
          this.hub.broadcast('auction', { type: MSG.BID_CREATED, data: outcome.bid });
          if (outcome.outbid) {
            this.hub.sendToUser(outcome.outbid.id, 'auction', { type: MSG.OUTBID, data: outcome.bid });
            this.announceBalance(outcome.outbid);
          }
          this.announceBalance(outcome.bidder);
          return null;
        }
        if (outcome.kind === 'rejected' && outcome.bidder) this.bidView.userRead(outcome.bidder);
        return this.answerOf(outcome, request.requestId);
      } finally {
        this.bidView.bidDone(userId, request.itemId, request.requestId);
      }
    });
  }

  private answerOf(outcome: Exclude<BidOutcome, { kind: 'accepted' }>, requestId: string): BidAnswer {
    if (outcome.kind === 'repeat') return { type: MSG.BID_CREATED, data: outcome.bid };
    return errorFrame(outcome.errorType, outcome.itemId, requestId);
  }

  /** The first answer to this user's requestId, when one is stored. */
  private async storedAnswer(db: Queryable, userId: number, requestId: string): Promise<Exclude<BidOutcome, { kind: 'accepted' }> | null> {
    const first = await db.selectFrom('bid_requests').selectAll().where('user_id', '=', userId).where('request_id', '=', requestId).executeTakeFirst();
    if (!first) return null;
    if (first.bid_id === null) return { kind: 'rejected', errorType: first.error_type as ErrorType, itemId: first.item_id };
    const stored = await selectBids(db).where('b.id', '=', first.bid_id).executeTakeFirstOrThrow();
    return { kind: 'repeat', bid: toBid(stored) };
  }

  /**
   * The check and the write of one bid, inside its write transaction: `judgeBid` on the rows read
   * here, at the bid's arrival time `at` (`now` only dates the stored request).
   */
  private async placeBid(trx: Queryable, userId: number, request: BidRequest, at: number, now: number): Promise<BidOutcome> {
    const { itemId, requestId, amount } = request;
    const first = await this.storedAnswer(trx, userId, requestId);
    if (first) return first;

    const settings = await trx.selectFrom('kingdom_settings').select('store_open').where('id', '=', 1).executeTakeFirst();
    const row = await trx.selectFrom('items').selectAll().where('id', '=', itemId).executeTakeFirst();
    const bidder = await trx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    const item = row ? itemFacts(row) : null;
    const mayBid = row ? await this.mayBid(trx, row, bidder) : true;
    const verdict = judgeBid({ storeOpen: !(settings && settings.store_open === 0), item, endMayMove: false, mayBid, bidder }, amount, at);
    if (verdict === UNKNOWN) throw new Error('a bid was judged without all its facts');
    if (verdict !== null) {
      await trx.insertInto('bid_requests').values({ user_id: userId, request_id: requestId, item_id: itemId, bid_id: null, error_type: verdict, created_at: now }).execute();
      return { kind: 'rejected', errorType: verdict, itemId, bidder };
    }
    // (accepted: judgeBid found the item and a valid amount)
    if (!row || !item || !validAmount(amount)) throw new Error('an accepted bid without its item or amount');

    const ownLead = item.leaderId === bidder.id ? item.amount : 0;
    // soft close: an accepted bid in the last extendWindow seconds moves the end, a limited number of times
    const { endsAt, extensions } = endAfterBid(item, at);
    const { id: bidId } = await trx
      .insertInto('bids')
      .values({ item_id: item.id, user_id: bidder.id, amount, ends_at: endsAt, created_at: at, extensions })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('bid_requests').values({ user_id: userId, request_id: requestId, item_id: itemId, bid_id: bidId, error_type: null, created_at: now }).execute();
    await trx
      .updateTable('items')
      .set({ leader_id: bidder.id, amount, ends_at: endsAt, extensions })
      .where('id', '=', item.id)
      .where('state', '=', 'live')
      .executeTakeFirstOrThrow();
    let outbid: UserRow | null = null;
    if (item.leaderId !== null && item.leaderId !== bidder.id) {
      outbid = await trx
        .updateTable('users')
        .set((eb) => ({ reserved: eb('reserved', '-', item.amount) }))
        .where('id', '=', item.leaderId)
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    const updated = await trx
      .updateTable('users')
      .set((eb) => ({ reserved: eb('reserved', '+', amount - ownLead) }))
      .where('id', '=', bidder.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const bid = toBid({ item_id: item.id, item_name: row.name, amount, username: bidder.username, ends_at: endsAt, created_at: at, extensions });
    return { kind: 'accepted', bid, bidder: updated, outbid, item: { id: item.id, amount, leaderId: bidder.id, endsAt, extensions } };
  }

  private async mayBid(trx: Queryable, item: ItemRow, user: UserRow): Promise<boolean> {
    const rules = readEligibility(item.eligibility);
    if (!rules.ranks?.length && !rules.groups?.length) return true;
    const groups = rules.groups?.length ? await groupsOf(trx, user.id) : [];
    return isEligible(rules, user.rank, groups);
  }

  // ── the schedule ──────────────────────────────────────────────────────────────────────────

  private async nextDue(): Promise<number | null> {
    const start = await this.db.selectFrom('items').select((eb) => eb.fn.min('starts_at').as('at')).where('state', '=', 'scheduled').executeTakeFirst();
    // an item held while the store is closed has no end until it opens again
    const end = await this.db
      .selectFrom('items')
      .select((eb) => eb.fn.min('ends_at').as('at'))
      .where('state', '=', 'live')
      .where('held_ms', 'is', null)
      .executeTakeFirst();
    const times = [start?.at, end?.at].filter((t): t is number => typeof t === 'number');
    return times.length ? Math.min(...times) : null;
  }

  /** Every start and end that is due, in time order (a start before an end at the same moment), then the timer. */
  private async runDue(): Promise<void> {
    try {
      for (;;) {
        const now = this.now();
        const start = await this.db
          .selectFrom('items')
          .select(['id', 'starts_at'])
          .where('state', '=', 'scheduled')
          .where('starts_at', '<=', now)
          .orderBy('starts_at')
          .orderBy('id')
          .limit(1)
          .executeTakeFirst();
        const end = await this.db
          .selectFrom('items')
          .select(['id', 'ends_at'])
          .where('state', '=', 'live')
          .where('held_ms', 'is', null)
          .where('ends_at', '<=', now)
          .orderBy('ends_at')
          .orderBy('id')
          .limit(1)
          .executeTakeFirst();
        if (start && (!end || start.starts_at <= end.ends_at)) await this.startItem(start.id, now);
        else if (end) await this.settleItem(end.id, now);
        else break;
      }
    } catch (error) {
      this.log.error({ err: error }, 'auction schedule failed; retrying');
      this.scheduler.retryIn(SETTLE_RETRY_MS);
      return;
    }
    await this.scheduler.arm();
  }

  private async startItem(id: number, now: number): Promise<void> {
    const row = await writeTransaction(this.db, async (trx) => {
      const open = await storeIsOpen(trx);
      return trx
        .updateTable('items')
        .set({ state: 'live', started_at: now, held_ms: open ? null : sql<number>`duration_s * 1000` })
        .where('id', '=', id)
        .where('state', '=', 'scheduled')
        .returningAll()
        .executeTakeFirst();
    });
    if (row) this.announceStart(row, now);
  }

  /** BIDDING_STARTED: the whole Item (its rules, eligibility, soft close, image), as HISTORY gives it after a reload. */
  private announceStart(row: ItemRow, now: number): void {
    this.hub.broadcast('auction', { type: MSG.BIDDING_STARTED, data: toStoreItem({ ...row, leader_name: null }, now) });
  }

  /**
   * Ends a live item whose end has passed, in one transaction: finished, and with a leader the
   * reservation becomes a 'purchase' ledger entry and a sale. The UPDATE only matches a live item,
   * so a second settle finds nothing; sales.item_id is unique besides.
   */
  private async settleItem(id: number, now: number): Promise<void> {
    const settled = await writeTransaction(this.db, async (trx) => {
      const item = await trx
        .updateTable('items')
        .set({ state: 'finished', settled_at: now })
        .where('id', '=', id)
        .where('state', '=', 'live')
        .where('held_ms', 'is', null)
        .where('ends_at', '<=', now)
        .returningAll()
        .executeTakeFirst();
      if (!item) return null;
      if (item.leader_id === null) return { item, winner: null };
      await trx
        .updateTable('users')
        .set((eb) => ({ reserved: eb('reserved', '-', item.amount) }))
        .where('id', '=', item.leader_id)
        .execute();
      await trx.insertInto('sales').values({ item_id: item.id, user_id: item.leader_id, amount: item.amount, at: item.ends_at }).execute();
      const { user } = await bookIn(trx, { userId: item.leader_id, delta: -item.amount, kind: 'purchase', reason: `Won "${item.name}"`, actorId: null }, now);
      return { item, winner: user };
    });
    if (!settled) return;
    const { item, winner } = settled;
    if (winner) {
      const result = { itemId: item.id, itemName: item.name, amount: item.amount, username: winner.username };
      this.hub.sendToUser(winner.id, 'auction', { type: MSG.WINNER, data: result });
      this.hub.broadcast('auction', { type: MSG.SALE_COMPLETED, data: { itemId: item.id, itemName: item.name, username: winner.username, amount: item.amount } });
      this.announceBalance(winner);
    } else {
      this.hub.broadcast('auction', { type: MSG.NO_BUYER, data: { itemId: item.id, itemName: item.name } });
    }
  }

  // ── the store ─────────────────────────────────────────────────────────────────────────────

  /**
   * A new item. Without startsAt (or with one a little in the past: clock skew) it goes live at once
   * and BIDDING_STARTED goes out; later starts wait for the scheduler.
   */
  createItem(body: z.output<typeof createItemBody>, creatorId: number, audit: { action: string; detail?: Record<string, unknown> } = { action: 'item.create' }): Promise<StoreItem> {
    return this.exclusive(async () => {
      const now = this.now();
      if (body.startsAt !== undefined && body.startsAt < now - STARTS_AT_PAST_TOLERANCE_MS) throw new HttpError(400, STORE_ERRORS.startsAt);
      const startsAt = Math.max(body.startsAt ?? now, now);
      const live = startsAt <= now;
      // going live while the store is closed: held with its whole duration until it opens
      const held = live && !(await storeIsOpen(this.db)) ? body.duration * 1000 : null;
      // the item and its audit entry in one transaction
      const row = await writeTransaction(this.db, async (trx) => {
        const inserted = await trx
          .insertInto('items')
          .values({
            name: body.itemName,
            description: body.description ?? '',
            image_url: body.imageUrl ?? null,
            type: body.type ?? 'auction',
            start_price: body.start_price,
            min_increment: body.minIncrement,
            starts_at: startsAt,
            duration_s: body.duration,
            ends_at: startsAt + body.duration * 1000,
            extend_window_s: body.extendWindow,
            max_extensions: body.maxExtensions,
            state: live ? 'live' : 'scheduled',
            eligibility: writeEligibility(body.eligibility),
            amount: body.start_price,
            created_by: creatorId,
            created_at: now,
            started_at: live ? now : null,
            held_ms: held,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordAuditBy(trx, creatorId, audit.action, inserted.name, { itemId: inserted.id, startPrice: inserted.start_price, startsAt: inserted.starts_at, ...audit.detail }, now);
        return inserted;
      });
      if (live) this.announceStart(row, now);
      await this.scheduler.arm();
      return toStoreItem({ ...row, leader_name: null }, now);
    });
  }

  /**
   * Cancels a scheduled or live item: the leader's reservation is released (VIRTUAL_BALANCE_UPDATE)
   * and, when it was live, ITEM_CANCELLED takes it off every board (a cancellation is not a sale
   * that failed). A scheduled item was never on the boards, so nothing is broadcast for it.
   */
  cancelItem(itemId: number, actorId: number | null = null): Promise<StoreItem> {
    return this.exclusive(async () => {
      const now = this.now();
      const result = await writeTransaction(this.db, async (trx) => {
        const item = await selectItems(trx).where('i.id', '=', itemId).executeTakeFirst();
        if (!item) throw new HttpError(404, STORE_ERRORS.unknownItem);
        if (item.state !== 'scheduled' && item.state !== 'live') throw new HttpError(409, STORE_ERRORS.notCancellable);
        await trx.updateTable('items').set({ state: 'cancelled', settled_at: now }).where('id', '=', item.id).where('state', '=', item.state).executeTakeFirstOrThrow();
        let released: UserRow | null = null;
        if (item.state === 'live' && item.leader_id !== null) {
          released = await trx
            .updateTable('users')
            .set((eb) => ({ reserved: eb('reserved', '-', item.amount) }))
            .where('id', '=', item.leader_id)
            .returningAll()
            .executeTakeFirstOrThrow();
        }
        await recordAuditBy(trx, actorId, 'item.cancel', item.name, { itemId: item.id, was: item.state, ...(released ? { released: released.username, amount: item.amount } : {}) }, now);
        return { item, released };
      });
      const { item, released } = result;
      if (released) this.announceBalance(released);
      if (item.state === 'live') this.hub.broadcast('auction', { type: MSG.ITEM_CANCELLED, data: { itemId: item.id, itemName: item.name } });
      await this.scheduler.arm();
      return toStoreItem({ ...item, state: 'cancelled', settled_at: now }, now);
    });
  }

  /**
   * Edits a scheduled item (409 once it has started, finished or been cancelled). A new start
   * a little in the past counts as now, and then the item goes live at once like a new one.
   */
  editItem(itemId: number, body: z.output<typeof editItemBody>, actorId: number | null = null): Promise<StoreItem> {
    return this.exclusive(async () => {
      const now = this.now();
      if (body.startsAt !== undefined && body.startsAt < now - STARTS_AT_PAST_TOLERANCE_MS) throw new HttpError(400, STORE_ERRORS.startsAt);
      const row = await writeTransaction(this.db, async (trx) => {
        const item = await trx.selectFrom('items').selectAll().where('id', '=', itemId).executeTakeFirst();
        if (!item) throw new HttpError(404, STORE_ERRORS.unknownItem);
        if (item.state !== 'scheduled') throw new HttpError(409, STORE_ERRORS.notEditable);
        const startsAt = body.startsAt === undefined ? item.starts_at : Math.max(body.startsAt, now);
        const duration = body.duration ?? item.duration_s;
        const startPrice = body.start_price ?? item.start_price;
        const live = startsAt <= now;
        const held = live && !(await storeIsOpen(trx)) ? duration * 1000 : null;
        await recordAuditBy(trx, actorId, 'item.edit', item.name, { itemId: item.id, changes: body }, now);
        return trx
          .updateTable('items')
          .set({
            name: body.itemName ?? item.name,
            description: body.description ?? item.description,
            image_url: body.imageUrl === undefined ? item.image_url : body.imageUrl,
            type: body.type ?? item.type,
            start_price: startPrice,
            amount: startPrice,
            min_increment: body.minIncrement ?? item.min_increment,
            starts_at: live ? now : startsAt,
            duration_s: duration,
            ends_at: (live ? now : startsAt) + duration * 1000,
            extend_window_s: body.extendWindow ?? item.extend_window_s,
            max_extensions: body.maxExtensions ?? item.max_extensions,
            eligibility: body.eligibility === undefined ? item.eligibility : writeEligibility(body.eligibility),
            ...(live ? { state: 'live' as const, started_at: now, held_ms: held } : {}),
          })
          .where('id', '=', item.id)
          .where('state', '=', 'scheduled')
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      if (row.state === 'live') this.announceStart(row, now);
      await this.scheduler.arm();
      return toStoreItem({ ...row, leader_name: null }, now);
    });
  }

  /** A copy of any item (its name with ' (copy)', texts, prices, timing rules and eligibility), starting now or at `startsAt`. */
  async duplicateItem(itemId: number, startsAt: number | undefined, creatorId: number): Promise<StoreItem> {
    const item = await this.db.selectFrom('items').selectAll().where('id', '=', itemId).executeTakeFirst();
    if (!item) throw new HttpError(404, STORE_ERRORS.unknownItem);
    const rules = readEligibility(item.eligibility);
    return this.createItem(
      {
        itemName: copyName(item.name),
        description: item.description,
        ...(item.image_url === null ? {} : { imageUrl: item.image_url }),
        type: 'auction',
        start_price: item.start_price,
        minIncrement: item.min_increment,
        ...(startsAt === undefined ? {} : { startsAt }),
        duration: item.duration_s,
        extendWindow: item.extend_window_s,
        maxExtensions: item.max_extensions,
        eligibility: rules,
      },
      creatorId,
      { action: 'item.duplicate', detail: { from: item.id } },
    );
  }

  async listItems(state: ItemState | undefined, page = 1): Promise<{ items: StoreItem[]; page: number; pageSize: number; total: number }> {
    const now = this.now();
    let query = selectItems(this.db);
    let count = this.db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n'));
    if (state) {
      query = query.where('i.state', '=', state);
      count = count.where('state', '=', state);
    }
    for (const [column, direction] of orderFor(state)) query = query.orderBy(column, direction);
    const [rows, total] = await Promise.all([
      query.limit(STORE_ITEMS_PAGE_SIZE).offset((page - 1) * STORE_ITEMS_PAGE_SIZE).execute(),
      count.executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map((r) => toStoreItem(r, now)), page, pageSize: STORE_ITEMS_PAGE_SIZE, total: Number(total.n) };
  }

  /** Sales newest first, a page at a time; optionally one buyer's. */
  async sales({ userId, page = 1 }: { userId?: number; page?: number }): Promise<{ sales: Sale[]; page: number; pageSize: number; total: number }> {
    let query = this.db.selectFrom('sales as s').innerJoin('items as i', 'i.id', 's.item_id').innerJoin('users as u', 'u.id', 's.user_id');
    if (userId !== undefined) query = query.where('s.user_id', '=', userId);
    const [rows, total] = await Promise.all([
      query
        .select(['s.item_id', 'i.name', 'u.username', 's.amount', 's.at'])
        .orderBy('s.at', 'desc')
        .orderBy('s.id', 'desc')
        .limit(SALES_PAGE_SIZE)
        .offset((page - 1) * SALES_PAGE_SIZE)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      sales: rows.map((r) => ({ itemId: r.item_id, itemName: r.name, username: r.username, amount: r.amount, at: r.at })),
      page,
      pageSize: SALES_PAGE_SIZE,
      total: Number(total.n),
    };
  }

  /** Every finished item, sold (with its buyer and price) or unsold, by end newest first, a page at a time. */
  async historyEntries(
    filter: HistoryFilter,
    page: number,
  ): Promise<{ entries: HistoryEntry[]; page: number; pageSize: number; total: number }> {
    const [rows, total] = await Promise.all([
      historyQuery(this.db, filter)
        .orderBy('i.ends_at', 'desc')
        .orderBy('i.id', 'desc')
        .limit(SALES_PAGE_SIZE)
        .offset((page - 1) * SALES_PAGE_SIZE)
        .execute(),
      historyBase(this.db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { entries: rows.map(toHistoryEntry), page, pageSize: SALES_PAGE_SIZE, total: Number(total.n) };
  }

  /** Every matching history entry, newest first, read in chunks (for the CSV export). */
  async *allHistoryEntries(filter: HistoryFilter, chunk = 2000): AsyncGenerator<HistoryEntry[]> {
    let after: { endsAt: number; id: number } | null = null;
    for (;;) {
      let query = historyQuery(this.db, filter);
      if (after) {
        const { endsAt, id } = after;
        query = query.where((eb) => eb.or([eb('i.ends_at', '<', endsAt), eb.and([eb('i.ends_at', '=', endsAt), eb('i.id', '<', id)])]));
      }
      const rows = await query.orderBy('i.ends_at', 'desc').orderBy('i.id', 'desc').limit(chunk).execute();
      if (rows.length === 0) return;
      yield rows.map(toHistoryEntry);
      const last = rows[rows.length - 1];
      after = { endsAt: last.ends_at, id: last.id };
      if (rows.length < chunk) return;
    }
  }

  /** HISTORY: the latest bids (not on cancelled items), every live item and the most recently finished ones, and whether the store is open. */
  history(): Promise<{ bids: Bid[]; items: Item[]; store: StoreState }> {
    // in the queue (never older than a frame sent before it), but not `exclusive`: it changes nothing
    return this.queue.run(async () => {
      const now = this.now();
      const bids = await selectBids(this.db).where('i.state', '!=', 'cancelled').limit(HISTORY_BIDS).execute();
      const live = await selectItems(this.db).where('i.state', '=', 'live').orderBy('i.ends_at').orderBy('i.id').execute();
      const finished = await selectItems(this.db)
        .where('i.state', '=', 'finished')
        .orderBy('i.settled_at', 'desc')
        .orderBy('i.id', 'desc')
        .limit(HISTORY_FINISHED_ITEMS)
        .execute();
      const store: StoreState = (await storeIsOpen(this.db)) ? 'open' : 'closed';
      return { bids: bids.map(toBid), items: [...live, ...finished].map((r) => toStoreItem(r, now)), store };
    });
  }

  // ── the store opening and closing (kingdom settings) ──────────────────────────────────────

  /**
   * Changes the kingdom's settings through the queue: a bid queued before a close is still taken,
   * none after it. Closing the store holds every live item's time left, so no item ends while it
   * is closed (a leader cannot win at the price of the moment while rivals are refused); opening
   * it gives each live item its end back as the opening time plus the time it had left. Either
   * way every board hears STORE_STATE with the items' ends, so every clock moves together.
   */
  updateSettings(body: z.output<typeof settingsBody>, actorId: number): Promise<KingdomSettings> {
    return this.exclusive(async () => {
      // an item whose end came before the close is over, fairly: settle it first
      if (body.storeOpen === false) await this.runDue();
      const now = this.now();
      let change: ServerMsgOf<'STORE_STATE'> | null = null;
      const settings = await updateSettings(this.db, body, actorId, now, async (trx, open) => {
        change = open ? await resumeItems(trx, now) : await holdItems(trx, now);
      });
      if (change) this.hub.broadcast('auction', change);
      await this.scheduler.arm();
      return settings;
    });
  }

  /** After a commit that changed a user's balance or reserved points: their pages hear of it. */
  announceBalance(user: UserRow): void {
    this.hub.refreshUser(user);
    const message: ServerMsg = {
      type: MSG.VIRTUAL_BALANCE_UPDATE,
      data: { balance: user.balance, reserved: user.reserved, available: user.balance - user.reserved },
    };
    this.hub.sendToUser(user.id, 'user', message);
  }
}

/** The names of the groups a user belongs to. */
export async function groupsOf(db: Queryable, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('user_groups as ug').innerJoin('groups as g', 'g.id', 'ug.group_id').select('g.name').where('ug.user_id', '=', userId).execute();
  return rows.map((r) => r.name);
}

/** The store history's filters: the buyer, the end between from and to (inclusive), sold or unsold. */
export interface HistoryFilter {
  userId?: number;
  from?: number;
  to?: number;
  outcome?: HistoryOutcome;
}

function historyBase(db: Queryable, filter: HistoryFilter) {
  let query = db.selectFrom('items as i').leftJoin('sales as s', 's.item_id', 'i.id').where('i.state', '=', 'finished');
  if (filter.userId !== undefined) query = query.where('s.user_id', '=', filter.userId);
  if (filter.from !== undefined) query = query.where('i.ends_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('i.ends_at', '<=', filter.to);
  if (filter.outcome === 'sold') query = query.where('s.id', 'is not', null);
  if (filter.outcome === 'unsold') query = query.where('s.id', 'is', null);
  return query;
}

function historyQuery(db: Queryable, filter: HistoryFilter) {
  return historyBase(db, filter)
    .leftJoin('users as u', 'u.id', 's.user_id')
    .select(['i.id', 'i.name', 'i.ends_at', 's.id as sale_id', 's.amount', 's.at', 'u.username']);
}

function toHistoryEntry(r: { id: number; name: string; ends_at: number; sale_id: number | null; amount: number | null; at: number | null; username: string | null }): HistoryEntry {
  const sold = r.sale_id !== null;
  return {
    itemId: r.id,
    itemName: r.name,
    outcome: sold ? 'sold' : 'unsold',
    username: sold ? r.username : null,
    amount: sold ? r.amount : null,
    at: sold && r.at !== null ? r.at : r.ends_at,
  };
}

/** The store closes: every live item running keeps the time it has left (held_ms) and cannot end. */
async function holdItems(trx: Queryable, now: number): Promise<ServerMsgOf<'STORE_STATE'>> {
  const rows = await trx
    .updateTable('items')
    .set({ held_ms: sql<number>`case when ends_at > ${now} then ends_at - ${now} else 0 end` })
    .where('state', '=', 'live')
    .where('held_ms', 'is', null)
    .returning(['id', 'ends_at', 'held_ms'])
    .execute();
  const items = rows.map((r) => ({ itemId: r.id, endsAt: r.ends_at, heldMs: r.held_ms ?? 0 })).sort((a, b) => a.itemId - b.itemId);
  return { type: MSG.STORE_STATE, data: { state: 'closed', timestamp: now, items } };
}

/** The store opens: every held item ends the time it had left from now. */
async function resumeItems(trx: Queryable, now: number): Promise<ServerMsgOf<'STORE_STATE'>> {
  const rows = await trx
    .updateTable('items')
    .set({ ends_at: sql<number>`${now} + held_ms`, held_ms: null })
    .where('state', '=', 'live')
    .where('held_ms', 'is not', null)
    .returning(['id', 'ends_at'])
    .execute();
  const items = rows.map((r) => ({ itemId: r.id, endsAt: r.ends_at })).sort((a, b) => a.itemId - b.itemId);
  return { type: MSG.STORE_STATE, data: { state: 'open', timestamp: now, items } };
}
