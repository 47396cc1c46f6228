import { MAX_WATCHES, NOTICE_ERRORS } from '../../src/protocol/notices';
import { STORE_ERRORS, type StoreItem } from '../../src/protocol/store';
import type { Item } from '../../src/protocol/socket';
import type { Db } from '../db/open';
import { writeTransaction, type Queryable } from '../db/write';
import { selectItems, toStoreItem } from '../auction/wire';
import { Conflict, NotFound } from '../errors';

/**
 * The watchlist: the items a player watches, one row per (player, item). It owns the `watches`
 * table. A player watches at most MAX_WATCHES items that have not ended (live or scheduled); the
 * rows of an item that ended or was cancelled go with it (forgetItem, from the notices' reaction).
 */

/** Starts watching an item (again: nothing changes). Unknown item: 404; MAX_WATCHES already: 409. */
export async function watchItem(db: Db, userId: number, itemId: number, now: number): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const item = await trx.selectFrom('items').select('id').where('id', '=', itemId).executeTakeFirst();
    if (!item) throw new NotFound(STORE_ERRORS.unknownItem);
    const already = await trx.selectFrom('watches').select('item_id').where('user_id', '=', userId).where('item_id', '=', itemId).executeTakeFirst();
    if (already) return;
    if ((await countWatching(trx, userId)) >= MAX_WATCHES) throw new Conflict(NOTICE_ERRORS.tooManyWatches);
    await trx.insertInto('watches').values({ user_id: userId, item_id: itemId, created_at: now }).execute();
  });
}

/** Stops watching an item (not watched: nothing changes). Unknown item: 404. */
export async function unwatchItem(db: Db, userId: number, itemId: number): Promise<void> {
  const item = await db.selectFrom('items').select('id').where('id', '=', itemId).executeTakeFirst();
  if (!item) throw new NotFound(STORE_ERRORS.unknownItem);
  await db.deleteFrom('watches').where('user_id', '=', userId).where('item_id', '=', itemId).execute();
}

/** How many live or scheduled items the player watches. */
async function countWatching(db: Queryable, userId: number): Promise<number> {
  const { n } = await db
    .selectFrom('watches as w')
    .innerJoin('items as i', 'i.id', 'w.item_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('w.user_id', '=', userId)
    .where('i.state', 'in', ['live', 'scheduled'])
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * The live items the player watches by end, then the scheduled ones by start (at most MAX_WATCHES),
 * as GET store/items shapes them for this reader (the reserve's number only for council and admin).
 */
export async function watchlist(db: Queryable, userId: number, now: number, options: { reserve: boolean }): Promise<(StoreItem & Item)[]> {
  const rows = await selectItems(db)
    .innerJoin('watches as w', 'w.item_id', 'i.id')
    .where('w.user_id', '=', userId)
    .where('i.state', 'in', ['live', 'scheduled'])
    .orderBy((eb) => eb.case().when('i.state', '=', 'live').then(0).else(1).end())
    .orderBy((eb) => eb.case().when('i.state', '=', 'live').then(eb.ref('i.ends_at')).else(eb.ref('i.starts_at')).end())
    .orderBy('i.id')
    .limit(MAX_WATCHES)
    .execute();
  return rows.map((r) => toStoreItem(r, now, options));
}

/** Who watches an item (since before `before`, when given). */
export async function watchersOf(db: Queryable, itemId: number, before?: number): Promise<number[]> {
  let query = db.selectFrom('watches').select('user_id').where('item_id', '=', itemId);
  if (before !== undefined) query = query.where('created_at', '<', before);
  const rows = await query.execute();
  return rows.map((r) => Number(r.user_id));
}

/** An item ended or was cancelled: nobody watches it any more. */
export async function forgetItem(db: Queryable, itemId: number): Promise<void> {
  await db.deleteFrom('watches').where('item_id', '=', itemId).execute();
}
