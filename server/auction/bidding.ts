import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { MSG, type Bid, type ErrorType, type ServerMsgOf } from '../../src/protocol/socket';
import { isEligible } from '../../src/protocol/store';
import type { Clock } from '../clock';
import type { Db } from '../db/open';
import type { ItemRow, UserRow } from '../db/schema';
import { isDatabaseError, writeTransaction, type Queryable } from '../db/write';
import { isPostgres } from '../db/dialect';
import { prepared } from '../db/prepared';
import { balancesOf, publish, type OwnBids } from '../cluster/events';
import { announceBalance } from '../points/announce';
import type { Hub } from '../sockets/hub';
import { endAfterBid, itemFacts, judgeBid, UNKNOWN, validAmount, type BidView } from './bid-view';
import { groupsOf } from './groups';
import type { BidLanes, Written } from './lanes';
import { moveReserved } from './reservations';
import { readEligibility, selectBids, toBid } from './wire';

/** A CREATE_BID as the engine takes it: `amount` unchecked (anything but a valid amount is BID_AMOUNT_ERROR). */
export interface BidRequest {
  itemId: number;
  amount: unknown;
  requestId: string;
}

/** What a bid gets back on its own connection: ERROR, the echoed BID_CREATED of a repeated request, or nothing (BID_CREATED went to everyone). */
export type BidAnswer = ServerMsgOf<'ERROR'> | ServerMsgOf<'BID_CREATED'> | null;

/** The check of early refusals against the transaction (tests). */
export interface EarlyRefusalAudit {
  checked: number;
  mismatches: { userId: number; request: BidRequest; at: number; early: BidAnswer; transaction: unknown }[];
  /** One per early refusal: settles once it is checked. */
  pending: Promise<void>[];
}

export interface BiddingDeps {
  db: Db;
  hub: Hub;
  now: Clock;
  log: FastifyBaseLogger;
  /** Where each bid's job runs: the engine's one queue, or (clustered) a lane per item (lanes.ts). */
  lanes: BidLanes;
  /** The engine's picture of the committed state, for refusing bids early. */
  bidView: BidView;
  /** Clustered: the bids being committed here, so telling their events needs no read. */
  ownBids?: OwnBids;
}

type BidOutcome =
  | { kind: 'rejected'; errorType: ErrorType; itemId: number; bidder?: UserRow }
  | { kind: 'repeat'; bid: Bid }
  | { kind: 'accepted'; bid: Bid; bidder: UserRow; outbid: UserRow | null; item: { id: number; amount: number; leaderId: number; endsAt: number; extensions: number } };

/**
 * The statements every bid runs, built and compiled once (server/db/prepared.ts): at a few hundred
 * bids a second, building and compiling them took more of the event loop than SQLite took to run them.
 */
const HOT = {
  /** The first answer to this requestId, if any, and the store's settings: one statement (one round trip on PostgreSQL). */
  head: prepared((db, a: { userId: number; requestId: string }) =>
    db
      .selectFrom(sql<{ one: number }>`(select 1 as one)`.as('one'))
      .leftJoin('kingdom_settings as s', (join) => join.on('s.id', '=', 1))
      .leftJoin('bid_requests as r', (join) => join.on('r.user_id', '=', a.userId).on('r.request_id', '=', a.requestId))
      .select(['s.store_open', 'r.user_id as asked_by', 'r.bid_id', 'r.error_type', 'r.item_id']),
  ),
  item: prepared((db, a: { itemId: number }) => db.selectFrom('items').selectAll().where('id', '=', a.itemId)),
  user: prepared((db, a: { userId: number }) => db.selectFrom('users').selectAll().where('id', '=', a.userId)),
  /** A request's answer, remembered: its bid, or its refusal. */
  request: prepared((db, a: { userId: number; requestId: string; itemId: number; bidId: number | null; errorType: ErrorType | null; now: number }) =>
    db
      .insertInto('bid_requests')
      .values({ user_id: a.userId, request_id: a.requestId, item_id: a.itemId, bid_id: a.bidId, error_type: a.errorType, created_at: a.now }),
  ),
  bid: prepared((db, a: { itemId: number; userId: number; amount: number; endsAt: number; at: number; extensions: number }) =>
    db
      .insertInto('bids')
      .values({ item_id: a.itemId, user_id: a.userId, amount: a.amount, ends_at: a.endsAt, created_at: a.at, extensions: a.extensions })
      .returning('id'),
  ),
  /** The live item's new leader, amount and end. */
  lead: prepared((db, a: { itemId: number; leaderId: number; amount: number; endsAt: number; extensions: number }) =>
    db
      .updateTable('items')
      .set({ leader_id: a.leaderId, amount: a.amount, ends_at: a.endsAt, extensions: a.extensions })
      .where('id', '=', a.itemId)
      .where('state', '=', 'live'),
  ),
};

function errorFrame(errorType: ErrorType, itemId: number, requestId: string): ServerMsgOf<'ERROR'> {
  return { type: MSG.ERROR, error_type: errorType, data: { itemId, requestId } };
}

function answerOf(outcome: Exclude<BidOutcome, { kind: 'accepted' }>, requestId: string): BidAnswer {
  if (outcome.kind === 'repeat') return { type: MSG.BID_CREATED, data: outcome.bid };
  return errorFrame(outcome.errorType, outcome.itemId, requestId);
}

/**
 * Bids (DESIGN.md, "Auction rules"; issue 10: arrival stamp, cheap refusals). The only module that
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
    const dryRun = this.deps.lanes.run(request.itemId, async () => {
      let outcome: BidOutcome | null = null;
      await writeTransaction(this.deps.db, async (trx) => {
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
        const wanted = outcome === null ? null : outcome.kind === 'accepted' ? { type: MSG.BID_CREATED, accepted: true } : answerOf(outcome, request.requestId);
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

  private queueBid(userId: number, request: BidRequest, at: number): Promise<BidAnswer> {
    const { bidView, hub, log } = this.deps;
    bidView.bidQueued(userId, request.itemId, request.requestId);
    return this.deps.lanes.write(request.itemId, {
      write: (trx) => this.placeBid(trx, userId, request, at, this.deps.now()),
      after: (result: Written<BidOutcome>): BidAnswer => {
        try {
          if (!result.ok) {
            log.error({ err: result.error, userId, itemId: request.itemId }, 'bid failed');
            return errorFrame(isDatabaseError(result.error) ? 'DATABASE_ERROR' : 'SYSTEM_ERROR', request.itemId, request.requestId);
          }
          const outcome = result.value;
          if (outcome.kind === 'accepted') {
            bidView.bidCommitted(outcome.item, outcome.outbid ? [outcome.bidder, outcome.outbid] : [outcome.bidder]);
            // committed: now everyone hears of it
            hub.broadcast('auction', { type: MSG.BID_CREATED, data: outcome.bid });
            if (outcome.outbid) {
              hub.sendToUser(outcome.outbid.id, 'auction', { type: MSG.OUTBID, data: outcome.bid });
              announceBalance(hub, outcome.outbid);
            }
            announceBalance(hub, outcome.bidder);
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

  /** The first answer to this user's requestId, when one is stored. */
  private async storedAnswer(db: Queryable, userId: number, requestId: string): Promise<Exclude<BidOutcome, { kind: 'accepted' }> | null> {
    const first = await db.selectFrom('bid_requests').selectAll().where('user_id', '=', userId).where('request_id', '=', requestId).executeTakeFirst();
    return first ? this.answerOfRequest(db, first) : null;
  }

  /** The answer a stored request was given: its refusal, or its bid (read back). */
  private async answerOfRequest(db: Queryable, first: { bid_id: number | null; error_type: string | null; item_id: number }): Promise<Exclude<BidOutcome, { kind: 'accepted' }>> {
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
    // PostgreSQL: the rows are locked first, and read by the same statements
    const locked = isPostgres(trx) ? await lockRows(trx, itemId, userId) : null;
    // the first answer to this requestId, if any, and the store's settings: one statement (one round trip on PostgreSQL)
    const head = await HOT.head.only(trx, { userId, requestId });
    if (head.asked_by !== null) return this.answerOfRequest(trx, { bid_id: head.bid_id, error_type: head.error_type, item_id: head.item_id as number });
    const settings = head.store_open === null ? undefined : { store_open: head.store_open };
    const row = locked ? locked.item : await HOT.item.first(trx, { itemId });
    const bidder = locked ? locked.bidder : await HOT.user.only(trx, { userId });
    const item = row ? itemFacts(row) : null;
    const mayBid = row ? await mayBidOn(trx, row, bidder) : true;
    const verdict = judgeBid({ storeOpen: !(settings && settings.store_open === 0), item, endMayMove: false, mayBid, bidder }, amount, at);
    if (verdict === UNKNOWN) throw new Error('a bid was judged without all its facts');
    if (verdict !== null) {
      await HOT.request.run(trx, { userId, requestId, itemId, bidId: null, errorType: verdict, now });
      return { kind: 'rejected', errorType: verdict, itemId, bidder };
    }
    // (accepted: judgeBid found the item and a valid amount)
    if (!row || !item || !validAmount(amount)) throw new Error('an accepted bid without its item or amount');

    const ownLead = item.leaderId === bidder.id ? item.amount : 0;
    // soft close: an accepted bid in the last extendWindow seconds moves the end, a limited number of times
    const { endsAt, extensions } = endAfterBid(item, at);
    const written = locked
      ? await writeBidPostgres(trx, {
          itemId: item.id,
          bidderId: bidder.id,
          amount,
          endsAt,
          extensions,
          at,
          requestId,
          now,
          outbidId: item.leaderId !== null && item.leaderId !== bidder.id ? item.leaderId : null,
          released: item.amount,
          reserved: amount - ownLead,
        })
      : await writeBidOneByOne(trx, item, bidder, { amount, endsAt, extensions, at, requestId, now, ownLead });
    const { bidId, outbid, updated } = written;
    const bid = toBid({ item_id: item.id, item_name: row.name, amount, username: bidder.username, ends_at: endsAt, created_at: at, extensions });
    // the other processes hear of it when it commits, in commit order (nothing on SQLite)
    this.deps.ownBids?.add(bidId, { bid, userId: bidder.id, itemId: item.id });
    await publish(trx, { k: 'bid', bid: bidId, outbid: outbid?.id ?? null, u: balancesOf(outbid ? [outbid, updated] : [updated]) });
    return { kind: 'accepted', bid, bidder: updated, outbid, item: { id: item.id, amount, leaderId: bidder.id, endsAt, extensions } };
  }
}

/** What an accepted bid wrote: the bid's id, and the bidder's and the outbid leader's rows as they are now. */
interface BidWritten {
  bidId: number;
  updated: UserRow;
  outbid: UserRow | null;
}

/**
 * SQLite: an accepted bid's writes, one statement each (they cost no round trip there): the bid, its
 * request, the item's new leader and amount, the outbid leader's reservation released, the
 * bidder's reserved (a leader raising their own bid reserves only the difference).
 */
async function writeBidOneByOne(
  trx: Queryable,
  item: { id: number; leaderId: number | null; amount: number },
  bidder: UserRow,
  w: { amount: number; endsAt: number; extensions: number; at: number; requestId: string; now: number; ownLead: number },
): Promise<BidWritten> {
  const { id: bidId } = await HOT.bid.only(trx, { itemId: item.id, userId: bidder.id, amount: w.amount, endsAt: w.endsAt, at: w.at, extensions: w.extensions });
  await HOT.request.run(trx, { userId: bidder.id, requestId: w.requestId, itemId: item.id, bidId, errorType: null, now: w.now });
  const lead = await HOT.lead.run(trx, { itemId: item.id, leaderId: bidder.id, amount: w.amount, endsAt: w.endsAt, extensions: w.extensions });
  if (lead.numAffectedRows !== 1n) throw new Error(`bid on item ${item.id}: the live item was not updated`);
  const outbid = item.leaderId !== null && item.leaderId !== bidder.id ? await moveReserved(trx, item.leaderId, -item.amount) : null;
  const updated = await moveReserved(trx, bidder.id, w.amount - w.ownLead);
  return { bidId, updated, outbid };
}

/**
 * PostgreSQL: the same writes in one statement (data-modifying WITH queries), so one round trip
 * instead of five: each runs exactly once, on rows this transaction has locked (lockRows), and the
 * two users updated are different rows (`outbidId` is never the bidder). A live item that is not
 * updated fails the bid, as on SQLite.
 */
async function writeBidPostgres(
  trx: Queryable,
  w: {
    itemId: number;
    bidderId: number;
    amount: number;
    endsAt: number;
    extensions: number;
    at: number;
    requestId: string;
    now: number;
    /** The leader this bid outbids, whose reservation (`released`) is released; null when there is none or it is the bidder. */
    outbidId: number | null;
    released: number;
    /** What the bidder's reserved grows by. */
    reserved: number;
  },
): Promise<BidWritten> {
  const { rows } = await sql<UserRow & { who: 'bidder' | 'outbid'; bid_id: number; items_updated: number }>`
    with b as (
      insert into bids (item_id, user_id, amount, ends_at, created_at, extensions)
      values (${w.itemId}, ${w.bidderId}, ${w.amount}, ${w.endsAt}, ${w.at}, ${w.extensions}) returning id
    ), r as (
      insert into bid_requests (user_id, request_id, item_id, bid_id, error_type, created_at)
      select ${w.bidderId}, ${w.requestId}, ${w.itemId}, b.id, null, ${w.now} from b
    ), i as (
      update items set leader_id = ${w.bidderId}, amount = ${w.amount}, ends_at = ${w.endsAt}, extensions = ${w.extensions}
      where id = ${w.itemId} and state = 'live' returning id
    ), o as (
      update users set reserved = reserved - ${w.released} where id = ${w.outbidId} returning *
    ), u as (
      update users set reserved = reserved + ${w.reserved} where id = ${w.bidderId} returning *
    )
    select 'bidder' as who, (select id from b) as bid_id, (select count(*) from i) as items_updated, u.* from u
    union all
    select 'outbid', (select id from b), (select count(*) from i), o.* from o
  `.execute(trx);
  const user = (who: 'bidder' | 'outbid'): UserRow | null => {
    const row = rows.find((r) => r.who === who);
    if (!row) return null;
    const { who: _who, bid_id: _bid, items_updated: _items, ...rest } = row;
    return rest;
  };
  const updated = user('bidder');
  const outbid = user('outbid');
  if (!updated || rows[0].items_updated !== 1 || (w.outbidId !== null && !outbid)) throw new Error(`bid on item ${w.itemId}: the item or a user was not updated`);
  return { bidId: rows[0].bid_id, updated, outbid };
}

/**
 * PostgreSQL, where bids run side by side (a shared write lock, server/db/write.ts): the bid's rows
 * are locked before anything is read. The item first, so bids on one item take turns (across
 * processes too) and its leader cannot change under this bid; then the bidder and the leader it may
 * outbid, in id order (two bids that outbid each other's bidders on two items cannot deadlock), so
 * one player's points are never spent twice by bids on different items.
 */
async function lockRows(trx: Queryable, itemId: number, userId: number): Promise<{ item: ItemRow | undefined; bidder: UserRow }> {
  const item = await trx.selectFrom('items').selectAll().where('id', '=', itemId).forUpdate().executeTakeFirst();
  const ids = [...new Set([userId, item?.leader_id ?? userId])].sort((a, b) => a - b);
  const users = await trx.selectFrom('users').selectAll().where('id', 'in', ids).orderBy('id').forUpdate().execute();
  const bidder = users.find((u) => u.id === userId);
  if (!bidder) throw new Error(`no account ${userId}`);
  return { item, bidder };
}

async function mayBidOn(trx: Queryable, item: ItemRow, user: UserRow): Promise<boolean> {
  const rules = readEligibility(item.eligibility);
  if (!rules.ranks?.length && !rules.groups?.length) return true;
  const groups = rules.groups?.length ? await groupsOf(trx, user.id) : [];
  return isEligible(rules, user.rank, groups);
}
