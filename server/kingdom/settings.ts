import type { z } from 'zod/mini';
import type { KingdomSettings, settingsBody } from '../../src/protocol/settings';
import type { Selectable } from 'kysely';
import type { KingdomSettingsTable } from '../db/schema';
import type { Queryable } from '../db/write';
import { writeTransaction } from '../db/write';
import type { Db } from '../db/open';
import { recordAuditBy } from '../audit/audit';

function toSettings(row: Selectable<KingdomSettingsTable>): KingdomSettings {
  return {
    kingdomName: row.kingdom_name,
    kingdomNumber: row.kingdom_number,
    storeOpen: row.store_open === 1,
    defaults: {
      duration: row.default_duration_s,
      minIncrement: row.default_min_increment,
      extendWindow: row.default_extend_window_s,
      maxExtensions: row.default_max_extensions,
    },
  };
}

/** The kingdom's settings (one row, made by the migration). */
export async function readSettings(db: Queryable): Promise<KingdomSettings> {
  return toSettings(await db.selectFrom('kingdom_settings').selectAll().where('id', '=', 1).executeTakeFirstOrThrow());
}

/**
 * Changes what the body names, keeps the rest; remembers who and when. When the store opens or
 * closes, `onStoreChange` runs in the same transaction (the auction engine holds or resumes the
 * live items there, so the store's state and the items' ends never disagree).
 */
export async function updateSettings(
  db: Db,
  body: z.output<typeof settingsBody>,
  actorId: number,
  now: number,
  onStoreChange?: (trx: Queryable, open: boolean) => Promise<void>,
): Promise<KingdomSettings> {
  return writeTransaction(db, async (trx) => {
    const d = body.defaults ?? {};
    const before = await trx.selectFrom('kingdom_settings').select('store_open').where('id', '=', 1).executeTakeFirstOrThrow();
    const row = await trx
      .updateTable('kingdom_settings')
      .set({
        ...(body.kingdomName === undefined ? {} : { kingdom_name: body.kingdomName }),
        ...(body.kingdomNumber === undefined ? {} : { kingdom_number: body.kingdomNumber }),
        ...(body.storeOpen === undefined ? {} : { store_open: body.storeOpen ? 1 : 0 }),
        ...(d.duration === undefined ? {} : { default_duration_s: d.duration }),
        ...(d.minIncrement === undefined ? {} : { default_min_increment: d.minIncrement }),
        ...(d.extendWindow === undefined ? {} : { default_extend_window_s: d.extendWindow }),
        ...(d.maxExtensions === undefined ? {} : { default_max_extensions: d.maxExtensions }),
        updated_at: now,
        updated_by: actorId,
      })
      .where('id', '=', 1)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (onStoreChange && row.store_open !== before.store_open) await onStoreChange(trx, row.store_open === 1);
    // audited with the change: the store's opening or closing on its own, the other settings together
    if (row.store_open !== before.store_open) await recordAuditBy(trx, actorId, row.store_open === 1 ? 'store.open' : 'store.close', 'store', {}, now);
    const { storeOpen: _store, ...rest } = body;
    if (Object.values(rest).some((v) => v !== undefined)) await recordAuditBy(trx, actorId, 'settings.change', 'kingdom', rest, now);
    return toSettings(row);
  });
}

/** Whether the council has the store open (bids taken, items run); read inside the caller's transaction. */
export async function storeIsOpen(db: Queryable): Promise<boolean> {
  const row = await db.selectFrom('kingdom_settings').select('store_open').where('id', '=', 1).executeTakeFirst();
  return !row || row.store_open === 1;
}
