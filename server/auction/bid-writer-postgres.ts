import pg from 'pg';
import { isSealed, type ErrorType } from '../../src/protocol/socket';
import { isEligible } from '../../src/protocol/store';
import { balancesOf, bidsNotifications, type BidEvent, type OwnBids } from '../cluster/events';
import type { Db } from '../db/open';
import { poolOf } from '../db/postgres';
import type { ItemRow, UserRow } from '../db/schema';
import { WRITE_LOCK_KEY } from '../db/write';
import { decide, storedOutcome, withReserve, type BidOutcome, type BidWriter, type PendingBid, type Written } from './bid-writer';
import { readEligibility, toBid } from './wire';

/**
 * The group's opening, in one round trip (simple protocol, several statements): BEGIN with the
 * shared write lock (server/db/write.ts), the group's items locked in id order (bids on one item
 * take turns, across processes too), then the bidders and the leaders they may outbid locked in id
 * order (one player's points are never spent twice by bids in two processes), with the store's
 * setting and, per bidder, the answers already given to the group's requestIds. The ids are whole
 * numbers written into the text; the requestIds are quoted by pg's escapeLiteral (the protocol
 * refuses a NUL in them, and a group never carries one: see writeGroup).
 */
function openingOf(client: pg.PoolClient, itemIds: readonly number[], userIds: readonly number[], requestIds: readonly string[]): string {
  for (const id of [...itemIds, ...userIds]) if (!Number.isSafeInteger(id)) throw new Error(`not an id: ${id}`);
  const items = `array[${itemIds.join(',')}]::bigint[]`;
  const asked = `array[${requestIds.map((r) => client.escapeLiteral(r)).join(',')}]::text[]`;
  return `begin; select pg_advisory_xact_lock_shared(${WRITE_LOCK_KEY});
    select * from items where id = any(${items}) order by id for update;
    select u.*,
        (select s.store_open from kingdom_settings s where s.id = 1) as group_store_open,
        (select coalesce(json_agg(json_build_array(r.request_id, r.bid_id, r.error_type, r.item_id)), '[]')
           from bid_requests r where r.user_id = u.id and r.request_id = any(${asked})) as group_asked
      from users u
      where u.id = any(array[${userIds.join(',')}]::bigint[]) or u.id in (select i.leader_id from items i where i.id = any(${items}))
      order by u.id for update of u`;
}

/**
 * The bids' statements, as pg named queries: each is parsed and planned once per connection and
 * then only bound and run (pg keeps the prepared statement on the connection by its name).
 */
const Q = {
  /** A sealed item: the bidder's standing bid (their highest). */
  ownBid: { name: 'bid_own_sealed', text: 'select max(amount)::int as own from bids where item_id = $1 and user_id = $2' },
  groups: { name: 'bid_groups_of', text: 'select g.name from user_groups ug join groups g on g.id = ug.group_id where ug.user_id = $1' },
  /** A refusal, remembered under its requestId. */
  refuse: {
    name: 'bid_refuse',
    text: 'insert into bid_requests (user_id, request_id, item_id, bid_id, error_type, created_at) values ($1, $2, $3, null, $4, $5)',
  },
  /**
   * An accepted bid's writes in one statement (data-modifying WITH queries): the bid, its request,
   * the item's new leader, amount and end (a sealed bid below the highest leaves the leader), the outbid leader's reservation released, the bidder's
   * grown. Each runs exactly once, on rows the group has locked; the two users are different rows
   * (the outbid leader is never the bidder). Answers both users' rows as they are now.
   */
  accept: {
    name: 'bid_accept',
    text: `with b as (
        insert into bids (item_id, user_id, amount, ends_at, created_at, extensions) values ($1, $2, $3, $4, $5, $6) returning id
      ), r as (
        insert into bid_requests (user_id, request_id, item_id, bid_id, error_type, created_at) select $2, $7, $1, b.id, null, $8 from b
      ), i as (
        update items set leader_id = $12, amount = $13, ends_at = $4, extensions = $6, bids_count = $14 where id = $1 and state = 'live' returning id
      ), o as (
        update users set reserved = reserved - $10 where id = $9 returning *
      ), u as (
        update users set reserved = reserved + $11 where id = $2 returning *
      )
      select 'bidder' as who, (select id from b) as bid_id, (select count(*) from i) as items_updated, u.* from u
      union all
      select 'outbid', (select id from b), (select count(*) from i), o.* from o`,
  },
};

/** What the users statement adds to each row. */
type LockedUser = UserRow & { group_store_open: number | null; group_asked: string };
type Asked = { bid_id: number | null; error_type: string | null; item_id: number };

/** The answer to a requestId already given: stored before the group, or given by a bid of this group. */
type Answered = { stored: Asked } | { outcome: Exclude<BidOutcome, { kind: 'accepted' }> };

const key = (userId: number, requestId: string) => `${userId}\n${requestId}`;

function userOf(row: LockedUser | (UserRow & { who: string; bid_id: number; items_updated: number })): UserRow {
  const { group_store_open: _s, group_asked: _a, who: _w, bid_id: _b, items_updated: _i, ...user } = row as LockedUser & { who?: string; bid_id?: number; items_updated?: number };
  return user;
}

/**
 * PostgreSQL (several processes write): group commit, as SQLite has it, on one pooled connection.
 * A group's round trips: the opening (BEGIN, the write lock, the items and the users locked and
 * read: openingOf), then per bid two (its savepoint, with the previous one's release; its write:
 * the one-statement accept, or the refusal remembered), and the COMMIT with the last release and
 * the group's NOTIFY. A group of one bid needs no savepoint (its failure undoes the whole
 * transaction): 3 round trips, as many as a plain BEGIN, INSERT, COMMIT. So a bid costs 2 round
 * trips plus 2 per group (a repeated requestId whose bid is read back, or an item limited to groups,
 * one more). Every row the group writes is locked before anything is judged, items then users,
 * each in id order, so two groups in two processes take turns and never deadlock; within the group
 * each bid is judged in order on the rows as the bids before it left them (kept here, from what
 * each write returns).
 */
export class PostgresBidWriter implements BidWriter {
  readonly commits = { transactions: 0, bids: 0 };
  private readonly pool: pg.Pool;

  constructor(
    private readonly db: Db,
    /** The bids being committed here, so this process tells its own events without reading them. */
    private readonly ownBids?: OwnBids,
  ) {
    this.pool = poolOf(db);
  }

  async writeGroup(bids: readonly PendingBid[], now: number, options: { dryRun?: boolean } = {}): Promise<Written<BidOutcome>[]> {
    if (!options.dryRun) {
      this.commits.transactions += 1;
      this.commits.bids += bids.length;
    }
    // a NUL cannot be written into the opening's text: such a bid fails alone (the protocol refuses it before it gets here)
    if (bids.some((b) => b.request.requestId.includes('\u0000'))) {
      const clean = bids.filter((b) => !b.request.requestId.includes('\u0000'));
      const written = clean.length ? await this.writeGroup(clean, now, options) : [];
      return bids.map((b) => (b.request.requestId.includes('\u0000') ? { ok: false, error: new Error('a requestId with a NUL') } : (written.shift() as Written<BidOutcome>)));
    }
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      return bids.map(() => ({ ok: false, error }));
    }
    let broken: Error | undefined;
    try {
      try {
        const { results, events, savepoint, failedAlone } = await this.judgeAndWrite(client, bids, now, !options.dryRun);
        const tail = options.dryRun || failedAlone ? ['rollback'] : [...(savepoint ? ['release bid'] : []), ...bidsNotifications(events), 'commit'];
        await client.query(tail.join('; '));
        return results;
      } catch (error) {
        await client.query('rollback').catch((rollbackError: unknown) => {
          broken = rollbackError as Error;
        });
        throw error;
      }
    } catch (error) {
      // nothing was committed: every bid of the group failed
      return bids.map(() => ({ ok: false, error }));
    } finally {
      client.release(broken);
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private async judgeAndWrite(client: pg.PoolClient, bids: readonly PendingBid[], now: number, commit: boolean) {
    const itemIds = [...new Set(bids.map((b) => b.request.itemId))];
    const opening = openingOf(client, itemIds, [...new Set(bids.map((b) => b.userId))], [...new Set(bids.map((b) => b.request.requestId))]);
    // the answers of BEGIN, the lock, the items, the users
    const answers = (await client.query(opening)) as unknown as pg.QueryResult[];
    const items = new Map((answers[2].rows as ItemRow[]).map((r) => [r.id, r]));
    const locked = answers[3].rows as LockedUser[];
    const users = new Map(locked.map((u) => [u.id, userOf(u)]));
    const answered = new Map<string, Answered>();
    for (const u of locked) {
      for (const [requestId, bidId, errorType, itemId] of JSON.parse(u.group_asked) as [string, number | null, string | null, number][]) {
        answered.set(key(u.id, requestId), { stored: { bid_id: bidId, error_type: errorType, item_id: itemId } });
      }
    }
    // (a group always has a bidder, so the setting comes with its row; null: no settings row, the store is open)
    const storeOpen = locked.length === 0 || locked[0].group_store_open !== 0;

    const results: Written<BidOutcome>[] = [];
    const events: BidEvent[] = [];
    // one bid alone needs no savepoint: when its write fails, the group is rolled back whole
    const alone = bids.length === 1;
    let savepoint = false;
    let failedAlone = false;
    for (const bid of bids) {
      const { userId, request, at } = bid;
      const { itemId, requestId, amount } = request;
      const before = answered.get(key(userId, requestId));
      if (before) {
        try {
          results.push({ ok: true, value: 'outcome' in before ? before.outcome : await storedOutcome(this.db, before.stored) });
        } catch (error) {
          results.push({ ok: false, error });
        }
        continue;
      }
      let decision: ReturnType<typeof decide>;
      const bidder = users.get(userId);
      const row = items.get(itemId);
      try {
        if (!bidder) throw new Error(`no account ${userId}`);
        const ownBid = row && isSealed(row.format) ? ((await client.query<{ own: number | null }>({ ...Q.ownBid, values: [itemId, userId] })).rows[0]?.own ?? null) : null;
        decision = decide({ storeOpen, row, bidder, mayBid: row ? await this.mayBidOn(client, row, bidder) : true, ownBid }, amount, at);
      } catch (error) {
        results.push({ ok: false, error });
        continue;
      }
      if (!alone) {
        await client.query(savepoint ? 'release bid; savepoint bid' : 'savepoint bid');
        savepoint = true;
      }
      try {
        if (decision.kind === 'refuse') {
          await client.query({ ...Q.refuse, values: [userId, requestId, itemId, decision.errorType, now] });
          const outcome = { kind: 'rejected' as const, errorType: decision.errorType as ErrorType, itemId };
          answered.set(key(userId, requestId), { outcome });
          results.push({ ok: true, value: { ...outcome, bidder } });
          continue;
        }
        const { endsAt, extensions } = decision;
        const { rows } = await client.query<UserRow & { who: 'bidder' | 'outbid'; bid_id: number; items_updated: number }>({
          ...Q.accept,
          values: [itemId, userId, decision.amount, endsAt, at, extensions, requestId, now, decision.outbidId, decision.released, decision.reserved, decision.leaderId, decision.itemAmount, decision.bidsCount],
        });
        const updatedRow = rows.find((r) => r.who === 'bidder');
        const outbidRow = rows.find((r) => r.who === 'outbid');
        if (!updatedRow || Number(rows[0].items_updated) !== 1 || (decision.outbidId !== null && !outbidRow)) {
          throw new Error(`bid on item ${itemId}: the item or a user was not updated`);
        }
        const updated = userOf(updatedRow);
        const outbid = outbidRow ? userOf(outbidRow) : null;
        const bidId = rows[0].bid_id;
        // the bids after this one are judged on the rows as it left them
        items.set(itemId, { ...(row as ItemRow), leader_id: decision.leaderId, amount: decision.itemAmount, ends_at: endsAt, extensions, bids_count: decision.bidsCount });
        users.set(userId, updated);
        if (outbid) users.set(outbid.id, outbid);
        const told = withReserve(toBid({ item_id: itemId, item_name: (row as ItemRow).name, amount: decision.amount, username: bidder.username, ends_at: endsAt, created_at: at, extensions }), row as ItemRow, decision);
        answered.set(key(userId, requestId), { outcome: { kind: 'repeat', bid: told } });
        if (commit) this.ownBids?.add(bidId, { bid: told, userId, itemId });
        events.push({ bid: bidId, outbid: outbid?.id ?? null, u: balancesOf(outbid ? [outbid, updated] : [updated]), ...(isSealed(decision.item.format) ? { s: decision.bidsCount } : {}), ...(told.reserveMet === undefined ? {} : { r: told.reserveMet }) });
        results.push({
          ok: true,
          value: {
            kind: 'accepted',
            bid: told,
            bidder: updated,
            outbid,
            item: { id: itemId, amount: decision.itemAmount, leaderId: decision.leaderId, endsAt, extensions },
            ...(isSealed(decision.item.format) ? { sealed: { bids: decision.bidsCount } } : {}),
            ...(decision.boughtNow ? { boughtNow: true } : {}),
          },
        });
      } catch (error) {
        // only this bid's writes are undone (a failure to undo them fails the whole group); alone, the group is
        if (alone) failedAlone = true;
        else await client.query('rollback to bid');
        results.push({ ok: false, error });
      }
    }
    return { results, events, savepoint, failedAlone };
  }

  private async mayBidOn(client: pg.PoolClient, item: ItemRow, user: UserRow): Promise<boolean> {
    const rules = readEligibility(item.eligibility);
    if (!rules.ranks?.length && !rules.groups?.length) return true;
    const groups = rules.groups?.length ? (await client.query<{ name: string }>({ ...Q.groups, values: [user.id] })).rows.map((r) => r.name) : [];
    return isEligible(rules, user.rank, groups);
  }
}
