import crypto from 'node:crypto';
import { CARD_ERRORS, SHARE_LINK_TTL_MS, SHARE_LINKS_PER_USER, type ShareLink } from '../../src/protocol/cards';
import { recordAuditBy } from '../audit/audit';
import type { Db } from '../db/open';
import { writeTransaction } from '../db/write';
import { Conflict, Forbidden, NotFound } from '../errors';
import { rankAllows } from '../auth/access';
import type { Viewer } from './data';

/**
 * Share links (the share_links table, migration 0015): a token of 32 random bytes that shows one
 * card's image to anyone until it expires (SHARE_LINK_DAYS after it was made) or its creator or an
 * admin revokes it. The link keeps the card's path; the card is drawn with what its creator may read.
 */

/** The public address of a link's image, under `origin` (the server's own, as the request named it). */
export const shareUrl = (origin: string, token: string) => `${origin}/cards/shared/${token}.png`;

/** What `/cards/shared/:token.png` accepts as a token: base64url of 32 bytes. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

type LinkRow = { id: number; token: string; path: string; created_at: number; expires_at: number; revoked_at: number | null; username: string };

const toLink = (origin: string, r: LinkRow): ShareLink => ({
  id: r.id,
  url: shareUrl(origin, r.token),
  path: r.path,
  username: r.username,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
  revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
});

const selectLinks = (db: Db) =>
  db
    .selectFrom('share_links as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.id', 'l.token', 'l.path', 'l.created_at', 'l.expires_at', 'l.revoked_at', 'u.username']);

/** A new link to `path` (already checked to be a card the creator may read). */
export async function createShareLink(db: Db, userId: number, path: string, now: number, origin: string): Promise<ShareLink> {
  return writeTransaction(db, async (trx) => {
    const live = await trx
      .selectFrom('share_links')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    if (Number(live.n) >= SHARE_LINKS_PER_USER) throw new Conflict(CARD_ERRORS.tooManyLinks);
    const token = crypto.randomBytes(32).toString('base64url');
    const row = await trx
      .insertInto('share_links')
      .values({ token, user_id: userId, path, created_at: now, expires_at: now + SHARE_LINK_TTL_MS, revoked_at: null, revoked_by: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = await trx.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirstOrThrow();
    return toLink(origin, { id: row.id, token, path, created_at: now, expires_at: now + SHARE_LINK_TTL_MS, revoked_at: null, username: user.username });
  });
}

/** The live link of a token and its creator as they are now (404 when unknown, expired, revoked, or its creator is disabled). */
export async function liveShareLink(db: Db, token: string, now: number): Promise<{ path: string; creator: Viewer }> {
  if (!TOKEN_PATTERN.test(token)) throw new NotFound(CARD_ERRORS.linkGone);
  const row = await db
    .selectFrom('share_links as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.path', 'l.expires_at', 'l.revoked_at', 'u.id', 'u.rank', 'u.disabled_at'])
    .where('l.token', '=', token)
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || Number(row.expires_at) <= now || row.disabled_at !== null) throw new NotFound(CARD_ERRORS.linkGone);
  return { path: row.path, creator: { id: row.id, rank: row.rank } };
}

/** Links newest first: the caller's own, or (admin, `all`) everyone's; at most 500. */
export async function listShareLinks(db: Db, origin: string, userId: number | null): Promise<ShareLink[]> {
  let query = selectLinks(db);
  if (userId !== null) query = query.where('l.user_id', '=', userId);
  const rows = await query.orderBy('l.id', 'desc').limit(500).execute();
  return rows.map((r) => toLink(origin, r as LinkRow));
}

/** Revokes a link: its creator or an admin (an admin revoking another's link is audited). Revoking twice changes nothing. */
export async function revokeShareLink(db: Db, id: number, actor: Viewer, now: number): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const row = await trx.selectFrom('share_links').select(['user_id', 'path', 'revoked_at']).where('id', '=', id).executeTakeFirst();
    if (!row) throw new NotFound(CARD_ERRORS.unknownLink);
    const own = row.user_id === actor.id;
    if (!own && !rankAllows(actor.rank, 'admin')) throw new Forbidden(CARD_ERRORS.notYourLink);
    if (row.revoked_at !== null) return;
    await trx.updateTable('share_links').set({ revoked_at: now, revoked_by: actor.id }).where('id', '=', id).execute();
    if (!own) await recordAuditBy(trx, actor.id, 'share.revoke', `share link ${id}`, { path: row.path, creator: row.user_id }, now);
  });
}
