import type { Db } from '../db/open';
import { writeTransaction, type Queryable } from '../db/write';
import { recordAuditBy } from '../audit/audit';

export const GROUP_NAME_MAX = 50;

/** Adds a user to a group (created on first use); false when they already were in it. Audited by `actorId` (null: the shell). */
export async function addToGroup(db: Db, userId: number, name: string, now = Date.now(), actorId: number | null = null): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    await trx.insertInto('groups').values({ name, created_at: now }).onConflict((oc) => oc.column('name').doNothing()).execute();
    const group = await trx.selectFrom('groups').select(['id', 'name']).where('name', '=', name).executeTakeFirstOrThrow();
    const inserted = await trx
      .insertInto('user_groups')
      .values({ user_id: userId, group_id: group.id })
      .onConflict((oc) => oc.columns(['user_id', 'group_id']).doNothing())
      .executeTakeFirst();
    const added = Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    if (added) await recordAuditBy(trx, actorId, 'group.add', group.name, { username: await usernameOf(trx, userId) }, now);
    return added;
  });
}

/** Removes a user from a group; false when they were not in it. The group itself stays (items may name it). */
export async function removeFromGroup(db: Db, userId: number, name: string, actorId: number | null = null, now = Date.now()): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    const group = await trx.selectFrom('groups').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
    if (!group) return false;
    const deleted = await trx.deleteFrom('user_groups').where('user_id', '=', userId).where('group_id', '=', group.id).executeTakeFirst();
    const removed = Number(deleted.numDeletedRows) > 0;
    if (removed) await recordAuditBy(trx, actorId, 'group.remove', group.name, { username: await usernameOf(trx, userId) }, now);
    return removed;
  });
}

async function usernameOf(trx: Queryable, userId: number): Promise<string> {
  const row = await trx.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
  return row?.username ?? `#${userId}`;
}

/** Every group with its members' usernames, by name. */
export async function listGroups(db: Queryable): Promise<{ name: string; members: string[] }[]> {
  const groups = await db.selectFrom('groups').select(['id', 'name']).orderBy('name').execute();
  const members = await db
    .selectFrom('user_groups as ug')
    .innerJoin('users as u', 'u.id', 'ug.user_id')
    .select(['ug.group_id', 'u.username'])
    .orderBy('u.username')
    .execute();
  return groups.map((g) => ({ name: g.name, members: members.filter((m) => m.group_id === g.id).map((m) => m.username) }));
}

/** One group with its members, or undefined (the name matched without regard to ASCII case). */
export async function findGroup(db: Queryable, name: string): Promise<{ id: number; name: string; members: string[] } | undefined> {
  const group = await db.selectFrom('groups').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
  if (!group) return undefined;
  const members = await db
    .selectFrom('user_groups as ug')
    .innerJoin('users as u', 'u.id', 'ug.user_id')
    .select('u.username')
    .where('ug.group_id', '=', group.id)
    .orderBy('u.username')
    .execute();
  return { ...group, members: members.map((m) => m.username) };
}

/** Creates an empty group; false when one with this name (any case) exists. */
export async function createGroup(db: Db, name: string, now = Date.now(), actorId: number | null = null): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    const inserted = await trx.insertInto('groups').values({ name, created_at: now }).onConflict((oc) => oc.column('name').doNothing()).executeTakeFirst();
    const created = Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    if (created) await recordAuditBy(trx, actorId, 'group.create', name, {}, now);
    return created;
  });
}

/** Deletes a group and its memberships (items that name it keep the name: nobody is in it any more). */
export async function deleteGroup(db: Db, name: string, actorId: number | null = null, now = Date.now()): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    const group = await trx.selectFrom('groups').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
    if (!group) return false;
    const members = await trx.deleteFrom('user_groups').where('group_id', '=', group.id).executeTakeFirst();
    await trx.deleteFrom('groups').where('id', '=', group.id).execute();
    await recordAuditBy(trx, actorId, 'group.delete', group.name, { members: Number(members.numDeletedRows) }, now);
    return true;
  });
}

/** The names of the groups a user belongs to. */
export async function groupsOf(db: Queryable, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('user_groups as ug').innerJoin('groups as g', 'g.id', 'ug.group_id').select('g.name').where('ug.user_id', '=', userId).execute();
  return rows.map((r) => r.name);
}
