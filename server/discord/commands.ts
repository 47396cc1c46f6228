import { ApplicationCommandOptionType, ApplicationCommandType, type RESTPutAPIApplicationGuildCommandsJSONBody } from 'discord-api-types/v10';
import type { Locale } from '../../src/protocol/locales';
import { CARD_STATS } from '../cards/data';
import { CARD_TEXTS } from '../cards/texts';
import { refusal, unreachable } from './refusals';

/** Discord's locales for our languages besides English (Discord has no Arabic client: an Arabic reader's locale is another). */
const DISCORD_LOCALES: [string, Locale][] = [['fr', 'fr'], ['es-ES', 'es'], ['es-419', 'es'], ['it', 'it'], ['zh-CN', 'zh'], ['zh-TW', 'zh']];
const localized = (text: (lang: Locale) => string) => Object.fromEntries(DISCORD_LOCALES.map(([discord, lang]) => [discord, text(lang)]));
import type { DiscordConfig } from './settings';

/** The slash commands Kingdom installs in the kingdom's guild (names fixed; Discord shows the descriptions). */
export const COMMAND_DEFINITIONS: RESTPutAPIApplicationGuildCommandsJSONBody = [
  { type: ApplicationCommandType.ChatInput, name: 'link', description: 'Link your Discord account to your Kingdom account' },
  { type: ApplicationCommandType.ChatInput, name: 'me', description: 'Your governors, points and KvK progress' },
  {
    type: ApplicationCommandType.ChatInput,
    name: 'stats',
    description: "A governor's stats card",
    options: [{ type: ApplicationCommandOptionType.String, name: 'governor', description: 'Name or id', required: true, autocomplete: true }],
  },
  {
    type: ApplicationCommandType.ChatInput,
    name: 'top',
    description: 'The kingdom’s top governors by a stat',
    options: [
      {
        type: ApplicationCommandOptionType.String,
        name: 'stat',
        description: 'Power, kill points, deads…',
        required: true,
        choices: CARD_STATS.map((stat) => ({ name: CARD_TEXTS.en[stat], value: stat, name_localizations: localized((lang) => CARD_TEXTS[lang][stat]) })),
      },
      { type: ApplicationCommandOptionType.String, name: 'alliance', description: 'Only this alliance (tag)' },
      { type: ApplicationCommandOptionType.Integer, name: 'count', description: 'How many (10 or 25)', min_value: 1, max_value: 25 },
    ],
  },
  {
    type: ApplicationCommandType.ChatInput,
    name: 'kvk',
    description: 'KvK progress',
    options: [{ type: ApplicationCommandOptionType.String, name: 'governor', description: 'Name or id', autocomplete: true }],
  },
  { type: ApplicationCommandType.ChatInput, name: 'points', description: 'Your points (only you see the answer)' },
  { type: ApplicationCommandType.ChatInput, name: 'auctions', description: 'Live and upcoming auctions' },
];

/** How long Discord may take to install the commands. */
const INSTALL_TIMEOUT_MS = 10_000;

/**
 * Installs the commands in the guild (one bulk overwrite: commands no longer listed go away).
 * Null when Discord took them, else why not, in words an admin can act on.
 */
export async function installCommands(config: DiscordConfig, apiUrl: string, fetchImpl: typeof fetch = fetch): Promise<string | null> {
  if (!config.botToken) return 'Save the bot token first (Discord shows it under Bot, Reset Token).';
  let response: Response;
  try {
    response = await fetchImpl(`${apiUrl}/applications/${config.applicationId}/guilds/${config.guildId}/commands`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bot ${config.botToken}` },
      body: JSON.stringify(COMMAND_DEFINITIONS),
      signal: AbortSignal.timeout(INSTALL_TIMEOUT_MS),
    });
  } catch (error) {
    return unreachable(error, INSTALL_TIMEOUT_MS);
  }
  if (response.ok) return null;
  return refusal(response, (status) => REFUSED[status] ?? null);
}

/** What Discord's refusals of the install mean, and what the admin does about each. */
const REFUSED: Record<number, string> = {
  401: 'Discord refused the bot token (401): reset it under Bot, Reset Token, and save the new one.',
  403: 'Discord refused (403): invite the application to the server with the applications.commands scope, and check the server id.',
  404: 'Discord does not know this application or server (404): check the application id and the server id.',
};
