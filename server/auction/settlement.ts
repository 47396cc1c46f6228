import type { FastifyBaseLogger } from 'fastify';
import { emit } from '../events/events';
import { sql } from 'kysely';
import type { z } from 'zod/mini';
import type { KingdomSettings, settingsBody } from '../../src/protocol/settings';
import { LEDGER_REASONS } from '../../src/protocol/points';
import { isSealed, MSG, type NoBuyerReason, type ServerMsgOf } from '../../src/protocol/socket';
import type { ItemRow, UserRow } from '../db/schema';
import { fill } from '../../src/protocol/texts';
import type { Clock } from '../clock';
import type { Db } from '../db/open';
import { writeTransaction, type Queryable } from '../db/write';
import { storeIsOpen, updateSettings } from '../kingdom/settings';
import { announceBalance } from '../points/announce';
import { bookIn } from '../points/ledger';
import type { Announcer } from '../sockets/announcer';
import { announceStart } from './announce';
import { balancesOf, publish } from '../cluster/events';
import { moveReserved, standingSealedBids } from './reservations';
import { reserveMet } from './wire';
import { Scheduler } from './scheduler';

/** Runs a job alone in the engine's queue (AuctionEngine.exclusive). */
export type Exclusive = <T>(job: () => Promise<T>) => Promise<T>;

export interface SettlementDeps {
  db: Db;
  announcer: Announcer;
  now: Clock;
  log: FastifyBaseLogger;
  exclusive: Exclusive;
  /** The timer fired: run what is due, in the queue (AuctionEngine.tick). */
  fire: () => void;
}

const SETTLE_RETRY_MS = 1000;

/**
 * The schedule and settlement: items start and end at the times the database holds
 * (items.starts_at / ends_at), each exactly once (conditional UPDATEs on the state, and
 * sales.item_id is unique); an ended item with a leader becomes a sale and a 'purchase' ledger
 * entry in one transaction. The store's opening and closing holds and resumes the live items' ends.
 */
export class Settlement {
  readonly scheduler: Scheduler;

  constructor(private readonly deps: SettlementDeps) {
    this.scheduler = new Scheduler({
      now: deps.now,
      nextDue: () => this.nextDue(),
      fire: deps.fire,
      onError: (error) => deps.log.error({ err: error }, 'reading the auction schedule failed; retrying'),
    });
  }

  /**
   * Changes the kingdom's settings through the queue: a bid queued before a close is still taken,
   * none after it. Closing the store holds every live item's time left, so no item ends while it
   * is closed (a leader cannot win at the price of the moment while rivals are refused); opening
   * it gives each live item its end back as the opening time plus the time it had left. Either
   * way every board hears STORE_STATE with the items' ends, so every clock moves together.
   */
  updateSettings(body: z.output<typeof settingsBody>, actorId: number): Promise<KingdomSettings> {
    return this.deps.exclusive(async () => {
      // an item whose end came before the close is over, fairly: settle it first
      if (body.storeOpen === false) await this.runDue();
      const now = this.deps.now();
      let change: ServerMsgOf<'STORE_STATE'> | null = null;
      const settings = await updateSettings(this.deps.db, body, actorId, now, async (trx, open) => {
        change = open ? await resumeItems(trx, now) : await holdItems(trx, now);
        await publish(trx, { k: 'store', at: now });
      });
      if (change) this.deps.announcer.broadcast('auction', change);
      await this.scheduler.arm();
      return settings;
    });
  }

  /** The time of the next stored start or end (null: nothing pending). */
  async nextDue(): Promise<number | null> {
    const { db } = this.deps;
    const start = await db.selectFrom('items').select((eb) => eb.fn.min('starts_at').as('at')).where('state', '=', 'scheduled').executeTakeFirst();
    // an item held while the store is closed has no end until it opens again
    const end = await db
      .selectFrom('items')
      .select((eb) => eb.fn.min('ends_at').as('at'))
      .where('state', '=', 'live')
      .where('held_ms', 'is', null)
      .executeTakeFirst();
    const times = [start?.at, end?.at].filter((t): t is number => typeof t === 'number');
    return times.length ? Math.min(...times) : null;
  }

  /** Every start and end that is due, in time order (a start before an end at the same moment), then the timer. Call it inside the queue. */
  async runDue(): Promise<void> {
    const { db } = this.deps;
    try {
      for (;;) {
        const now = this.deps.now();
        const start = await db
          .selectFrom('items')
          .select(['id', 'starts_at'])
          .where('state', '=', 'scheduled')
          .where('starts_at', '<=', now)
          .orderBy('starts_at')
          .orderBy('id')
          .limit(1)
          .executeTakeFirst();
        const end = await db
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
      this.deps.log.error({ err: error }, 'auction schedule failed; retrying');
      this.scheduler.retryIn(SETTLE_RETRY_MS);
      return;
    }
    await this.scheduler.arm();
  }

  private async startItem(id: number, now: number): Promise<void> {
    const row = await writeTransaction(this.deps.db, async (trx) => {
      const open = await storeIsOpen(trx);
      const started = await trx
        .updateTable('items')
        .set({ state: 'live', started_at: now, held_ms: open ? null : sql<number>`duration_s * 1000` })
        .where('id', '=', id)
        .where('state', '=', 'scheduled')
        .returningAll()
        .executeTakeFirst();
      if (started) {
        await publish(trx, { k: 'start', item: id, at: now });
        await emit(trx, 'item.started', { itemId: id }, null, now);
      }
      return started;
    });
    if (row) announceStart(this.deps.announcer, row, now);
  }

  /**
   * Ends a live item whose end has passed, in one transaction: finished, and with a leader whose
   * amount reaches the reserve the reservation becomes a 'purchase' ledger entry and a sale (at the
   * price its format says); under the reserve nothing is sold and the reservation goes back. A
   * sealed item's standing bids are all released (the winner's booked at the price). The UPDATE
   * only matches a live item, so a second settle finds nothing; sales.item_id is unique besides.
   */
  private async settleItem(id: number, now: number): Promise<void> {
    const { announcer } = this.deps;
    const settled = await writeTransaction(this.deps.db, async (trx) => {
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
      const sealed = isSealed(item.format);
      const standing = sealed ? await standingSealedBids(trx, item.id) : [];
      // (a sealed item's every standing bid was reserved: all go back, the winner's too before it is booked)
      const released = new Map<number, UserRow>();
      for (const bid of standing) released.set(bid.userId, await moveReserved(trx, bid.userId, -bid.amount));
      if (item.leader_id === null || !reserveMet(item)) {
        const reason: NoBuyerReason = item.leader_id === null ? 'no-bids' : 'reserve-not-met';
        if (item.leader_id !== null && !sealed) released.set(item.leader_id, await moveReserved(trx, item.leader_id, -item.amount));
        await publish(trx, { k: 'settle', item: item.id, u: balancesOf(released.values()) });
        await emit(trx, 'item.no-buyer', { itemId: item.id, reason }, null, now);
        return { item, winner: null, reason, released: [...released.values()] };
      }
      const price = sealed ? sealedPrice(item, standing) : item.amount;
      if (!sealed) await moveReserved(trx, item.leader_id, -item.amount);
      // a sealed second-price item shows what was paid
      if (price !== item.amount) await trx.updateTable('items').set({ amount: price }).where('id', '=', item.id).execute();
      await trx.insertInto('sales').values({ item_id: item.id, user_id: item.leader_id, amount: price, at: item.ends_at }).execute();
      const { user } = await bookIn(trx, { userId: item.leader_id, delta: -price, kind: 'purchase', reason: fill(LEDGER_REASONS.won, { item: item.name }), actorId: null }, now);
      released.delete(user.id);
      await publish(trx, { k: 'settle', item: item.id, u: balancesOf([...released.values(), user]) });
      await emit(trx, 'item.sold', { itemId: item.id, userId: user.id, amount: price }, null, now);
      await emit(trx, 'points.booked', { entries: 1, users: [user.id], total: -price }, null, now);
      return { item: { ...item, amount: price }, winner: user, reason: null, released: [...released.values()] };
    });
    if (!settled) return;
    const { item, winner, reason, released } = settled;
    for (const user of released) announceBalance(announcer, user);
    if (winner) {
      const result = { itemId: item.id, itemName: item.name, amount: item.amount, username: winner.username };
      announcer.sendToUser(winner.id, 'auction', { type: MSG.WINNER, data: result });
      announcer.broadcast('auction', { type: MSG.SALE_COMPLETED, data: { itemId: item.id, itemName: item.name, username: winner.username, amount: item.amount } });
      announceBalance(announcer, winner);
    } else {
      announcer.broadcast('auction', { type: MSG.NO_BUYER, data: { itemId: item.id, itemName: item.name, ...(reason ? { reason } : {}) } });
    }
  }
}

/**
 * What a sealed item's winner pays: its own bid (sealed-first); or the second-highest standing bid
 * plus the increment, at most its own bid, or the start price when it stood alone (sealed-second);
 * never below the reserve.
 */
export function sealedPrice(item: Pick<ItemRow, 'format' | 'amount' | 'leader_id' | 'min_increment' | 'start_price' | 'reserve_price'>, standing: readonly { userId: number; amount: number }[]): number {
  if (item.format !== 'sealed-second') return item.amount;
  const others = standing.filter((b) => b.userId !== item.leader_id).map((b) => b.amount);
  const base = others.length ? Math.max(...others) + item.min_increment : item.start_price;
  return Math.min(item.amount, Math.max(base, item.reserve_price ?? 0));
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
