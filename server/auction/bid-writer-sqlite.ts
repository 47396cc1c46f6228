import { CompiledQuery, sql } from 'kysely';
import { isSealed, type ErrorType } from '../../src/protocol/socket';
import { isEligible } from '../../src/protocol/store';
import type { Db } from '../db/open';
import type { ItemRow, UserRow } from '../db/schema';
import { prepared } from '../db/prepared';
import { writeTransaction, type Queryable } from '../db/write';
import { decide, storedOutcome, withReserve, type BidOutcome, type BidWriter, type PendingBid, type Written } from './bid-writer';
import { groupsOf } from './groups';
import { moveReserved } from './reservations';
import { readEligibility, toBid } from './wire';

/**
 * The statements every bid runs, built and compiled once (server/db/prepared.ts): at a few hundred
 * bids a second, building and compiling them took more of the event loop than SQLite took to run them.
 */
const HOT = {
  /** The first answer to this requestId, if any, and the store's settings: one statement. */
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
  /** A sealed item: the bidder's standing bid (their highest). */
  ownBid: prepared((db, a: { itemId: number; userId: number }) =>
    db
      .selectFrom('bids')
      .select((eb) => eb.fn.max('amount').as('own'))
      .where('item_id', '=', a.itemId)
      .where('user_id', '=', a.userId),
  ),
  /** The live item's new leader, amount and end (and a sealed item's bid count). */
  lead: prepared((db, a: { itemId: number; leaderId: number; amount: number; endsAt: number; extensions: number; bidsCount: number }) =>
    db
      .updateTable('items')
      .set({ leader_id: a.leaderId, amount: a.amount, ends_at: a.endsAt, extensions: a.extensions, bids_count: a.bidsCount })
      .where('id', '=', a.itemId)
      .where('state', '=', 'live'),
  ),
};

/** Each bid of a group commit runs under its own savepoint (compiled once: a bid runs two of these). */
const SAVEPOINT = CompiledQuery.raw('savepoint bid');
const RELEASE = CompiledQuery.raw('release bid');
const ROLLBACK_TO = CompiledQuery.raw('rollback to bid');

/** Thrown to roll a dry run back. */
const DRY_RUN = new Error('dry run: roll back');

/**
 * SQLite (one writer, in-process, no round trips): the group's transaction (BEGIN IMMEDIATE), and
 * in it each bid under its savepoint, its rows read one statement each and its writes one
 * statement each. Nothing is locked row by row: the transaction is the only writer.
 */
export class SqliteBidWriter implements BidWriter {
  readonly commits = { transactions: 0, bids: 0 };

  constructor(private readonly db: Db) {}

  async writeGroup(bids: readonly PendingBid[], now: number, options: { dryRun?: boolean } = {}): Promise<Written<BidOutcome>[]> {
    const results: Written<BidOutcome>[] = [];
    if (!options.dryRun) {
      this.commits.transactions += 1;
      this.commits.bids += bids.length;
    }
    try {
      await writeTransaction(this.db, async (trx) => {
        for (const bid of bids) {
          await trx.executeQuery(SAVEPOINT);
          try {
            results.push({ ok: true, value: await placeBid(trx, bid, now) });
          } catch (error) {
            // only this bid's writes are undone (a failure to undo them fails the whole group)
            await trx.executeQuery(ROLLBACK_TO);
            results.push({ ok: false, error });
          }
          await trx.executeQuery(RELEASE);
        }
        if (options.dryRun) throw DRY_RUN;
      });
    } catch (error) {
      if (error === DRY_RUN) return results;
      // nothing was committed: every bid of the group failed
      return bids.map(() => ({ ok: false, error }));
    }
    return results;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The check and the write of one bid, inside the group's transaction, at the bid's arrival time `at` (`now` only dates the stored request). */
async function placeBid(trx: Queryable, { userId, request, at }: PendingBid, now: number): Promise<BidOutcome> {
  const { itemId, requestId, amount } = request;
  const head = await HOT.head.only(trx, { userId, requestId });
  if (head.asked_by !== null) return storedOutcome(trx, { bid_id: head.bid_id, error_type: head.error_type, item_id: head.item_id as number });
  const row = await HOT.item.first(trx, { itemId });
  const bidder = await HOT.user.only(trx, { userId });
  const mayBid = row ? await mayBidOn(trx, row, bidder) : true;
  const ownBid = row && isSealed(row.format) ? ((await HOT.ownBid.first(trx, { itemId, userId }))?.own ?? null) : null;
  const decision = decide({ storeOpen: head.store_open !== 0, row, bidder, mayBid, ownBid }, amount, at);
  if (decision.kind === 'refuse') {
    await HOT.request.run(trx, { userId, requestId, itemId, bidId: null, errorType: decision.errorType, now });
    return { kind: 'rejected', errorType: decision.errorType, itemId, bidder };
  }
  const { item, endsAt, extensions } = decision;
  const { id: bidId } = await HOT.bid.only(trx, { itemId, userId, amount: decision.amount, endsAt, at, extensions });
  await HOT.request.run(trx, { userId, requestId, itemId, bidId, errorType: null, now });
  const lead = await HOT.lead.run(trx, { itemId, leaderId: decision.leaderId, amount: decision.itemAmount, endsAt, extensions, bidsCount: decision.bidsCount });
  if (lead.numAffectedRows !== 1n) throw new Error(`bid on item ${itemId}: the live item was not updated`);
  const outbid = decision.outbidId !== null ? await moveReserved(trx, decision.outbidId, -decision.released) : null;
  const updated = await moveReserved(trx, userId, decision.reserved);
  const bid = withReserve(toBid({ item_id: itemId, item_name: (row as ItemRow).name, amount: decision.amount, username: bidder.username, ends_at: endsAt, created_at: at, extensions }), row as ItemRow, decision);
  return {
    kind: 'accepted',
    bid,
    bidder: updated,
    outbid,
    item: { id: item.id, amount: decision.itemAmount, leaderId: decision.leaderId, endsAt, extensions },
    ...(isSealed(item.format) ? { sealed: { bids: decision.bidsCount } } : {}),
    ...(decision.boughtNow ? { boughtNow: true } : {}),
  };
}

async function mayBidOn(trx: Queryable, item: ItemRow, user: UserRow): Promise<boolean> {
  const rules = readEligibility(item.eligibility);
  if (!rules.ranks?.length && !rules.groups?.length) return true;
  const groups = rules.groups?.length ? await groupsOf(trx, user.id) : [];
  return isEligible(rules, user.rank, groups);
}
