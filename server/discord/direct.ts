import { LOCALES, type Locale } from '../../src/protocol/locales';
import type { NoticeKind } from '../../src/protocol/notices';
import { fill } from '../../src/protocol/texts';
import { isPostgres } from '../db/dialect';
import type { Db } from '../db/open';
import type { Queryable } from '../db/write';
import { cursorTurn, moveCursor, PG_SETTLE_MS, startCursor } from '../events/cursor';
import { DM_TEXTS } from './dm-texts';

/**
 * Discord direct messages: the notices whose owner chose Discord (`discord` or `both`) and whose
 * account is linked, queued in the outbox as channel `dm` (its `event_id` is then the notice's id,
 * so each notice is queued once) and sent there with the bot token, within Discord's rate limits.
 * A pass reads the notices table from its own cursor; a notice made before the first start, or
 * while the account was not linked, is not sent later.
 */
export const DM_CHANNEL = 'dm';
/** The cursor (the last notice id read) in event_cursors. */
const CURSOR = 'discord-dms';
/** Notices read per turn. */
const BATCH = 200;

/** What the outbox stores for a direct message. */
export interface DirectBody {
  recipientId: string;
  content: string;
}

interface NoticeRow {
  id: number;
  kind: string;
  item_name: string | null;
  amount: number | null;
  discord_user_id: string;
  locale: string;
}

/** The notice as one sentence in the player's language. */
export function directText(kind: NoticeKind, locale: string, itemName: string | null, amount: number | null): string {
  const lang: Locale = (LOCALES as readonly string[]).includes(locale) ? (locale as Locale) : 'en';
  const texts = DM_TEXTS[lang];
  const text = kind === 'points' && (amount ?? 0) < 0 ? texts.pointsDown : texts[kind];
  // the item's name as a player wrote it: isolated, so a name in another script does not turn the sentence around
  return fill(text, { item: `\u2068${itemName ?? ''}\u2069`, amount: new Intl.NumberFormat(lang).format(Math.abs(amount ?? 0)) });
}

/** Starts the cursor at the newest notice (what was made before is not sent), once. */
export function startDirectCursor(db: Db): Promise<void> {
  return startCursor(db, CURSOR, 'notices');
}

/**
 * One turn: queues the direct messages of the notices past the cursor and moves it, in one
 * transaction; the number of notices read (a full batch: call again). On PostgreSQL one process
 * holds the cursor for the turn; the others read nothing.
 */
export async function queueDirectMessages(db: Db, now: number, giveUpMs: number): Promise<number> {
  const read = await cursorTurn(
    db,
    CURSOR,
    async (trx, last) => {
      let query = trx
        .selectFrom('notices as n')
        .select(['n.id', 'n.kind', 'n.item_name', 'n.amount', 'n.channel'])
        .where('n.id', '>', last)
        .orderBy('n.id')
        .limit(BATCH);
      if (isPostgres(db)) query = query.where('n.at', '<=', now - PG_SETTLE_MS);
      const notices = await query.execute();
      if (notices.length === 0) return 0;
      const wanted = notices.filter((n) => n.channel === 'discord' || n.channel === 'both').map((n) => Number(n.id));
      if (wanted.length > 0) {
        const rows = (await trx
          .selectFrom('notices as n')
          .innerJoin('discord_links as l', 'l.user_id', 'n.user_id')
          .innerJoin('users as u', 'u.id', 'n.user_id')
          .select(['n.id', 'n.kind', 'n.item_name', 'n.amount', 'l.discord_user_id', 'u.locale'])
          .where('n.id', 'in', wanted)
          .execute()) as NoticeRow[];
        await queue(trx, rows, now, now + giveUpMs);
      }
      await moveCursor(trx, CURSOR, Number(notices[notices.length - 1].id));
      return notices.length;
    },
    { atomic: true },
  );
  return read ?? 0;
}

async function queue(on: Queryable, rows: readonly NoticeRow[], now: number, giveUpAt: number): Promise<void> {
  if (rows.length === 0) return;
  await on
    .insertInto('discord_outbox')
    .values(
      rows.map((r) => ({
        event_id: Number(r.id),
        channel: DM_CHANNEL,
        kind: `notice.${r.kind}`,
        body: JSON.stringify({ recipientId: r.discord_user_id, content: directText(r.kind as NoticeKind, r.locale, r.item_name, r.amount === null ? null : Number(r.amount)) } satisfies DirectBody),
        status: 'pending',
        created_at: now,
        next_at: now,
        give_up_at: giveUpAt,
      })),
    )
    .onConflict((oc) => oc.columns(['event_id', 'channel']).doNothing())
    .execute();
}
