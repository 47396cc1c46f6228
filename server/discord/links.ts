import crypto from 'node:crypto';
import { DISCORD_ERRORS, DISCORD_LINK_TTL_MS } from '../../src/protocol/discord';
import { recordAuditBy } from '../audit/audit';
import type { Db } from '../db/open';
import { uniqueViolation, writeTransaction, type Queryable } from '../db/write';
import { Conflict, Invalid, NotFound } from '../errors';

/** Codes handed out but never used are forgotten this long after they expired. */
const CODES_KEPT_MS = 24 * 3_600_000;

/**
 * A one-time code for `/link`, good for DISCORD_LINK_TTL_MS: the Discord user who typed it, to be
 * linked to whichever signed-in account redeems it. Expired codes are pruned as new ones are made.
 */
export async function newLinkCode(db: Db, discordUserId: string, now: number): Promise<string> {
  const code = crypto.randomBytes(24).toString('base64url');
  await writeTransaction(db, async (trx) => {
    await trx.deleteFrom('discord_link_codes').where('expires_at', '<', now - CODES_KEPT_MS).execute();
    await trx.insertInto('discord_link_codes').values({ code, discord_user_id: discordUserId, created_at: now, expires_at: now + DISCORD_LINK_TTL_MS, used_at: null }).execute();
  });
  return code;
}

/**
 * Links the code's Discord user to `userId` (one Discord user for one account: the account's
 * earlier link is replaced; a Discord user linked to another account is refused). The code is used
 * up in the same transaction, so it links once however many times it is sent.
 */
export async function redeemLinkCode(db: Db, userId: number, code: string, now: number): Promise<string> {
  try {
    return await writeTransaction(db, async (trx) => {
      const row = await trx.selectFrom('discord_link_codes').selectAll().where('code', '=', code).executeTakeFirst();
      if (!row) throw new Invalid(DISCORD_ERRORS.badCode);
      if (row.used_at !== null || row.expires_at <= now) throw new Conflict(DISCORD_ERRORS.codeUsed);
      const taken = await trx.selectFrom('discord_links').select('user_id').where('discord_user_id', '=', row.discord_user_id).executeTakeFirst();
      if (taken && taken.user_id !== userId) throw new Conflict(DISCORD_ERRORS.discordTaken);
      await trx.updateTable('discord_link_codes').set({ used_at: now }).where('code', '=', code).execute();
      await trx.deleteFrom('discord_links').where('user_id', '=', userId).execute();
      await trx.insertInto('discord_links').values({ user_id: userId, discord_user_id: row.discord_user_id, linked_at: now }).execute();
      await recordAuditBy(trx, userId, 'discord.link', `discord:${row.discord_user_id}`, {}, now);
      return row.discord_user_id;
    });
  } catch (error) {
    // another account linked the same Discord user in the same instant
    if (uniqueViolation(error)) throw new Conflict(DISCORD_ERRORS.discordTaken);
    throw error;
  }
}

export async function unlinkDiscord(db: Db, userId: number, now: number): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const link = await trx.selectFrom('discord_links').select('discord_user_id').where('user_id', '=', userId).executeTakeFirst();
    if (!link) throw new NotFound(DISCORD_ERRORS.notLinked);
    await trx.deleteFrom('discord_links').where('user_id', '=', userId).execute();
    await recordAuditBy(trx, userId, 'discord.unlink', `discord:${link.discord_user_id}`, {}, now);
  });
}

export async function discordLinkOf(db: Queryable, userId: number): Promise<{ discordUserId: string; linkedAt: number } | null> {
  const row = await db.selectFrom('discord_links').select(['discord_user_id', 'linked_at']).where('user_id', '=', userId).executeTakeFirst();
  return row ? { discordUserId: row.discord_user_id, linkedAt: Number(row.linked_at) } : null;
}

/** The account a Discord user linked, if it may still sign in (a disabled account answers nothing). */
export async function accountOfDiscord(db: Queryable, discordUserId: string) {
  return db
    .selectFrom('discord_links as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['u.id', 'u.username', 'u.rank', 'u.balance', 'u.reserved', 'u.disabled_at'])
    .where('l.discord_user_id', '=', discordUserId)
    .executeTakeFirst();
}
