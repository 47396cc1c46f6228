import type { z } from 'zod/mini';
import { DISCORD_ERRORS, DISCORD_WEBHOOK_KINDS, type DiscordSettings, type discordSettingsBody } from '../../src/protocol/discord';
import type { Locale } from '../../src/protocol/locales';
import { recordAuditBy } from '../audit/audit';
import type { Db } from '../db/open';
import type { DiscordSettingsTable } from '../db/schema-discord';
import { writeTransaction, type Queryable } from '../db/write';
import { Invalid } from '../errors';

/** The settings as the server uses them: the token and the webhooks' addresses included (never sent to a client). */
export interface DiscordConfig {
  applicationId: string;
  publicKey: string;
  botToken: string | null;
  guildId: string;
  language: Locale;
  webhooks: Partial<Record<(typeof DISCORD_WEBHOOK_KINDS)[number], string>>;
}

function toConfig(row: DiscordSettingsTable): DiscordConfig {
  return {
    applicationId: row.application_id,
    publicKey: row.public_key,
    botToken: row.bot_token,
    guildId: row.guild_id,
    language: row.language as Locale,
    webhooks: JSON.parse(row.webhooks) as DiscordConfig['webhooks'],
  };
}

/** The kingdom's Discord settings, or null before an admin saved them. */
export async function readDiscordConfig(db: Queryable): Promise<DiscordConfig | null> {
  const row = await db.selectFrom('discord_settings').selectAll().where('id', '=', 1).executeTakeFirst();
  return row ? toConfig(row) : null;
}

/** A webhook on Discord itself (https, discord.com or discordapp.com), or on the API this server is pointed at (a stand-in). */
export function isDiscordWebhook(url: string, apiUrl: string): boolean {
  const { protocol, hostname, origin } = new URL(url);
  if (protocol === 'https:' && /^(?:[\w-]+\.)?discord(?:app)?\.com$/.test(hostname)) return true;
  return origin === new URL(apiUrl).origin;
}

/** What an admin reads back: everything but the token, which is only said to be set. */
export function publicSettings(config: DiscordConfig | null): DiscordSettings | null {
  if (!config) return null;
  const { botToken, webhooks, ...rest } = config;
  return { ...rest, webhooks: Object.fromEntries(Object.entries(webhooks).filter(([, url]) => typeof url === 'string')) as Record<string, string>, botTokenSet: botToken !== null };
}

/**
 * Saves the settings (a webhook given as null is removed, one left out kept; the token likewise),
 * audited without the token's or the webhooks' secrets: which kinds have a webhook, and whether the
 * token changed.
 */
export async function saveDiscordSettings(db: Db, body: z.output<typeof discordSettingsBody>, actorId: number, now: number, apiUrl: string): Promise<DiscordConfig> {
  for (const url of Object.values(body.webhooks)) if (typeof url === 'string' && !isDiscordWebhook(url, apiUrl)) throw new Invalid(DISCORD_ERRORS.badWebhook);
  return writeTransaction(db, async (trx) => {
    const before = await readDiscordConfig(trx);
    const webhooks = { ...(before?.webhooks ?? {}) };
    for (const kind of DISCORD_WEBHOOK_KINDS) {
      const given = body.webhooks[kind];
      if (given === null) delete webhooks[kind];
      else if (given !== undefined) webhooks[kind] = given;
    }
    const botToken = body.botToken === undefined ? (before?.botToken ?? null) : body.botToken;
    const row = {
      application_id: body.applicationId,
      public_key: body.publicKey.toLowerCase(),
      bot_token: botToken,
      guild_id: body.guildId,
      language: body.language,
      webhooks: JSON.stringify(webhooks),
      updated_at: now,
      updated_by: actorId,
    };
    if (before) await trx.updateTable('discord_settings').set(row).where('id', '=', 1).execute();
    else await trx.insertInto('discord_settings').values({ id: 1, ...row }).execute();
    await recordAuditBy(
      trx,
      actorId,
      'discord.settings',
      'discord',
      {
        applicationId: body.applicationId,
        guildId: body.guildId,
        language: body.language,
        webhooks: Object.keys(webhooks).sort().join(', ') || null,
        botToken: body.botToken === undefined ? 'kept' : body.botToken === null ? 'removed' : 'changed',
      },
      now,
    );
    return toConfig({ id: 1, ...row });
  });
}
