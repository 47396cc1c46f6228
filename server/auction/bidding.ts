import type { FastifyBaseLogger } from 'fastify';
import { MSG, type ErrorType, type ServerMsgOf } from '../../src/protocol/socket';
import type { Clock } from '../clock';
import type { Db } from '../db/open';
import type { UserRow } from '../db/schema';
import { isDatabaseError } from '../db/write';
import { announceBalance } from '../points/announce';
import type { Announcer } from '../sockets/announcer';
import type { BidView } from './bid-view';
import { announceBid, announceFollow } from './announce';
import { maxRepeat, storedOutcome, type Answered, type BidOutcome, type BidRequest, type Written } from './bid-writer';
import type { Follow } from './max-bids';
import type { BidQueue } from './bid-queue';

export type { BidRequest } from './bid-writer';

/**
 * What a bid gets back on its own connection: ERROR, the echoed BID_CREATED of a repeated request
 * (MAX_BID of a repeated SET_MAX_BID), or nothing (BID_CREATED went to everyone, MAX_BID to every
 * tab of its owner).
 */
export type BidAnswer = ServerMsgOf<'ERROR'> | ServerMsgOf<'BID_CREATED'> | ServerMsgOf<'MAX_BID'> | null;

/** A SET_MAX_BID as the engine takes it: `max` unchecked (anything but 0 or a valid amount is BID_AMOUNT_ERROR). */
export interface MaxRequest {
  itemId: number;
  max: unknown;
  requestId: string;
}

/** The check of early refusals against the transaction (tests). */
export interface EarlyRefusalAudit {
  checked: number;
  mismatches: { userId: number; request: BidRequest; at: number; early: BidAnswer; transaction: unknown }[];
  /** One per early refusal: settles once it is checked. */
  pending: Promise<void>[];
}

export interface BiddingDeps {
  db: Db;
  announcer: Announcer;
  now: Clock;
  log: FastifyBaseLogger;
  /** Where each bid runs: the engine's queue, in a group commit (bid-queue.ts) by the database's bid writer. */
  bids: BidQueue;
  /** The engine's picture of the committed state, for refusing bids early. */
  bidView: BidView;
  /** A bid bought its item (it has ended): settle what is due now. */
  settleDue?: () => void;
}

function errorFrame(errorType: ErrorType, itemId: number, requestId: string): ServerMsgOf<'ERROR'> {
  return { type: MSG.ERROR, error_type: errorType, data: { itemId, requestId } };
}

function answerOf(outcome: Answered, requestId: string): BidAnswer {
  if (outcome.kind === 'repeat') return { type: MSG.BID_CREATED, data: outcome.bid };
  if (outcome.kind === 'max-repeat') return { type: MSG.MAX_BID, data: outcome.frame };
  return errorFrame(outcome.errorType, outcome.itemId, requestId);
}

/**
 * Bids (an arrival stamp, cheap refusals first). The only module that
 * writes bids and moves reserved points between bidders; `judgeBid` (bid-view.ts) decides every
 * verdict, in the transaction and on the early path alike.
 */
export class Bidding {
  constructor(private readonly deps: BiddingDeps) {}

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
      at = this.deps.now();
    } catch (error) {
      this.deps.log.error({ err: error, userId: user.id, itemId: request.itemId }, 'bid failed');
      return Promise.resolve(errorFrame('SYSTEM_ERROR', request.itemId, request.requestId));
    }
    const early = this.deps.bidView.verdict(user.id, request.itemId, request.requestId, request.amount, at);
    if (early.kind === 'remembered') return Promise.resolve(errorFrame(early.errorType, early.itemId, request.requestId));
    if (early.kind === 'refuse') {
      const answer = this.refuseEarly(user.id, request, early.errorType, at);
      if (this.audit) this.auditRefusal(this.audit, user.id, request, at, answer);
      return answer;
    }
    return this.queueBid(user.id, request, at);
  }

  /**
   * One SET_MAX_BID, stamped on arrival and queued with the bids (never refused early: its verdict
   * reads the item's maxima, which only the transaction knows). Taken: MAX_BID to every tab of its
   * owner, then the automatic bids it caused, as any bid.
   */
  setMaxBid(user: Pick<UserRow, 'id'>, request: MaxRequest): Promise<BidAnswer> {
    let at: number;
    try {
      at = this.deps.now();
    } catch (error) {
      this.deps.log.error({ err: error, userId: user.id, itemId: request.itemId }, 'max bid failed');
      return Promise.resolve(errorFrame('SYSTEM_ERROR', request.itemId, request.requestId));
    }
    return this.queueBid(user.id, { itemId: request.itemId, amount: request.max, requestId: request.requestId }, at, 'max');
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
    const dryRun = this.deps.bids.dryRun({ userId, request, at }).then((result) => (result.ok ? result.value : null));
    audit.pending.push(
      Promise.all([dryRun, early]).then(([outcome, answer]) => {
        audit.checked += 1;
        const wanted = outcome === null ? null : outcome.kind === 'accepted' || outcome.kind === 'max' ? { type: MSG.BID_CREATED, accepted: true } : answerOf(outcome, request.requestId);
        if (JSON.stringify(wanted) !== JSON.stringify(answer)) audit.mismatches.push({ userId, request, at, early: answer, transaction: wanted });
      }),
    );
  }

  /** A bid refused by the picture: the stored answer when this requestId was judged before, else the refusal, remembered. */
  private async refuseEarly(userId: number, request: BidRequest, errorType: ErrorType, at: number): Promise<BidAnswer> {
    let stored: BidOutcome | null;
    try {
      stored = await this.storedAnswer(this.deps.db, userId, request.requestId);
    } catch (error) {
      this.deps.log.warn({ err: error, userId }, 'reading a stored bid answer failed; the bid goes to the queue');
      return this.queueBid(userId, request, at);
    }
    if (stored) return answerOf(stored, request.requestId);
    this.deps.bidView.stats.early += 1;
    this.deps.bidView.remember(userId, request.requestId, request.itemId, errorType);
    return errorFrame(errorType, request.itemId, request.requestId);
  }

  private queueBid(userId: number, request: BidRequest, at: number, kind?: 'max'): Promise<BidAnswer> {
    const { bidView, announcer, log } = this.deps;
    bidView.bidQueued(userId, request.itemId, request.requestId);
    return this.deps.bids.write({
      bid: { userId, request, at, ...(kind ? { kind } : {}) },
      after: (result: Written<BidOutcome>): BidAnswer => {
        try {
          if (!result.ok) {
            log.error({ err: result.error, userId, itemId: request.itemId }, 'bid failed');
            return errorFrame(isDatabaseError(result.error) ? 'DATABASE_ERROR' : 'SYSTEM_ERROR', request.itemId, request.requestId);
          }
          const outcome = result.value;
          if (outcome.kind === 'accepted') {
            bidView.bidCommitted(outcome.item, outcome.outbid ? [outcome.bidder, outcome.outbid] : [outcome.bidder]);
            // committed: now everyone hears of it (a sealed bid masked)
            announceBid(announcer, outcome.bid, outcome.bidder.id, outcome.outbid?.id ?? null, outcome.sealed);
            if (outcome.outbid) announceBalance(announcer, outcome.outbid);
            announceBalance(announcer, outcome.bidder);
            this.follow(outcome.follow ?? []);
            if (outcome.boughtNow || outcome.follow?.some((f) => f.kind === 'bid' && f.auto.boughtNow)) this.deps.settleDue?.();
            return null;
          }
          if (outcome.kind === 'max') {
            bidView.userRead(outcome.owner);
            announcer.sendToUser(outcome.owner.id, 'auction', { type: MSG.MAX_BID, data: outcome.frame });
            this.follow(outcome.follow);
            if (outcome.follow.some((f) => f.kind === 'bid' && f.auto.boughtNow)) this.deps.settleDue?.();
            return null;
          }
          if (outcome.kind === 'rejected' && outcome.bidder) bidView.userRead(outcome.bidder);
          return answerOf(outcome, request.requestId);
        } finally {
          bidView.bidDone(userId, request.itemId, request.requestId);
        }
      },
    });
  }

  /** The automatic bids and dropped maxima of a commit: into the picture, then told. */
  private follow(follow: readonly Follow[]): void {
    for (const f of follow) if (f.kind === 'bid') this.deps.bidView.bidCommitted(f.auto.item, f.auto.outbid ? [f.auto.bidder, f.auto.outbid] : [f.auto.bidder]);
    announceFollow(this.deps.announcer, follow);
  }

  /** The first answer to this user's requestId, when one is stored. */
  private async storedAnswer(db: Db, userId: number, requestId: string): Promise<Answered | null> {
    const first = await db.selectFrom('bid_requests').selectAll().where('user_id', '=', userId).where('request_id', '=', requestId).executeTakeFirst();
    if (first) return storedOutcome(db, first);
    const max = await db.selectFrom('max_bid_requests').select('item_id').where('user_id', '=', userId).where('request_id', '=', requestId).executeTakeFirst();
    return max ? maxRepeat(db, userId, max.item_id) : null;
  }
}
