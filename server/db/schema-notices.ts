import type { ColumnType, Generated } from 'kysely';

// Tables of the players' notices: watched items, notices, notice preferences.

/** An item a player watches (0023). */
export interface WatchesTable {
  user_id: number;
  item_id: number;
  created_at: number;
}

/** A notice to one account (0023); unique (user_id, cause): each is made once. */
export interface NoticesTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  at: number;
  read: ColumnType<number, number | undefined, number>;
  item_id: number | null;
  item_name: string | null;
  amount: number | null;
  /** The player's channel for its kind when it was made: app, discord, both or none. */
  channel: string;
  /** JSON */
  data: ColumnType<string, string | undefined, string>;
  cause: string;
}

/** A player's notice preferences (0023); channels is JSON {kind: channel}. No row: the defaults. */
export interface NoticePreferencesTable {
  user_id: number;
  channels: string;
  ending_lead_minutes: number;
  updated_at: number;
}
