import crypto from 'node:crypto';
import { BOT_ERRORS } from '../../src/protocol/bots';
import { recordAudit } from '../audit/audit';
import type { Db } from '../db/open';
import type { BotsTable } from '../db/schema';
import { writeTransaction } from '../db/write';
import { Conflict, NotFound } from '../errors';
import type { Selectable } from 'kysely';

/**
 * The bots an admin registered. A token is `kbot_` and 32 random bytes
 * (base64url); only its SHA-256 is stored, so the database never holds a usable token. The token is
 * high-entropy, so a fast hash is enough (no argon2), and a lookup is one indexed equality.
 */
export type BotRow = Selectable<BotsTable>;
export const BOT_TOKEN_PREFIX = 'kbot_';
export const MAX_BOTS = 100;

export interface Actor {
  id: number;
  name: string;
}

export function newBotToken(): string {
  return BOT_TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
}

export function hashBotToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The live (not revoked) bot whose token this is, or null. */
export async function findBotByToken(db: Db, token: string): Promise<BotRow | null> {
  if (!token.startsWith(BOT_TOKEN_PREFIX) || token.length > 100) return null;
  const row = await db.selectFrom('bots').selectAll().where('token_hash', '=', hashBotToken(token)).where('revoked_at', 'is', null).executeTakeFirst();
  return row ?? null;
}

export async function findBot(db: Db, id: number): Promise<BotRow> {
  const row = await db.selectFrom('bots').selectAll().where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  if (!row) throw new NotFound(BOT_ERRORS.unknownBot);
  return row;
}

export async function listBotRows(db: Db): Promise<BotRow[]> {
  return db.selectFrom('bots').selectAll().where('revoked_at', 'is', null).orderBy('name').orderBy('id').execute();
}

export async function registerBot(db: Db, name: string, actor: Actor, now: number): Promise<{ bot: BotRow; token: string }> {
  const token = newBotToken();
  const bot = await writeTransaction(db, async (trx) => {
    const live = await trx.selectFrom('bots').select(['id', 'name']).where('revoked_at', 'is', null).execute();
    if (live.length >= MAX_BOTS) throw new Conflict(BOT_ERRORS.tooManyBots);
    if (live.some((b) => b.name.toLowerCase() === name.toLowerCase())) throw new Conflict(BOT_ERRORS.nameTaken);
    const row = await trx
      .insertInto('bots')
      .values({ name, token_hash: hashBotToken(token), created_at: now, created_by: actor.id })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, { actor, action: 'bot.register', target: name, detail: { botId: row.id } }, now);
    return row;
  });
  return { bot, token };
}

/** A new token for the bot; the old one stops working at once (its connection is closed by the caller). */
export async function rotateBotToken(db: Db, id: number, actor: Actor, now: number): Promise<{ bot: BotRow; token: string }> {
  const token = newBotToken();
  const bot = await writeTransaction(db, async (trx) => {
    const found = await trx.selectFrom('bots').selectAll().where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    if (!found) throw new NotFound(BOT_ERRORS.unknownBot);
    await trx.updateTable('bots').set({ token_hash: hashBotToken(token) }).where('id', '=', id).execute();
    await recordAudit(trx, { actor, action: 'bot.rotate', target: found.name, detail: { botId: id } }, now);
    return found;
  });
  return { bot, token };
}

export async function revokeBot(db: Db, id: number, actor: Actor, now: number): Promise<BotRow> {
  return writeTransaction(db, async (trx) => {
    const found = await trx.selectFrom('bots').selectAll().where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    if (!found) throw new NotFound(BOT_ERRORS.unknownBot);
    await trx.updateTable('bots').set({ revoked_at: now }).where('id', '=', id).execute();
    await recordAudit(trx, { actor, action: 'bot.revoke', target: found.name, detail: { botId: id } }, now);
    return found;
  });
}

export async function touchBot(db: Db, id: number, fields: { last_seen_at?: number; version?: string; commands?: string; last_scan_at?: number }): Promise<void> {
  await db.updateTable('bots').set(fields).where('id', '=', id).execute();
}
