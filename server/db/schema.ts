import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { ItemFormat } from '../../src/protocol/socket';

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

export type ItemStateColumn = 'scheduled' | 'live' | 'finished' | 'cancelled';

/** An auctioned item. `ends_at` is the current end (soft close moves it); `amount` the leading amount. */
export interface ItemsTable {
  id: Generated<number>;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  image_url: string | null;
  type: ColumnType<string, string | undefined, string>;
  start_price: number;
  min_increment: number;
  starts_at: number;
  duration_s: number;
  ends_at: number;
  extend_window_s: number;
  max_extensions: number;
  extensions: ColumnType<number, number | undefined, number>;
  state: ItemStateColumn;
  /** JSON of {ranks?, groups?}; '{}' is everyone. */
  eligibility: ColumnType<string, string | undefined, string>;
  leader_id: number | null;
  amount: number;
  created_by: number | null;
  created_at: number;
  started_at: number | null;
  settled_at: number | null;
  /** While the store is closed: the ms this live item had left, held (it cannot end); null while the store is open. */
  held_ms: ColumnType<number | null, number | null | undefined, number | null>;
  format: ColumnType<ItemFormat, ItemFormat | undefined, ItemFormat>;
  /** The least amount it sells for; null: none. */
  reserve_price: ColumnType<number | null, number | null | undefined, number | null>;
  /** English: a bid of at least this, while the amount is below it, buys at once at this price; null: none. */
  buy_now_price: ColumnType<number | null, number | null | undefined, number | null>;
  /** How many players have bid. */
  bids_count: ColumnType<number, number | undefined, number>;
}

/** Every accepted bid; `ends_at` is the item's end right after it, `extensions` the soft-close extensions used by then. */
export interface BidsTable {
  id: Generated<number>;
  item_id: number;
  extensions: ColumnType<number | null, number | null | undefined, number | null>;
  user_id: number;
  amount: number;
  ends_at: number;
  created_at: number;
  /** 1: placed by the server from the bidder's maximum. */
  auto: ColumnType<number, number | undefined, number>;
}

/** A player's standing maximum bid on an item (0024): one per player per item; `seq` orders an item's maxima by when they were set. */
export interface MaxBidsTable {
  item_id: number;
  user_id: number;
  max: number;
  seq: number;
  set_at: number;
  /** When it was outbid beyond its limit (told once); null while it can still bid. */
  exhausted_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** An accepted SET_MAX_BID's requestId (0024): a repeat gets the first answer. */
export interface MaxBidRequestsTable {
  user_id: number;
  request_id: string;
  item_id: number;
  created_at: number;
}

/** The first answer to each (user_id, request_id): a bid or an error type, never both. */
export interface BidRequestsTable {
  user_id: number;
  request_id: string;
  item_id: number;
  bid_id: number | null;
  error_type: string | null;
  created_at: number;
}

export interface SalesTable {
  id: Generated<number>;
  item_id: number;
  user_id: number;
  amount: number;
  at: number;
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

/** A scan: many governors' stats at one time (`taken_at`); the same file (sha256) is imported once. */
export interface ScansTable {
  id: Generated<number>;
  taken_at: number;
  kind: 'kingdom' | 'seed';
  rows: number;
  file_name: string;
  sha256: string;
  source: 'upload' | 'bot';
  uploaded_by: number | null;
  created_at: number;
}

/** One governor in one scan; a stat that was not scanned is null. */
export type ScanRowsTable = { scan_id: number; governor_id: number; name: string; alliance: string; kingdom: number | null } & StatColumns;

type StatColumns = {
  power: number | null;
  killpoints: number | null;
  deads: number | null;
  t1_kills: number | null;
  t2_kills: number | null;
  t3_kills: number | null;
  t4_kills: number | null;
  t5_kills: number | null;
  total_kills: number | null;
  t45_kills: number | null;
  ranged: number | null;
  rss_gathered: number | null;
  rss_assistance: number | null;
  helps: number | null;
  acclaim: number | null;
  highest_acclaim: number | null;
};

/** A scan's sums, written with it. */
export type ScanTotalsTable = { scan_id: number; governors: number } & StatColumns;
/** An alliance's members and sums in one scan, written with it ('' is no alliance). */
export type ScanAlliancesTable = { scan_id: number; alliance: string; members: number } & StatColumns;

export interface AlliancesTable {
  tag: string;
  name: string;
  ours: number;
  updated_at: number | null;
  updated_by: number | null;
}

/** A governor linked to an account: the sign-up's claim, or a farm an admin linked; one account per governor. */
export interface GovernorLinksTable {
  governor_id: number;
  user_id: number;
  verified: number;
  created_at: number;
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

/** A KvK season; weights, brackets and windows are JSON (see server/kvk/dkp.ts and src/protocol). */
export interface KvkSeasonsTable {
  id: Generated<number>;
  name: string;
  start_scan_id: number;
  end_scan_id: number | null;
  weights: string;
  brackets: string;
  windows: ColumnType<string, string | undefined, string>;
  /** When the season was published (every signed-in player may read its standings); null: leadership only. */
  published_at: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: number;
  updated_at: number;
  updated_by: number | null;
}

export interface KvkMarksTable {
  season_id: number;
  governor_id: number;
  mark: 'zeroed' | 'exempt';
  reason: string;
  marked_by: number | null;
  marked_at: number;
}

/** A kingdom the site knows (ours, and others met in KvK), by its number. */
export interface KingdomsTable {
  number: number;
  name: string;
  camp: ColumnType<string, string | undefined, string>;
  created_at: number;
  updated_at: number;
  updated_by: number | null;
}

/** An automatic points rule (stat: a cumulative stat in camelCase, or 'dkp' with a season); deleted rules stay, marked. */
export interface PointsRulesTable {
  id: Generated<number>;
  name: string;
  stat: string;
  per: number;
  points: number;
  cap: number | null;
  auto: number;
  season_id: number | null;
  created_at: number;
  updated_at: number;
  updated_by: number | null;
  deleted_at: number | null;
}

/** One rule applied over one pair of scans: unique (rule_id, from_scan_id, to_scan_id), append-only. */
export interface PointsRunsTable {
  id: Generated<number>;
  rule_id: number;
  from_scan_id: number;
  to_scan_id: number;
  /** When the two scans were taken (0013; null for a run whose scans were deleted before it). */
  from_taken_at: number | null;
  to_taken_at: number | null;
  entries: number;
  total: number;
  actor_id: number | null;
  auto: number;
  created_at: number;
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
