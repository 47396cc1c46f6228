import type { ColumnType, Generated } from 'kysely';

// Tables of the kingdom's statistics: scans and their sums, alliances, governor links, KvK seasons and marks, kingdoms, automatic points rules and their runs.

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
