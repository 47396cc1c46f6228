import type { Db } from '../db/open';

export const GROUP_NAME_MAX = 50;

/** Adds a user to a group (created on first use); false when they already were in it. */
export async function addToGroup(db: Db, userId: number, name: string, now = Date.now()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.insertInto('groups').values({ name, created_at: now }).onConflict((oc) => oc.column('name').doNothing()).execute();
    const group = await trx.selectFrom('groups').select('id').where('name', '=', name).executeTakeFirstOrThrow();
    const inserted = await trx
      .insertInto('user_groups')
      .values({ user_id: userId, group_id: group.id })
      .onConflict((oc) => oc.columns(['user_id', 'group_id']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  });
}

/** Removes a user from a group; false when they were not in it. The group itself stays (items may name it). */
export async function removeFromGroup(db: Db, userId: number, name: string): Promise<boolean> {
  const group = await db.selectFrom('groups').select('id').where('name', '=', name).executeTakeFirst();
  if (!group) return false;
  const deleted = await db.deleteFrom('user_groups').where('user_id', '=', userId).where('group_id', '=', group.id).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
