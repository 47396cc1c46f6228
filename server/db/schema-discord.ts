import type { ColumnType, Generated } from 'kysely';

// Tables of the Discord integration: settings, account links and their codes, the announcements' outbox, rate limits, answered interactions.

/** The kingdom's Discord settings (0019): one row, id 1; webhooks is JSON by kind. */
export interface DiscordSettingsTable {
  id: number;
  application_id: string;
  public_key: string;
  bot_token: string | null;
  guild_id: string;
  language: string;
  webhooks: string;
  updated_at: number;
  updated_by: number | null;
}

/** One Discord user linked to one account (0019). */
export interface DiscordLinksTable {
  user_id: number;
  discord_user_id: string;
  linked_at: number;
}

/** A one-time code from `/link` (0019): good until expires_at, once. */
export interface DiscordLinkCodesTable {
  code: string;
  discord_user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A Discord announcement waiting to be sent, sent, or given up on (0021); body is the webhook payload's JSON. */
export interface DiscordOutboxTable {
  id: Generated<number>;
  event_id: number;
  /** The webhook kind it goes to (auctions, sales, scans, points, kvk). */
  channel: string;
  /** The domain event's kind it tells of. */
  kind: string;
  body: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: ColumnType<number, number | undefined, number>;
  created_at: number;
  next_at: number;
  give_up_at: number;
  claimed_until: number | null;
  sent_at: number | null;
  message_id: string | null;
  last_error: string | null;
}

/** Until when Discord asked to wait (0021): per webhook (`webhook:<id>`) and `global`. */
export interface DiscordRateLimitsTable {
  bucket: string;
  until: number;
}

/** An interaction already answered (0019): a replay of it is refused. */
export interface DiscordInteractionsTable {
  id: string;
  at: number;
}
