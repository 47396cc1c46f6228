import pg from 'pg';
import { isSealed, type ErrorType } from '../../src/protocol/socket';
import { isEligible } from '../../src/protocol/store';
import { balancesOf, bidsNotifications, type BidEvent, type MaxNotice } from '../cluster/events';
import { bidEventStatements, eventsCommitted } from '../events/events';
import type { Db } from '../db/open';
import { poolOf } from '../db/postgres';
import type { ItemRow, UserRow } from '../db/schema';
import { WRITE_LOCK_KEY } from '../db/write';
import { decide, maxRepeat, storedOutcome, withReserve, type Answered as Answer, type BidOutcome, type BidWriter, type Decision, type PendingBid, type Written } from './bid-writer';
import { answerMaxima, judgeMax, type Follow, type MaxEvent, type ProxyWrites, type StandingMax } from './max-bids';
import { readEligibility, toBid } from './wire';

/**
 * The group's opening, in one round trip (simple protocol, several statements): BEGIN with the
 * shared write lock (server/db/write.ts), the group's items locked in id order (bids on one item
 * take turns, across processes too), then the bidders and the leaders they may outbid locked in id
 * order (one player's points are never spent twice by bids in two processes; the holders of the
 * items' maxima too, whose automatic bids the group may write), with the store's setting and, per
 * bidder, the answers already given to the group's requestIds (bids' and SET_MAX_BIDs'); then the
 * items' maxima that can still bid (their rows are the item's: written only under its lock). The ids are whole
 * numbers written into the text; the requestIds are quoted by pg's escapeLiteral (the protocol
 * refuses a NUL in them, and a group never carries one: see writeGroup).
 */
function openingOf(client: pg.PoolClient, itemIds: readonly number[], userIds: readonly number[], asked: readonly { userId: number; requestId: string }[]): string {
  for (const id of [...itemIds, ...userIds, ...asked.map((a) => a.userId)]) if (!Number.isSafeInteger(id)) throw new Error(`not an id: ${id}`);
  const items = `array[${itemIds.join(',')}]::bigint[]`;
  const pairs = `unnest(array[${asked.map((a) => a.userId).join(',')}]::bigint[], array[${asked.map((a) => client.escapeLiteral(a.requestId)).join(',')}]::text[]) as a(user_id, request_id)`;
  return `begin; set local jit = off; select pg_advisory_xact_lock_shared(${WRITE_LOCK_KEY});
    select * from items where id = any(${items}) order by id for update;
    select u.*, (select s.store_open from kingdom_settings s where s.id = 1) as group_store_open
      from users u
      where u.id = any(array[${userIds.join(',')}]::bigint[]) or u.id in (select i.leader_id from items i where i.id = any(${items}))
        or u.id in (select mb.user_id from max_bids mb where mb.item_id = any(${items}) and mb.exhausted_at is null)
      order by u.id for update of u;
    select r.user_id, r.request_id, r.bid_id, r.error_type, r.item_id, 0 as max
      from ${pairs} join bid_requests r on r.user_id = a.user_id and r.request_id = a.request_id
    union all
    select m.user_id, m.request_id, null, null, m.item_id, 1
      from ${pairs} join max_bid_requests m on m.user_id = a.user_id and m.request_id = a.request_id;
    select item_id, user_id, max, seq from max_bids where item_id = any(${items}) and exhausted_at is null order by item_id, seq`;
}

/** An accepted bid's writes (Q.accept): the bid, its request, the item, the outbid leader's points released, the bidder's reserved. */
const ACCEPT_WRITES = `with b as (
        insert into bids (item_id, user_id, amount, ends_at, created_at, extensions) values ($1, $2, $3, $4, $5, $6) returning id
      ), r as (
        insert into bid_requests (user_id, request_id, item_id, bid_id, error_type, created_at) select $2, $7, $1, b.id, null, $8 from b
      ), i as (
        update items set leader_id = $12, amount = $13, ends_at = $4, extensions = $6, bids_count = $14 where id = $1 and state = 'live' returning id
      ), o as (
        update users set reserved = reserved - $10 where id = $9 returning *
      ), u as (
        update users set reserved = reserved + $11 where id = $2 returning *
      )`;
/** An automatic bid's writes (Q.auto): as ACCEPT_WRITES without a request. */
const AUTO_WRITES = `with b as (
        insert into bids (item_id, user_id, amount, ends_at, created_at, extensions, auto) values ($1, $2, $3, $4, $5, $6, 1) returning id
      ), i as (
        update items set leader_id = $10, amount = $11, ends_at = $4, extensions = $6, bids_count = $12 where id = $1 and state = 'live' returning id
      ), o as (
        update users set reserved = reserved - $8 where id = $7 returning *
      ), u as (
        update users set reserved = reserved + $9 where id = $2 returning *
      )`;
/** What the careful way's accept answers: both users' rows as the writes left them, with the bid's id and the items updated. */
const BOTH_ROWS = `select 'bidder' as who, (select id from b) as bid_id, (select count(*) from i) as items_updated, u.* from u
      union all
      select 'outbid', (select id from b), (select count(*) from i), o.* from o`;
/** What the batched way's accept ends in: a division by zero (failing the string) when the item, the bidder or the outbid leader (`outbid`: its parameter) was not updated. */
const guard = (outbid: string) =>
  `select 1 / ((select count(*) from i) * (select count(*) from u) * (case when ${outbid}::bigint is null then 1 else (select count(*) from o) end))::int`;

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
    text: `${ACCEPT_WRITES}
      ${BOTH_ROWS}`,
  },
  /** An automatic bid's writes, as `accept` without a request (the server placed it from the bidder's max). */
  auto: {
    name: 'bid_auto',
    text: `${AUTO_WRITES}
      ${BOTH_ROWS}`,
  },
  maxRequest: { name: 'max_request', text: 'insert into max_bid_requests (user_id, request_id, item_id, created_at) values ($1, $2, $3, $4)' },
  maxSet: {
    name: 'max_set',
    text: `insert into max_bids (item_id, user_id, max, seq, set_at, exhausted_at)
      values ($1, $2, $3, (select coalesce(max(seq), 0) + 1 from max_bids where item_id = $1), $4, null)
      on conflict (item_id, user_id) do update set max = excluded.max, seq = excluded.seq, set_at = excluded.set_at, exhausted_at = null
      returning seq`,
  },
  maxDrop: { name: 'max_drop', text: 'delete from max_bids where item_id = $1 and user_id = $2' },
  maxExhaust: { name: 'max_exhaust', text: 'update max_bids set exhausted_at = $3 where item_id = $1 and user_id = any($2::bigint[])' },
};

/**
 * The first attempt's writes (see PostgresBidWriter): Q's writes as SQL-level prepared statements
 * (PREPARE once per connection, EXECUTE with the values written in as literals), so every write of
 * a group travels in the one string that commits it, each planned once per connection. The accepts
 * end in `guard` (failing the string, so the group is written again the careful way) where the
 * careful way checks the rows they answer.
 */
type BatchedWrite = 'refuse' | 'accept' | 'auto' | 'maxRequest' | 'maxDrop' | 'maxExhaust';
const BATCHED_TEXT: Record<BatchedWrite, string> = {
  refuse: Q.refuse.text,
  accept: `${ACCEPT_WRITES}\n      ${guard('$9')}`,
  auto: `${AUTO_WRITES}\n      ${guard('$7')}`,
  maxRequest: Q.maxRequest.text,
  maxDrop: Q.maxDrop.text,
  maxExhaust: Q.maxExhaust.text,
};
/** Each batched write's SQL-level name: Q's, prefixed (pg's own named statements share the connection's namespace). */
const batchedName = (which: BatchedWrite) => `kb_${Q[which].name}`;
const PREPARE_FAST = (Object.keys(BATCHED_TEXT) as BatchedWrite[]).map((which) => `prepare ${batchedName(which)} as ${BATCHED_TEXT[which]}`).join('; ');

/** A value written into an EXECUTE: whole or finite numbers, null, text quoted by pg, arrays of ids as text. */
function literal(client: pg.PoolClient, value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a number: ${value}`);
    return String(value);
  }
  if (typeof value === 'string') return client.escapeLiteral(value);
  if (Array.isArray(value) && value.every((v) => Number.isSafeInteger(v))) return client.escapeLiteral(`{${value.join(',')}}`);
  throw new Error('a value a batch cannot write');
}

/** The first attempt failed in the database (its transaction is lost): the group is written again, the careful way. */
class FastFailed extends Error {
  constructor(readonly cause: unknown) {
    super('the batched attempt failed');
  }
}

/**
 * How a group's writes reach the database. Careful: each write is sent and its rows come back (a
 * bid's own savepoint before it). Batched: writes wait in `pending` for the commit's string; a read
 * sends them first (a read may see them), and a failure in the database is a FastFailed.
 */
class Writes {
  readonly pending: string[] = [];
  /** Writes sent ahead of a read, counted: a bid that fails after some of its writes were sent cannot be undone alone. */
  sent = 0;

  constructor(
    private readonly client: pg.PoolClient,
    readonly batched: boolean,
    private readonly counts: { roundTrips: number },
  ) {}

  /** A statement sent now, counted as a round trip. */
  query<R extends pg.QueryResultRow>(query: string | pg.QueryConfig): Promise<pg.QueryResult<R>> {
    this.counts.roundTrips += 1;
    return this.client.query<R>(query);
  }

  /** A write: sent now (careful, its rows returned) or kept for the commit (batched, no rows). */
  async write<R extends pg.QueryResultRow>(which: BatchedWrite, values: unknown[]): Promise<R[] | null> {
    if (!this.batched) return (await this.query<R>({ ...Q[which], values })).rows;
    this.pending.push(`execute ${batchedName(which)}(${values.map((v) => literal(this.client, v)).join(', ')})`);
    return null;
  }

  /** A read (or a write whose rows are needed): what is kept is sent first. */
  async read<R extends pg.QueryResultRow>(query: { name: string; text: string; values: unknown[] }): Promise<R[]> {
    if (!this.batched) return (await this.query<R>(query)).rows;
    try {
      if (this.pending.length) {
        this.sent += this.pending.length;
        await this.query(this.pending.splice(0).join('; '));
      }
      return (await this.query<R>(query)).rows;
    } catch (error) {
      throw new FastFailed(error);
    }
  }
}

/** What the users statement adds to each row. */
type LockedUser = UserRow & { group_store_open: number | null };
type Asked = { bid_id: number | null; error_type: string | null; item_id: number };

/** The answer to a requestId already given: stored before the group (a bid's, or a SET_MAX_BID's item), or given by a bid of this group. */
type Answered = { stored: Asked } | { maxOn: number } | { outcome: Answer };

const key = (userId: number, requestId: string) => `${userId}\n${requestId}`;

function userOf(row: LockedUser | (UserRow & { who: string; bid_id: number; items_updated: number })): UserRow {
  const { group_store_open: _s, who: _w, bid_id: _b, items_updated: _i, ...user } = row as LockedUser & { who?: string; bid_id?: number; items_updated?: number };
  return user;
}

/**
 * PostgreSQL (several processes write): group commit, as SQLite has it, on one pooled connection.
 * A group's round trips: two, however many bids it carries. The opening (BEGIN, the write lock, the
 * items and the users locked and read, the answers already given: openingOf); then, batched, every
 * write of the group (EXECUTEs of statements prepared once per connection), its events, its NOTIFY
 * and the COMMIT in one string: as few as a transaction that reads before it writes can have (a
 * plain BEGIN, INSERT, COMMIT has three). A sealed item's own bid or an item limited to groups is
 * read on the way, one more (the writes kept so far go with it). When the batched string fails (a
 * write the database refuses), it is rolled back and the group runs again the careful way: a
 * savepoint and a round trip per write, so the failing bid is undone alone and the others commit.
 * Every row the group writes is locked before anything is judged, items then users,
 * each in id order, so two groups in two processes take turns and never deadlock; within the group
 * each bid is judged in order on the rows as the bids before it left them (kept here: from what
 * each write returns, or, batched, as each write leaves them).
 */
export class PostgresBidWriter implements BidWriter {
  readonly commits = { transactions: 0, bids: 0, roundTrips: 0 };
  private readonly pool: pg.Pool;
  /** The connections that have the batched statements prepared (PREPARE_FAST). */
  private readonly prepared = new WeakSet<pg.PoolClient>();

  constructor(private readonly db: Db) {
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
    // first batched (every write in the commit's string); when that fails in the database, once more the careful way
    const batched = await this.attempt(bids, now, options, true);
    return batched ?? ((await this.attempt(bids, now, options, false)) as Written<BidOutcome>[]);
  }

  /** One transaction for the group; null when the batched attempt failed in the database (nothing of it was committed). */
  private async attempt(bids: readonly PendingBid[], now: number, options: { dryRun?: boolean }, batched: boolean): Promise<Written<BidOutcome>[] | null> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      return bids.map(() => ({ ok: false, error }));
    }
    let broken: Error | undefined;
    try {
      try {
        if (batched && !this.prepared.has(client)) {
          await client.query(PREPARE_FAST);
          this.prepared.add(client);
        }
        const writes = new Writes(client, batched, this.commits);
        const { results, events, domain, savepoint, failedAlone } = await this.judgeAndWrite(client, writes, bids, now);
        const tail =
          options.dryRun || failedAlone
            ? ['rollback']
            : [
                ...writes.pending,
                ...(savepoint ? ['release bid'] : []),
                ...bidEventStatements(
                  domain.map((e) => ({ ...e, actor: null })),
                  (t) => client.escapeLiteral(t),
                ),
                ...bidsNotifications(events),
                'commit',
              ];
        try {
          await writes.query(tail.join('; '));
        } catch (error) {
          throw batched ? new FastFailed(error) : error;
        }
        if (tail.length > 1 && domain.length > 0) eventsCommitted(this.db);
        return results;
      } catch (error) {
        this.commits.roundTrips += 1;
        await client.query('rollback').catch((rollbackError: unknown) => {
          broken = rollbackError as Error;
        });
        throw error;
      }
    } catch (error) {
      // nothing was committed: the careful attempt comes next, or every bid of the group failed
      if (batched) return null;
      return bids.map(() => ({ ok: false, error }));
    } finally {
      client.release(broken);
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private async judgeAndWrite(client: pg.PoolClient, writes: Writes, bids: readonly PendingBid[], now: number) {
    const itemIds = [...new Set(bids.map((b) => b.request.itemId))];
    const opening = openingOf(
      client,
      itemIds,
      [...new Set(bids.map((b) => b.userId))],
      bids.map((b) => ({ userId: b.userId, requestId: b.request.requestId })),
    );
    // the answers of BEGIN, SET, the lock, the items, the users, the answers given, the items' maxima
    const answers = (await writes.query(opening)) as unknown as pg.QueryResult[];
    const items = new Map((answers[3].rows as ItemRow[]).map((r) => [r.id, r]));
    const locked = answers[4].rows as LockedUser[];
    const users = new Map(locked.map((u) => [u.id, userOf(u)]));
    const maxima = new Map<number, StandingMax[]>();
    for (const m of answers[6].rows as { item_id: number; user_id: number; max: number; seq: number }[]) {
      const list = maxima.get(m.item_id) ?? [];
      list.push({ userId: m.user_id, max: m.max, seq: m.seq });
      maxima.set(m.item_id, list);
    }
    const answered = new Map<string, Answered>();
    for (const a of answers[5].rows as { user_id: number; request_id: string; bid_id: number | null; error_type: string | null; item_id: number; max: number }[]) {
      answered.set(key(a.user_id, a.request_id), a.max ? { maxOn: a.item_id } : { stored: { bid_id: a.bid_id, error_type: a.error_type, item_id: a.item_id } });
    }
    // (a group always has a bidder, so the setting comes with its row; null: no settings row, the store is open)
    const storeOpen = locked.length === 0 || locked[0].group_store_open !== 0;

    const results: Written<BidOutcome>[] = [];
    const events: (BidEvent | MaxNotice)[] = [];
    const domain: (MaxEvent & { at: number })[] = [];
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
          results.push({ ok: true, value: 'outcome' in before ? before.outcome : 'maxOn' in before ? await maxRepeat(this.db, userId, before.maxOn) : await storedOutcome(this.db, before.stored) });
        } catch (error) {
          results.push({ ok: false, error });
        }
        continue;
      }
      const bidder = users.get(userId);
      const row = items.get(itemId);
      let mayBid: boolean;
      let ownBid: number | null = null;
      try {
        if (!bidder) throw new Error(`no account ${userId}`);
        mayBid = row ? await this.mayBidOn(writes, row, bidder) : true;
        if (bid.kind !== 'max' && row && isSealed(row.format)) ownBid = (await writes.read<{ own: number | null }>({ ...Q.ownBid, values: [itemId, userId] }))[0]?.own ?? null;
      } catch (error) {
        if (error instanceof FastFailed) throw error;
        results.push({ ok: false, error });
        continue;
      }
      if (!alone && !writes.batched) {
        await writes.query(savepoint ? 'release bid; savepoint bid' : 'savepoint bid');
        savepoint = true;
      }
      // what this bid changes in the group's copies, undone with its writes when they fail
      const undo: (() => void)[] = [];
      const marks = { events: events.length, domain: domain.length, pending: writes.pending.length, sent: writes.sent };
      const io = this.proxyWrites(writes, { items, users, maxima, events, domain, undo });
      try {
        const verdict = bid.kind === 'max' ? judgeMax({ storeOpen, row, bidder: bidder as UserRow, mayBid }, amount, at) : null;
        const decision: Decision | null = bid.kind === 'max' ? (verdict ? { kind: 'refuse', errorType: verdict } : null) : decide({ storeOpen, row, bidder: bidder as UserRow, mayBid, ownBid }, amount, at);
        if (decision?.kind === 'refuse') {
          await writes.write('refuse', [userId, requestId, itemId, decision.errorType, now]);
          const outcome = { kind: 'rejected' as const, errorType: decision.errorType as ErrorType, itemId };
          answered.set(key(userId, requestId), { outcome });
          results.push({ ok: true, value: { ...outcome, bidder } });
          continue;
        }
        const current = row as ItemRow;
        if (bid.kind === 'max') {
          const max = amount as number;
          await writes.write('maxRequest', [userId, requestId, itemId, now]);
          const list = maxima.get(itemId) ?? [];
          io.setMaxima(itemId, list.filter((m) => m.userId !== userId));
          let follow: Follow[] = [];
          let leaderId = current.leader_id;
          if (max > 0) {
            const rows = await writes.read<{ seq: number }>({ ...Q.maxSet, values: [itemId, userId, max, at] });
            io.setMaxima(itemId, [...(maxima.get(itemId) ?? []), { userId, max, seq: Number(rows[0].seq) }]);
            const answer = await answerMaxima(io, current, storeOpen, at);
            follow = answer.follow;
            leaderId = answer.row.leader_id;
          } else {
            await writes.write('maxDrop', [itemId, userId]);
          }
          // (the max stands, exhausted or not, unless it was withdrawn or dropped)
          const dropped = follow.some((f) => f.kind === 'max' && f.userId === userId);
          const frame = { itemId, max: dropped ? 0 : max, leading: leaderId === userId };
          // MAX_BID to its owner before what the maxima did
          events.splice(marks.events, 0, { mx: { u: userId, i: itemId, m: frame.max, l: frame.leading } });
          answered.set(key(userId, requestId), { maxOn: itemId });
          results.push({ ok: true, value: { kind: 'max', frame, owner: users.get(userId) as UserRow, follow } });
          continue;
        }
        if (decision === null) throw new Error('a bid without its verdict');
        const written = await io.writeBid(current, bidder as UserRow, decision, at, requestId, now);
        const told = written.bid;
        answered.set(key(userId, requestId), { outcome: { kind: 'repeat', bid: told } });
        const sealed = isSealed(decision.item.format);
        // the standing maxima answer the new lead in this transaction
        const { follow } = decision.boughtNow || sealed ? { follow: [] as Follow[] } : await answerMaxima(io, written.row, storeOpen, at);
        results.push({
          ok: true,
          value: {
            kind: 'accepted',
            bid: told,
            bidder: written.bidder,
            outbid: written.outbid,
            item: written.item,
            ...(sealed ? { sealed: { bids: decision.bidsCount } } : {}),
            ...(decision.boughtNow ? { boughtNow: true } : {}),
            ...(follow.length ? { follow } : {}),
          },
        });
      } catch (error) {
        // batched: a failure in the database, or one after this bid's writes went ahead of a read, is the attempt's
        if (error instanceof FastFailed) throw error;
        if (writes.sent !== marks.sent) throw new FastFailed(error);
        // only this bid's writes are undone (a failure to undo them fails the whole group); alone, the group is
        for (const step of undo.reverse()) step();
        events.length = marks.events;
        domain.length = marks.domain;
        writes.pending.length = marks.pending;
        if (alone) failedAlone = true;
        else if (!writes.batched) await writes.query('rollback to bid');
        results.push({ ok: false, error });
      }
    }
    return { results, events, domain, savepoint, failedAlone };
  }

  /**
   * The writes of a bid, a manual one (with its request) or an automatic one, and the maxima's,
   * over the group's copies of the rows it locked: each write updates the copy (and says how to undo it).
   */
  private proxyWrites(
    writes: Writes,
    group: {
      items: Map<number, ItemRow>;
      users: Map<number, UserRow>;
      maxima: Map<number, StandingMax[]>;
      events: (BidEvent | MaxNotice)[];
      domain: (MaxEvent & { at: number })[];
      undo: (() => void)[];
    },
  ) {
    const { items, users, maxima, events, domain, undo } = group;
    const keep = <K, V>(map: Map<K, V>, k: K) => {
      const had = map.has(k);
      const old = map.get(k);
      undo.push(() => (had ? map.set(k, old as V) : map.delete(k)));
    };
    const setMaxima = (itemId: number, list: StandingMax[]) => {
      keep(maxima, itemId);
      maxima.set(itemId, list);
    };
    const writeBid = async (row: ItemRow, bidder: UserRow, decision: Extract<Decision, { kind: 'accept' }>, at: number, requestId: string | null, now: number) => {
      const itemId = row.id;
      const { endsAt, extensions } = decision;
      const values =
        requestId === null
          ? [itemId, bidder.id, decision.amount, endsAt, at, extensions, decision.outbidId, decision.released, decision.reserved, decision.leaderId, decision.itemAmount, decision.bidsCount]
          : [itemId, bidder.id, decision.amount, endsAt, at, extensions, requestId, now, decision.outbidId, decision.released, decision.reserved, decision.leaderId, decision.itemAmount, decision.bidsCount];
      let updated: UserRow;
      let outbid: UserRow | null;
      if (writes.batched) {
        // the rows as the write leaves them (its guard fails the attempt when it does not update them)
        const was = decision.outbidId === null ? null : users.get(decision.outbidId);
        if (decision.outbidId !== null && !was) throw new Error(`account ${decision.outbidId} was not locked`);
        await writes.write(requestId === null ? 'auto' : 'accept', values);
        updated = { ...bidder, reserved: bidder.reserved + decision.reserved };
        outbid = was ? { ...was, reserved: was.reserved - decision.released } : null;
      } else {
        const rows = (await writes.write<UserRow & { who: 'bidder' | 'outbid'; bid_id: number; items_updated: number }>(requestId === null ? 'auto' : 'accept', values)) ?? [];
        const updatedRow = rows.find((r) => r.who === 'bidder');
        const outbidRow = rows.find((r) => r.who === 'outbid');
        if (!updatedRow || Number(rows[0].items_updated) !== 1 || (decision.outbidId !== null && !outbidRow)) {
          throw new Error(`bid on item ${itemId}: the item or a user was not updated`);
        }
        updated = userOf(updatedRow);
        outbid = outbidRow ? userOf(outbidRow) : null;
      }
      // the bids after this one are judged on the rows as it left them
      const after: ItemRow = { ...row, leader_id: decision.leaderId, amount: decision.itemAmount, ends_at: endsAt, extensions, bids_count: decision.bidsCount };
      keep(items, itemId);
      items.set(itemId, after);
      keep(users, bidder.id);
      users.set(bidder.id, updated);
      if (outbid) {
        keep(users, outbid.id);
        users.set(outbid.id, outbid);
      }
      const auto = requestId === null ? 1 : 0;
      const told = withReserve(toBid({ item_id: itemId, item_name: row.name, amount: decision.amount, username: bidder.username, ends_at: endsAt, created_at: at, extensions, auto }), row, decision);
      events.push({ w: told, by: bidder.id, i: itemId, outbid: outbid?.id ?? null, u: balancesOf(outbid ? [outbid, updated] : [updated]), ...(isSealed(decision.item.format) ? { s: decision.bidsCount } : {}) });
      return { bid: told, bidder: updated, outbid, row: after, item: { id: itemId, amount: decision.itemAmount, leaderId: decision.leaderId, endsAt, extensions }, boughtNow: decision.boughtNow };
    };
    const io: ProxyWrites & { setMaxima: typeof setMaxima; writeBid: typeof writeBid } = {
      setMaxima,
      writeBid,
      maxima: (itemId) => Promise.resolve([...(maxima.get(itemId) ?? [])].sort((a, b) => a.seq - b.seq)),
      user: (userId) => {
        const user = users.get(userId);
        // (every holder of the items' maxima was locked in the opening, and every bidder)
        return user ? Promise.resolve(user) : Promise.reject(new Error(`account ${userId} was not locked`));
      },
      mayBid: (row, user) => this.mayBidOn(writes, row, user),
      writeAuto: (row, holder, decision, at) => writeBid(row, holder, decision, at, null, 0),
      drop: async (itemId, userId, frame) => {
        await writes.write('maxDrop', [itemId, userId]);
        setMaxima(itemId, (maxima.get(itemId) ?? []).filter((m) => m.userId !== userId));
        events.push({ mx: { u: userId, i: itemId, m: 0, l: frame.leading ?? false, ...(frame.reason ? { r: frame.reason } : {}) } });
      },
      exhaust: async (itemId, userIds, at) => {
        await writes.write('maxExhaust', [itemId, userIds, at]);
        setMaxima(itemId, (maxima.get(itemId) ?? []).filter((m) => !userIds.includes(m.userId)));
      },
      event: (event, at) => {
        domain.push({ ...event, at });
        return Promise.resolve();
      },
    };
    return io;
  }

  private async mayBidOn(writes: Writes, item: ItemRow, user: UserRow): Promise<boolean> {
    const rules = readEligibility(item.eligibility);
    if (!rules.ranks?.length && !rules.groups?.length) return true;
    const groups = rules.groups?.length ? (await writes.read<{ name: string }>({ ...Q.groups, values: [user.id] })).map((r) => r.name) : [];
    return isEligible(rules, user.rank, groups);
  }
}
