import {
  DEFAULT_NOTICE_PREFERENCES,
  NOTICE_CHANNELS,
  NOTICE_KINDS,
  NOTICES_PAGE_SIZE,
  type Notice,
  type NoticeChannel,
  type NoticeKind,
  type NoticePreferences,
  type NoticesAnswer,
} from '../../src/protocol/notices';
import type { Db } from '../db/open';
import type { Queryable } from '../db/write';

/**
 * Notices: what reached each account (its `notices` rows, kept NOTICE_KEEP_MS) and what each
 * player chose for them (`notice_preferences`). This module owns both tables; notices are made in
 * server/notices/producer.ts and nowhere else.
 */

/** A `notices` row as the producer reads it back; the list reads it without its owner and channel. */
export interface NoticeRow {
  id: number;
  user_id: number;
  kind: string;
  at: number;
  read: number;
  item_id: number | null;
  item_name: string | null;
  amount: number | null;
  channel: string;
}

/** A row on the wire (without `read` it is the NOTICE frame's data). */
export function toNotice(r: Omit<NoticeRow, 'user_id' | 'channel'>): Notice {
  return {
    id: Number(r.id),
    kind: r.kind as NoticeKind,
    at: Number(r.at),
    read: Number(r.read) === 1,
    ...(r.item_id === null ? {} : { itemId: Number(r.item_id) }),
    ...(r.item_name === null ? {} : { itemName: r.item_name }),
    ...(r.amount === null ? {} : { amount: Number(r.amount) }),
  };
}

export const NOTICE_COLUMNS = ['id', 'kind', 'at', 'read', 'item_id', 'item_name', 'amount'] as const;

/** The channels that show a notice in the app (the bell, the notices page, the NOTICE frame); `discord` and `none` are kept, not shown. */
export const APP_CHANNELS = ['app', 'both'] as const;

async function unreadOf(db: Queryable, userId: number): Promise<number> {
  const { n } = await db
    .selectFrom('notices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('channel', 'in', APP_CHANNELS)
    .where('read', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** One page of the account's notices, newest first, with how many are unread. */
export async function listNotices(db: Queryable, userId: number, page = 1): Promise<NoticesAnswer> {
  const [rows, total, unread] = await Promise.all([
    db
      .selectFrom('notices')
      .select(NOTICE_COLUMNS)
      .where('user_id', '=', userId)
      .where('channel', 'in', APP_CHANNELS)
      .orderBy('id', 'desc')
      .limit(NOTICES_PAGE_SIZE)
      .offset((page - 1) * NOTICES_PAGE_SIZE)
      .execute(),
    db.selectFrom('notices').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('channel', 'in', APP_CHANNELS).executeTakeFirstOrThrow(),
    unreadOf(db, userId),
  ]);
  return { result: true, unread, page, pages: Math.max(1, Math.ceil(Number(total.n) / NOTICES_PAGE_SIZE)), notices: rows.map(toNotice) };
}

/** Every notice of the account up to `upTo` (an id) is read; answers how many are still unread. */
export async function markRead(db: Db, userId: number, upTo: number): Promise<number> {
  await db.updateTable('notices').set({ read: 1 }).where('user_id', '=', userId).where('id', '<=', upTo).where('read', '=', 0).execute();
  return unreadOf(db, userId);
}

/** What a stored row says, with the defaults for what it lacks (a kind added since it was saved). */
function preferencesOf(row: { channels: string; ending_lead_minutes: number } | undefined): NoticePreferences {
  if (!row) return { channels: { ...DEFAULT_NOTICE_PREFERENCES.channels }, endingLeadMinutes: DEFAULT_NOTICE_PREFERENCES.endingLeadMinutes };
  const saved = JSON.parse(row.channels) as Partial<Record<string, string>>;
  const channels = { ...DEFAULT_NOTICE_PREFERENCES.channels };
  for (const kind of NOTICE_KINDS) {
    const channel = saved[kind];
    if (channel !== undefined && (NOTICE_CHANNELS as readonly string[]).includes(channel)) channels[kind] = channel as NoticeChannel;
  }
  const lead = Number(row.ending_lead_minutes);
  return { channels, endingLeadMinutes: lead === 15 || lead === 1 ? lead : 5 };
}

export async function readPreferences(db: Queryable, userId: number): Promise<NoticePreferences> {
  return preferencesOf(await db.selectFrom('notice_preferences').select(['channels', 'ending_lead_minutes']).where('user_id', '=', userId).executeTakeFirst());
}

/** Several accounts' preferences at once (the defaults for those who never chose). */
export async function preferencesFor(db: Queryable, userIds: readonly number[]): Promise<Map<number, NoticePreferences>> {
  const out = new Map<number, NoticePreferences>();
  const ids = [...new Set(userIds)];
  for (let at = 0; at < ids.length; at += 400) {
    const rows = await db.selectFrom('notice_preferences').select(['user_id', 'channels', 'ending_lead_minutes']).where('user_id', 'in', ids.slice(at, at + 400)).execute();
    for (const row of rows) out.set(Number(row.user_id), preferencesOf(row));
  }
  for (const id of ids) if (!out.has(id)) out.set(id, preferencesOf(undefined));
  return out;
}

export async function savePreferences(db: Db, userId: number, preferences: NoticePreferences, now: number): Promise<NoticePreferences> {
  const values = { channels: JSON.stringify(preferences.channels), ending_lead_minutes: preferences.endingLeadMinutes, updated_at: now };
  await db
    .insertInto('notice_preferences')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
  return readPreferences(db, userId);
}
