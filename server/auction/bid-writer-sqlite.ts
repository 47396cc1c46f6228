import { CompiledQuery, sql } from 'kysely';
import { isSealed, type ErrorType } from '../../src/protocol/socket';
import { isEligible } from '../../src/protocol/store';
import type { Db } from '../db/open';
import type { ItemRow, UserRow } from '../db/schema';
import { prepared } from '../db/prepared';
import { writeTransaction, type Queryable } from '../db/write';
import { decide, maxRepeat, storedOutcome, withReserve, type BidOutcome, type BidWriter, type Decision, type PendingBid, type Written } from './bid-writer';
import { answerMaxima, judgeMax, type ProxyWrites } from './max-bids';
import { emit } from '../events/events';
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
      .leftJoin('max_bid_requests as mr', (join) => join.on('mr.user_id', '=', a.userId).on('mr.request_id', '=', a.requestId))
      .select(['s.store_open', 'r.user_id as asked_by', 'r.bid_id', 'r.error_type', 'r.item_id', 'mr.item_id as max_item_id']),
  ),
  item: prepared((db, a: { itemId: number }) => db.selectFrom('items').selectAll().where('id', '=', a.itemId)),
  user: prepared((db, a: { userId: number }) => db.selectFrom('users').selectAll().where('id', '=', a.userId)),
  /** A request's answer, remembered: its bid, or its refusal. */
  request: prepared((db, a: { userId: number; requestId: string; itemId: number; bidId: number | null; errorType: ErrorType | null; now: number }) =>
    db
      .insertInto('bid_requests')
      .values({ user_id: a.userId, request_id: a.requestId, item_id: a.itemId, bid_id: a.bidId, error_type: a.errorType, created_at: a.now }),
  ),
  bid: prepared((db, a: { itemId: number; userId: number; amount: number; endsAt: number; at: number; extensions: number; auto: number }) =>
    db
      .insertInto('bids')
      .values({ item_id: a.itemId, user_id: a.userId, amount: a.amount, ends_at: a.endsAt, created_at: a.at, extensions: a.extensions, auto: a.auto })
      .returning('id'),
  ),
  /** The item's maxima that can still bid, in set order. */
  maxima: prepared((db, a: { itemId: number }) =>
    db.selectFrom('max_bids').select(['user_id as userId', 'max', 'seq']).where('item_id', '=', a.itemId).where('exhausted_at', 'is', null).orderBy('seq'),
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

/** The check and the write of one bid (or SET_MAX_BID), inside the group's transaction, at the bid's arrival time `at` (`now` only dates the stored request). */
async function placeBid(trx: Queryable, pending: PendingBid, now: number): Promise<BidOutcome> {
  const { userId, request, at } = pending;
  const { itemId, requestId, amount } = request;
  const head = await HOT.head.only(trx, { userId, requestId });
  if (head.asked_by !== null) return storedOutcome(trx, { bid_id: head.bid_id, error_type: head.error_type, item_id: head.item_id as number });
  if (head.max_item_id !== null) return maxRepeat(trx, userId, head.max_item_id);
  const row = await HOT.item.first(trx, { itemId });
  const bidder = await HOT.user.only(trx, { userId });
  const mayBid = row ? await mayBidOn(trx, row, bidder) : true;
  const storeOpen = head.store_open !== 0;
  if (pending.kind === 'max') return placeMax(trx, { userId, requestId, itemId, max: amount, at, now }, { storeOpen, row, bidder, mayBid });
  const ownBid = row && isSealed(row.format) ? ((await HOT.ownBid.first(trx, { itemId, userId }))?.own ?? null) : null;
  const decision = decide({ storeOpen, row, bidder, mayBid, ownBid }, amount, at);
  if (decision.kind === 'refuse') {
    await HOT.request.run(trx, { userId, requestId, itemId, bidId: null, errorType: decision.errorType, now });
    return { kind: 'rejected', errorType: decision.errorType, itemId, bidder };
  }
  const written = await writeBid(trx, row as ItemRow, bidder, decision, at, 0);
  await HOT.request.run(trx, { userId, requestId, itemId, bidId: written.bidId, errorType: null, now });
  const { item } = decision;
  // the standing maxima answer the new lead in this transaction
  const { follow } = decision.boughtNow || isSealed(item.format) ? { follow: [] } : await answerMaxima(proxyWrites(trx), written.row, storeOpen, at);
  return {
    kind: 'accepted',
    bid: written.bid,
    bidder: written.bidder,
    outbid: written.outbid,
    item: written.item,
    ...(isSealed(item.format) ? { sealed: { bids: decision.bidsCount } } : {}),
    ...(decision.boughtNow ? { boughtNow: true } : {}),
    ...(follow.length ? { follow } : {}),
  };
}

/** An accepted bid's writes: the bid, the item's lead, the reservations; the rows as they are after. */
async function writeBid(trx: Queryable, row: ItemRow, bidder: UserRow, decision: Extract<Decision, { kind: 'accept' }>, at: number, auto: 0 | 1) {
  const itemId = row.id;
  const { endsAt, extensions } = decision;
  const { id: bidId } = await HOT.bid.only(trx, { itemId, userId: bidder.id, amount: decision.amount, endsAt, at, extensions, auto });
  const lead = await HOT.lead.run(trx, { itemId, leaderId: decision.leaderId, amount: decision.itemAmount, endsAt, extensions, bidsCount: decision.bidsCount });
  if (lead.numAffectedRows !== 1n) throw new Error(`bid on item ${itemId}: the live item was not updated`);
  const outbid = decision.outbidId !== null ? await moveReserved(trx, decision.outbidId, -decision.released) : null;
  const updated = await moveReserved(trx, bidder.id, decision.reserved);
  const bid = withReserve(toBid({ item_id: itemId, item_name: row.name, amount: decision.amount, username: bidder.username, ends_at: endsAt, created_at: at, extensions, auto }), row, decision);
  const after: ItemRow = { ...row, leader_id: decision.leaderId, amount: decision.itemAmount, ends_at: endsAt, extensions, bids_count: decision.bidsCount };
  return { bidId, bid, bidder: updated, outbid, row: after, item: { id: itemId, amount: decision.itemAmount, leaderId: decision.leaderId, endsAt, extensions }, boughtNow: decision.boughtNow };
}

/** How the maxima are read and written here: one statement each, in the group's transaction. */
function proxyWrites(trx: Queryable): ProxyWrites {
  return {
    maxima: (itemId) => HOT.maxima.all(trx, { itemId }),
    user: (userId) => HOT.user.only(trx, { userId }),
    mayBid: (row, user) => mayBidOn(trx, row, user),
    writeAuto: (row, holder, decision, at) => writeBid(trx, row, holder, decision, at, 1),
    drop: async (itemId, userId) => {
      await trx.deleteFrom('max_bids').where('item_id', '=', itemId).where('user_id', '=', userId).execute();
    },
    exhaust: async (itemId, userIds, at) => {
      await trx.updateTable('max_bids').set({ exhausted_at: at }).where('item_id', '=', itemId).where('user_id', 'in', userIds).execute();
    },
    event: (event, at) => emit(trx, event.kind, event.data, null, at),
  };
}

/** SET_MAX_BID: judged like a bid (`judgeMax`), stored (0 removes it), then the item's maxima answer at once. */
async function placeMax(
  trx: Queryable,
  { userId, requestId, itemId, max, at, now }: { userId: number; requestId: string; itemId: number; max: unknown; at: number; now: number },
  facts: { storeOpen: boolean; row: ItemRow | undefined; bidder: UserRow; mayBid: boolean },
): Promise<BidOutcome> {
  const verdict = judgeMax(facts, max, at);
  if (verdict !== null) {
    await HOT.request.run(trx, { userId, requestId, itemId, bidId: null, errorType: verdict, now });
    return { kind: 'rejected', errorType: verdict, itemId, bidder: facts.bidder };
  }
  const row = facts.row as ItemRow;
  const value = max as number;
  await trx.insertInto('max_bid_requests').values({ user_id: userId, request_id: requestId, item_id: itemId, created_at: now }).execute();
  if (value === 0) {
    await trx.deleteFrom('max_bids').where('item_id', '=', itemId).where('user_id', '=', userId).execute();
    return { kind: 'max', frame: { itemId, max: 0, leading: row.leader_id === userId }, owner: facts.bidder, follow: [] };
  }
  const { seq } = await trx.selectFrom('max_bids').select((eb) => eb.fn.max('seq').as('seq')).where('item_id', '=', itemId).executeTakeFirstOrThrow();
  await trx
    .insertInto('max_bids')
    .values({ item_id: itemId, user_id: userId, max: value, seq: Number(seq ?? 0) + 1, set_at: at, exhausted_at: null })
    .onConflict((oc) => oc.columns(['item_id', 'user_id']).doUpdateSet({ max: value, seq: Number(seq ?? 0) + 1, set_at: at, exhausted_at: null }))
    .execute();
  const answered = await answerMaxima(proxyWrites(trx), row, facts.storeOpen, at);
  const owner = await HOT.user.only(trx, { userId });
  const own = await trx.selectFrom('max_bids').select('max').where('item_id', '=', itemId).where('user_id', '=', userId).executeTakeFirst();
  return { kind: 'max', frame: { itemId, max: own?.max ?? 0, leading: answered.row.leader_id === userId }, owner, follow: answered.follow };
}

async function mayBidOn(trx: Queryable, item: ItemRow, user: UserRow): Promise<boolean> {
  const rules = readEligibility(item.eligibility);
  if (!rules.ranks?.length && !rules.groups?.length) return true;
  const groups = rules.groups?.length ? await groupsOf(trx, user.id) : [];
  return isEligible(rules, user.rank, groups);
}
