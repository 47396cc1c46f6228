import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  InteractionResponseType,
  InteractionType,
  MessageFlags,
  type APIApplicationCommandAutocompleteResponse,
  type APIApplicationCommandInteractionDataBasicOption,
  type APIInteraction,
  type APIInteractionResponse,
  type APIInteractionResponseChannelMessageWithSource,
} from 'discord-api-types/v10';
import type { Db } from '../db/open';
import { BucketMap } from '../sockets/rate-limit';
import { accountOfDiscord, newLinkCode } from './links';
import { fill } from '../../src/protocol/texts';
import { DISCORD_TEXTS, localeOfDiscord } from './texts';
import { ask, autocompleteGovernor, type AskDeps } from './ask';

/** The commands Kingdom installs. */
export const DISCORD_COMMANDS = ['link', 'me', 'stats', 'top', 'kvk', 'points', 'auctions'] as const;
/** A command carries a handful of options; more is not Discord's. */
const OPTIONS_MAX = 10;

const privately = (content: string): APIInteractionResponseChannelMessageWithSource => ({
  type: InteractionResponseType.ChannelMessageWithSource,
  data: { content, flags: MessageFlags.Ephemeral, allowed_mentions: { parse: [] } },
});
const noChoices: APIApplicationCommandAutocompleteResponse = { type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices: [] } };

export interface InteractionDeps extends AskDeps {
  db: Db;
  now: () => number;
  /** This server's public origin, as Discord reached it (the `/link` answer's address, the item buttons). */
  origin: string;
  /** Each Discord user's budget: false when this interaction is over it (`kind`: a command, or an autocomplete keystroke). */
  withinBudget: (discordUserId: string, kind: 'command' | 'autocomplete') => boolean;
}

/** What one Discord user may ask: a command costs a query or a card, an autocomplete keystroke one indexed search. */
export const INTERACTION_BUDGETS = {
  command: { burst: 20, perSecond: 0.5 },
  autocomplete: { burst: 40, perSecond: 5 },
} as const;

/** Per-user token buckets for the interactions endpoint, swept as they fill again (one process's share, as the other routes' limits). */
export function interactionBudgets(clock: () => number) {
  const maps = { command: new BucketMap<string>(INTERACTION_BUDGETS.command, clock), autocomplete: new BucketMap<string>(INTERACTION_BUDGETS.autocomplete, clock) };
  let calls = 0;
  return (discordUserId: string, kind: 'command' | 'autocomplete'): boolean => {
    if (++calls % 1000 === 0) for (const map of Object.values(maps)) map.sweep();
    return maps[kind].get(discordUserId).take();
  };
}

/** The options of a chat command (its subcommands are none of ours: no options then). */
function basicOptions(interaction: APIInteraction): APIApplicationCommandInteractionDataBasicOption[] {
  if (interaction.type !== InteractionType.ApplicationCommand && interaction.type !== InteractionType.ApplicationCommandAutocomplete) return [];
  const data = interaction.data as { type?: number; options?: unknown };
  if (data.type !== ApplicationCommandType.ChatInput || !Array.isArray(data.options)) return [];
  return (data.options as APIApplicationCommandInteractionDataBasicOption[])
    .filter((o) => o && typeof o === 'object' && typeof o.name === 'string' && typeof o.type === 'number')
    .slice(0, OPTIONS_MAX);
}

/**
 * The answer to one verified interaction; every path is a few indexed queries at most, and what
 * needs a card is deferred (answered at once, completed by a follow-up once the card is drawn).
 */
export async function answerInteraction(deps: InteractionDeps, interaction: APIInteraction): Promise<APIInteractionResponse> {
  if (interaction.type === InteractionType.Ping) return { type: InteractionResponseType.Pong };
  const lang = localeOfDiscord(interaction.locale);
  const t = DISCORD_TEXTS[lang];
  const discordUserId = interaction.member?.user.id ?? interaction.user?.id;
  if (interaction.type === InteractionType.ApplicationCommandAutocomplete) {
    const focused = basicOptions(interaction).find((o) => 'focused' in o && o.focused);
    if (!discordUserId || !focused || focused.name !== 'governor' || focused.type !== ApplicationCommandOptionType.String || typeof focused.value !== 'string') return noChoices;
    if (!deps.withinBudget(discordUserId, 'autocomplete')) return noChoices;
    const account = await accountOfDiscord(deps.db, discordUserId);
    return autocompleteGovernor(deps.db, focused.value, account && account.disabled_at === null ? account : null);
  }
  if (interaction.type !== InteractionType.ApplicationCommand) return privately(t.unknown);
  const name = interaction.data.name;
  if (!discordUserId || !(DISCORD_COMMANDS as readonly string[]).includes(name)) return privately(t.unknown);
  if (!deps.withinBudget(discordUserId, 'command')) return privately(t.slowDown);
  if (name === 'link') {
    const code = await newLinkCode(deps.db, discordUserId, deps.now());
    return privately(fill(t.link, { url: `${deps.origin}/my-account/account-settings?discord=${code}` }));
  }
  const account = await accountOfDiscord(deps.db, discordUserId);
  if (!account) return privately(t.needsLink);
  if (account.disabled_at !== null) return privately(t.disabled);
  if (name === 'points') return privately(await pointsText(deps.db, account, lang));
  return ask(deps, name, { applicationId: interaction.application_id, token: interaction.token, lang, options: basicOptions(interaction) }, account);
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
