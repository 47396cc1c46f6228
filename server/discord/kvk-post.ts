import { DISCORD_ERRORS } from '../../src/protocol/discord';
import type { CardService } from '../cards/service';
import type { Db } from '../db/open';
import { writeTransaction } from '../db/write';
import { Conflict } from '../errors';
import { actorOf, emit } from '../events/events';
import { readDiscordConfig } from './settings';

/**
 * The KvK Dashboard's "Post to Discord": the season's standings card (its window and alliance, top
 * 10 or 25) goes to the kvk webhook. The request is checked as the card route checks it (the
 * season, window and alliance exist; the poster's rank) and recorded as a `kvk.posted` event; the
 * `discord-announcements` reaction queues it in the outbox once, which sends it with the card drawn
 * then, within Discord's rate limits, retried for a day.
 */
export async function postKvkStandings(
  db: Db,
  cards: Pick<CardService, 'prepare'>,
  poster: { id: number; rank: string },
  input: { seasonId: number; window?: string; alliance?: string; top: 10 | 25 },
  now: number,
): Promise<void> {
  const config = await readDiscordConfig(db);
  if (!config?.webhooks.kvk) throw new Conflict(DISCORD_ERRORS.noKvkWebhook);
  const window = input.window?.trim() || undefined;
  const alliance = input.alliance?.trim() || undefined;
  // 404 for a season or window that is not, 403 for a rank that may not read the card
  await cards.prepare({ kind: 'kvk', seasonId: input.seasonId, ...(window ? { window } : {}), ...(alliance ? { alliance } : {}), top: input.top, lang: config.language, theme: 'dark' }, poster);
  await writeTransaction(db, (trx) => emit(trx, 'kvk.posted', { seasonId: input.seasonId, window: window ?? null, alliance: alliance ?? null, top: input.top }, actorOf(poster.id), now));
}
