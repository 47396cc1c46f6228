import {
  InteractionResponseType,
  InteractionType,
  MessageFlags,
  type APIApplicationCommandAutocompleteResponse,
  type APIInteraction,
  type APIInteractionResponse,
  type APIInteractionResponseChannelMessageWithSource,
} from 'discord-api-types/v10';
import type { Db } from '../db/open';
import { accountOfDiscord, newLinkCode } from './links';
import { fill } from '../../src/protocol/texts';
import { DISCORD_TEXTS, localeOfDiscord } from './texts';

/** The commands Kingdom installs; those not answered here yet say so plainly. */
export const DISCORD_COMMANDS = ['link', 'me', 'stats', 'top', 'kvk', 'points', 'auctions'] as const;

const privately = (content: string): APIInteractionResponseChannelMessageWithSource => ({
  type: InteractionResponseType.ChannelMessageWithSource,
  data: { content, flags: MessageFlags.Ephemeral, allowed_mentions: { parse: [] } },
});

export interface InteractionDeps {
  db: Db;
  now: () => number;
  /** This server's public origin, as Discord reached it (the `/link` answer's address). */
  origin: string;
}

/** The answer to one verified interaction; every path is a few indexed queries at most. */
export async function answerInteraction(deps: InteractionDeps, interaction: APIInteraction): Promise<APIInteractionResponse> {
  if (interaction.type === InteractionType.Ping) return { type: InteractionResponseType.Pong };
  const t = DISCORD_TEXTS[localeOfDiscord(interaction.locale)];
  if (interaction.type === InteractionType.ApplicationCommandAutocomplete) {
    const none: APIApplicationCommandAutocompleteResponse = { type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices: [] } };
    return none;
  }
  if (interaction.type !== InteractionType.ApplicationCommand) return privately(t.unknown);
  const discordUserId = interaction.member?.user.id ?? interaction.user?.id;
  const name = interaction.data.name;
  if (!discordUserId || !(DISCORD_COMMANDS as readonly string[]).includes(name)) return privately(t.unknown);
  if (name === 'link') {
    const code = await newLinkCode(deps.db, discordUserId, deps.now());
    return privately(fill(t.link, { url: `${deps.origin}/my-account/account-settings?discord=${code}` }));
  }
  const account = await accountOfDiscord(deps.db, discordUserId);
  if (!account) return privately(t.needsLink);
  if (account.disabled_at !== null) return privately(t.disabled);
  if (name === 'points') return privately(await pointsText(deps.db, account, localeOfDiscord(interaction.locale)));
  return privately(t.notYet);
}

async function pointsText(db: Db, account: { id: number; balance: number; reserved: number }, lang: ReturnType<typeof localeOfDiscord>): Promise<string> {
  const t = DISCORD_TEXTS[lang];
  const number = new Intl.NumberFormat(lang === 'ar' ? 'ar-EG' : lang);
  const date = new Intl.DateTimeFormat(lang === 'ar' ? 'ar-EG' : lang, { dateStyle: 'medium', timeZone: 'UTC' });
  const entries = await db.selectFrom('points_transactions').select(['delta', 'reason', 'created_at']).where('user_id', '=', account.id).orderBy('id', 'desc').limit(5).execute();
  const lines = [fill(t.points, { balance: number.format(account.balance), reserved: number.format(account.reserved), available: number.format(account.balance - account.reserved) }), '', t.lastEntries];
  if (entries.length === 0) lines.push(t.noEntries);
  // a reason is a sentence leadership wrote: one line of it, never a mention or a markdown link
  for (const e of entries) lines.push(`${date.format(Number(e.created_at))}  ${e.delta > 0 ? '+' : ''}${number.format(e.delta)}  ${e.reason.split('\n')[0].replace(/[`*_~|<>[\]@]/g, '').slice(0, 80)}`);
  return lines.join('\n');
}
