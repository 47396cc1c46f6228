import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { ItemsTable, BidsTable, MaxBidsTable, MaxBidRequestsTable, BidRequestsTable, SalesTable } from './schema-auction';
import type {
  ScansTable,
  ScanRowsTable,
  ScanTotalsTable,
  ScanAlliancesTable,
  AlliancesTable,
  GovernorLinksTable,
  KvkSeasonsTable,
  KvkMarksTable,
  KingdomsTable,
  PointsRulesTable,
  PointsRunsTable,
} from './schema-stats';
import type { WatchesTable, NoticesTable, NoticePreferencesTable } from './schema-notices';
import type {
  DiscordSettingsTable,
  DiscordLinksTable,
  DiscordLinkCodesTable,
  DiscordOutboxTable,
  DiscordRateLimitsTable,
  DiscordInteractionsTable,
} from './schema-discord';

/** Times are epoch milliseconds (INTEGER). Points are whole numbers. */
export interface UsersTable {
  id: Generated<number>;
  /** Stored lowercased. */
  email: string;
  /** Unique without regard to ASCII case (COLLATE NOCASE). */
  username: string;
  playerid: string;
  password_hash: string;
  rank: ColumnType<string, string | undefined, string>;
  balance: ColumnType<number, number | undefined, number>;
  reserved: ColumnType<number, number | undefined, number>;
  locale: ColumnType<string, string | undefined, string>;
  created_at: number;
  /** Set while the account is disabled (it cannot sign in); null otherwise. */
  disabled_at: ColumnType<number | null, number | null | undefined, number | null>;
  disabled_by: ColumnType<number | null, number | null | undefined, number | null>;
  /** The last authentication, written at most once a minute. */
  last_seen_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SessionsTable {
  /** The JWT's jti. */
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** Append-only (triggers refuse UPDATE and DELETE): every change of a balance, with who and why. */
export interface PointsTransactionsTable {
  id: Generated<number>;
  user_id: number;
  delta: number;
  kind: 'grant' | 'deduct' | 'purchase' | 'refund' | 'automatic';
  reason: string;
  actor_id: number | null;
  balance_after: number;
  created_at: number;
}

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  created_at: number;
}

export interface UserGroupsTable {
  user_id: number;
  group_id: number;
}

/** The kingdom's settings: exactly one row (id 1). */
export interface KingdomSettingsTable {
  id: number;
  kingdom_name: string;
  kingdom_number: number | null;
  /** 1 open, 0 closed (every bid gets BID_OPEN_ERROR). */
  store_open: number;
  default_duration_s: number;
  default_min_increment: number;
  default_extend_window_s: number;
  default_max_extensions: number;
  updated_at: number | null;
  updated_by: number | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  actor_id: number | null;
  actor: string;
  action: string;
  target: string;
  detail: string;
}

/** A bulk award file applied (0014): its SHA-256, so a later preview of the same file says so. */
export interface BulkAwardsTable {
  id: Generated<number>;
  sha256: string;
  rows: number;
  total: number;
  actor_id: number | null;
  created_at: number;
}

/** A card shared by link (0015): the token a reader holds, the one card's path, its end. */
export interface ShareLinksTable {
  id: Generated<number>;
  token: string;
  user_id: number;
  path: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  revoked_by: number | null;
}

/** A finished backup (0016): when its snapshot was taken, where it was written, its size. */
export interface BackupsTable {
  id: Generated<number>;
  taken_at: number;
  file: string;
  bytes: number;
  took_ms: number;
  /** 1: the server's scheduled backup; 0: `npm run admin -- backup`. */
  scheduled: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  points_transactions: PointsTransactionsTable;
  items: ItemsTable;
  bids: BidsTable;
  bid_requests: BidRequestsTable;
  max_bids: MaxBidsTable;
  max_bid_requests: MaxBidRequestsTable;
  sales: SalesTable;
  groups: GroupsTable;
  user_groups: UserGroupsTable;
  kingdom_settings: KingdomSettingsTable;
  scans: ScansTable;
  scan_rows: ScanRowsTable;
  scan_totals: ScanTotalsTable;
  scan_alliances: ScanAlliancesTable;
  alliances: AlliancesTable;
  governor_links: GovernorLinksTable;
  audit_log: AuditLogTable;
  kvk_seasons: KvkSeasonsTable;
  kvk_marks: KvkMarksTable;
  bots: BotsTable;
  kingdoms: KingdomsTable;
  points_rules: PointsRulesTable;
  points_runs: PointsRunsTable;
  bulk_awards: BulkAwardsTable;
  share_links: ShareLinksTable;
  backups: BackupsTable;
  events: EventsTable;
  event_cursors: EventCursorsTable;
  previews: PreviewsTable;
  discord_settings: DiscordSettingsTable;
  discord_links: DiscordLinksTable;
  discord_link_codes: DiscordLinkCodesTable;
  discord_interactions: DiscordInteractionsTable;
  discord_outbox: DiscordOutboxTable;
  discord_rate_limits: DiscordRateLimitsTable;
  watches: WatchesTable;
  notices: NoticesTable;
  notice_preferences: NoticePreferencesTable;
}

export interface EventsTable {
  id: Generated<number>;
  kind: string;
  at: number;
  actor: string | null;
  /** JSON */
  data: string;
}

export interface EventCursorsTable {
  reaction: string;
  last_id: number;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type PointsTransactionRow = Selectable<PointsTransactionsTable>;
export type ItemRow = Selectable<ItemsTable>;
export type BidRow = Selectable<BidsTable>;
export type ScanRow = Selectable<ScansTable>;
export type ScanRowRow = Selectable<ScanRowsTable>;

export interface BotsTable {
  id: Generated<number>;
  name: string;
  token_hash: string;
  created_at: number;
  created_by: number | null;
  revoked_at: number | null;
  last_seen_at: number | null;
  last_scan_at: number | null;
  version: string | null;
  commands: Generated<string>;
}

/** A preview waiting for its apply (0018): see server/previews/store.ts. */
export interface PreviewsTable {
  id: Generated<number>;
  token: string;
  kind: string;
  owner_id: number;
  /** JSON */
  payload: string;
  /** Deflated JSON; null once applied. */
  body: Buffer | null;
  created_at: number;
  expires_at: number;
  applied_at: number | null;
}
