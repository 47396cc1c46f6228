import type { KyInstance } from 'ky';
import * as z from 'zod/mini';
import { DISCORD_API, type discordKvkPostBody, type discordOutboxAnswer, type DiscordSettings, type discordSettingsBody, type discordTestAnswer } from '../protocol/discord';
import { call, keyOf, scopeOf } from './contract';

/** The Discord bridge: the kingdom's settings (admin) and the signed-in account's link. */
export type { DiscordSettings };
export type DiscordSettingsInput = z.input<typeof discordSettingsBody>;
export type DiscordTestResult = z.infer<typeof discordTestAnswer>;
export type DiscordOutbox = z.infer<typeof discordOutboxAnswer>;

export interface DiscordApi {
  settings(): Promise<DiscordSettings | null>;
  saveSettings(body: DiscordSettingsInput): Promise<DiscordSettings | null>;
  test(): Promise<DiscordTestResult>;
  /** Installs the slash commands in the guild; the names installed. */
  installCommands(): Promise<string[]>;
  link(): Promise<{ discordUserId: string | null; linkedAt: number | null }>;
  redeem(code: string): Promise<string>;
  unlink(): Promise<void>;
  /** Announcements that failed or wait too long (admin). */
  outbox(): Promise<DiscordOutbox>;
  /** Sends one of them again now (admin). */
  retry(id: number): Promise<void>;
  /** Posts a KvK season's standings card to the kvk webhook (council, admin). */
  postKvk(seasonId: number, body: z.input<typeof discordKvkPostBody>): Promise<void>;
}

export function createDiscordApi(client: KyInstance): DiscordApi {
  return {
    settings: async () => (await call(client, DISCORD_API.settings)).settings,
    saveSettings: async (body) => (await call(client, DISCORD_API.saveSettings, { body })).settings,
    test: () => call(client, DISCORD_API.test, {}, { timeout: 30_000 }),
    installCommands: async () => (await call(client, DISCORD_API.installCommands, {}, { timeout: 30_000 })).installed,
    link: async () => {
      const { discordUserId, linkedAt } = await call(client, DISCORD_API.link);
      return { discordUserId, linkedAt };
    },
    redeem: async (code) => (await call(client, DISCORD_API.redeem, { body: { code } })).discordUserId,
    unlink: async () => void (await call(client, DISCORD_API.unlink)),
    outbox: () => call(client, DISCORD_API.outbox),
    retry: async (id) => void (await call(client, DISCORD_API.retry, { params: { id } })),
    postKvk: async (seasonId, body) => void (await call(client, DISCORD_API.postKvk, { params: { seasonId }, body })),
  };
}

/** The Discord queries' keys: a page reads and invalidates these, never a key of its own. */
export const discordKeys = {
  all: scopeOf(DISCORD_API.settings),
  settings: keyOf(DISCORD_API.settings),
  link: keyOf(DISCORD_API.link),
  outbox: keyOf(DISCORD_API.outbox),
} as const;
