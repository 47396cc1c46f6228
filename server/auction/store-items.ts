import type { z } from 'zod/mini';
import { actorOf, emit } from '../events/events';
import type { AuditAction } from '../../src/protocol/admin';
import { isSealed, MSG } from '../../src/protocol/socket';
import { copyName, formatFault, STARTS_AT_PAST_TOLERANCE_MS, STORE_ERRORS, type createItemBody, type editItemBody, type StoreItem } from '../../src/protocol/store';
import type { Clock } from '../clock';
import type { Db } from '../db/open';
import { writeTransaction } from '../db/write';
import { recordAuditBy } from '../audit/audit';
import { Conflict, Invalid, NotFound } from '../errors';
import { storeIsOpen } from '../kingdom/settings';
import { announceBalance } from '../points/announce';
import type { Announcer } from '../sockets/announcer';
import { announceStart } from './announce';
import { balancesOf, publish } from '../cluster/events';
import type { Scheduler } from './scheduler';
import { moveReserved, releaseSealedBids } from './reservations';
import type { Exclusive } from './settlement';
import { readEligibility, selectItems, toStoreItem, writeEligibility } from './wire';

export interface StoreItemsDeps {
  db: Db;
  announcer: Announcer;
  now: Clock;
  exclusive: Exclusive;
  scheduler: Scheduler;
}

/**
 * The store's items: create, edit, cancel, duplicate. Each change runs alone in the engine's queue
 * (a bid never sees half an edit), then the scheduler is re-armed (a new start may be earlier).
 */
export class StoreItems {
  constructor(private readonly deps: StoreItemsDeps) {}

  /**
   * A new item. Without startsAt (or with one a little in the past: clock skew) it goes live at once
   * and BIDDING_STARTED goes out; later starts wait for the scheduler.
   */
  create(body: z.output<typeof createItemBody>, creatorId: number, audit: { action: AuditAction; detail?: Record<string, unknown> } = { action: 'item.create' }): Promise<StoreItem> {
    const { db, announcer } = this.deps;
    return this.deps.exclusive(async () => {
      const now = this.deps.now();
      if (body.startsAt !== undefined && body.startsAt < now - STARTS_AT_PAST_TOLERANCE_MS) throw new Invalid(STORE_ERRORS.startsAt);
      const startsAt = Math.max(body.startsAt ?? now, now);
      const live = startsAt <= now;
      // going live while the store is closed: held with its whole duration until it opens
      const held = live && !(await storeIsOpen(db)) ? body.duration * 1000 : null;
      // the item and its audit entry in one transaction
      const row = await writeTransaction(db, async (trx) => {
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
            format: body.format ?? 'english',
            reserve_price: body.reservePrice ?? null,
            buy_now_price: body.buyNowPrice ?? null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordAuditBy(trx, creatorId, audit.action, inserted.name, { itemId: inserted.id, startPrice: inserted.start_price, startsAt: inserted.starts_at, format: inserted.format, ...audit.detail }, now);
        await publish(trx, live ? { k: 'start', item: inserted.id, at: now } : { k: 'schedule' });
        if (live) await emit(trx, 'item.started', { itemId: inserted.id }, actorOf(creatorId), now);
        return inserted;
      });
      if (live) announceStart(announcer, row, now);
      await this.deps.scheduler.arm();
      return toStoreItem({ ...row, leader_name: null }, now);
    });
  }

  /**
   * Cancels a scheduled or live item: the leader's reservation is released (VIRTUAL_BALANCE_UPDATE)
   * and, when it was live, ITEM_CANCELLED takes it off every board (a cancellation is not a sale
   * that failed). A scheduled item was never on the boards, so nothing is broadcast for it.
   */
  cancel(itemId: number, actorId: number | null = null): Promise<StoreItem> {
    const { db, announcer } = this.deps;
    return this.deps.exclusive(async () => {
      const now = this.deps.now();
      const result = await writeTransaction(db, async (trx) => {
        const item = await selectItems(trx).where('i.id', '=', itemId).executeTakeFirst();
        if (!item) throw new NotFound(STORE_ERRORS.unknownItem);
        if (item.state !== 'scheduled' && item.state !== 'live') throw new Conflict(STORE_ERRORS.notCancellable);
        const cancelled = await trx.updateTable('items').set({ state: 'cancelled', settled_at: now }).where('id', '=', item.id).where('state', '=', item.state).executeTakeFirst();
        // (an update without RETURNING answers a count, never no row: the count is the guard)
        if (cancelled.numUpdatedRows !== 1n) throw new Conflict(STORE_ERRORS.notCancellable);
        // a sealed item holds every standing bid; an english one its leader's
        const sealedReleased = item.state === 'live' && isSealed(item.format) ? await releaseSealedBids(trx, item.id) : [];
        const released = item.state === 'live' && item.leader_id !== null && !isSealed(item.format) ? await moveReserved(trx, item.leader_id, -item.amount) : null;
        await recordAuditBy(trx, actorId, 'item.cancel', item.name, { itemId: item.id, was: item.state, ...(released ? { released: released.username, amount: item.amount } : {}), ...(sealedReleased.length ? { releasedBids: sealedReleased.length } : {}) }, now);
        if (item.state === 'live') await publish(trx, { k: 'cancel', item: item.id });
        await emit(trx, 'item.cancelled', { itemId: item.id }, actorOf(actorId), now);
        const allReleased = released ? [released] : sealedReleased;
        if (allReleased.length) await publish(trx, { k: 'users', u: balancesOf(allReleased) });
        return { item, released: allReleased };
      });
      const { item, released } = result;
      for (const user of released) announceBalance(announcer, user);
      if (item.state === 'live') announcer.broadcast('auction', { type: MSG.ITEM_CANCELLED, data: { itemId: item.id, itemName: item.name } });
      await this.deps.scheduler.arm();
      return toStoreItem({ ...item, state: 'cancelled', settled_at: now }, now);
    });
  }

  /**
   * Edits a scheduled item (409 once it has started, finished or been cancelled). A new start
   * a little in the past counts as now, and then the item goes live at once like a new one.
   */
  edit(itemId: number, body: z.output<typeof editItemBody>, actorId: number | null = null): Promise<StoreItem> {
    const { db, announcer } = this.deps;
    return this.deps.exclusive(async () => {
      const now = this.deps.now();
      if (body.startsAt !== undefined && body.startsAt < now - STARTS_AT_PAST_TOLERANCE_MS) throw new Invalid(STORE_ERRORS.startsAt);
      const row = await writeTransaction(db, async (trx) => {
        const item = await trx.selectFrom('items').selectAll().where('id', '=', itemId).executeTakeFirst();
        if (!item) throw new NotFound(STORE_ERRORS.unknownItem);
        if (item.state !== 'scheduled') throw new Conflict(STORE_ERRORS.notEditable);
        const startsAt = body.startsAt === undefined ? item.starts_at : Math.max(body.startsAt, now);
        const duration = body.duration ?? item.duration_s;
        const startPrice = body.start_price ?? item.start_price;
        const format = body.format ?? item.format;
        const reservePrice = body.reservePrice === undefined ? item.reserve_price : body.reservePrice;
        const buyNowPrice = body.buyNowPrice === undefined ? item.buy_now_price : body.buyNowPrice;
        // the prices and the format together, as the edit leaves them
        const fault = formatFault({ format, start_price: startPrice, reservePrice, buyNowPrice });
        if (fault) throw new Invalid(fault);
        const live = startsAt <= now;
        const held = live && !(await storeIsOpen(trx)) ? duration * 1000 : null;
        await recordAuditBy(trx, actorId, 'item.edit', item.name, { itemId: item.id, changes: body }, now);
        await publish(trx, live ? { k: 'start', item: item.id, at: now } : { k: 'schedule' });
        if (live) await emit(trx, 'item.started', { itemId: item.id }, actorOf(actorId), now);
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
            format,
            reserve_price: reservePrice,
            buy_now_price: buyNowPrice,
            ...(live ? { state: 'live' as const, started_at: now, held_ms: held } : {}),
          })
          .where('id', '=', item.id)
          .where('state', '=', 'scheduled')
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      if (row.state === 'live') announceStart(announcer, row, now);
      await this.deps.scheduler.arm();
      return toStoreItem({ ...row, leader_name: null }, now);
    });
  }

  /** A copy of any item (its name with ' (copy)', texts, prices, timing rules and eligibility), starting now or at `startsAt`. */
  async duplicate(itemId: number, startsAt: number | undefined, creatorId: number): Promise<StoreItem> {
    const item = await this.deps.db.selectFrom('items').selectAll().where('id', '=', itemId).executeTakeFirst();
    if (!item) throw new NotFound(STORE_ERRORS.unknownItem);
    const rules = readEligibility(item.eligibility);
    return this.create(
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
        format: item.format,
        ...(item.reserve_price === null ? {} : { reservePrice: item.reserve_price }),
        ...(item.buy_now_price === null ? {} : { buyNowPrice: item.buy_now_price }),
      },
      creatorId,
      { action: 'item.duplicate', detail: { from: item.id } },
    );
  }
}
