import type { KyInstance } from 'ky';
import * as z from 'zod/mini';
import { discordCommandsAnswer, discordLinkAnswer, discordOutboxAnswer, discordLinkState, discordSettingsAnswer, discordTestAnswer, discordKvkPostAnswer, type discordKvkPostBody, type DiscordSettings, type discordSettingsBody } from '../protocol/discord';
import { answer } from './rest';

/** The Discord bridge: the kingdom's settings (admin) and the signed-in account's link. */
export type { DiscordSettings };
export type DiscordSettingsInput = z.input<typeof discordSettingsBody>;
export type DiscordTestResult = z.infer<typeof discordTestAnswer>;
export type DiscordOutbox = z.infer<typeof discordOutboxAnswer>;

const okAnswer = z.object({ result: z.literal(true) });

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
    async settings() {
      return (await answer(await client.get('discord/settings'), discordSettingsAnswer)).settings;
    },
    async saveSettings(body) {
      return (await answer(await client.put('discord/settings', { json: body }), discordSettingsAnswer)).settings;
    },
    async test() {
      return answer(await client.post('discord/test', { timeout: 30_000 }), discordTestAnswer);
    },
    async installCommands() {
      return (await answer(await client.post('discord/commands', { timeout: 30_000 }), discordCommandsAnswer)).installed;
    },
    async link() {
      const { discordUserId, linkedAt } = await answer(await client.get('discord/link'), discordLinkState);
      return { discordUserId, linkedAt };
    },
    async redeem(code) {
      return (await answer(await client.post('discord/link', { json: { code } }), discordLinkAnswer)).discordUserId;
    },
    async unlink() {
      await answer(await client.delete('discord/link'), okAnswer);
    },
    async outbox() {
      return answer(await client.get('discord/outbox'), discordOutboxAnswer);
    },
    async retry(id) {
      await answer(await client.post(`discord/outbox/${id}/retry`), okAnswer);
    },
    async postKvk(seasonId, body) {
      await answer(await client.post(`discord/kvk/${seasonId}`, { json: body }), discordKvkPostAnswer);
    },
  };
}
