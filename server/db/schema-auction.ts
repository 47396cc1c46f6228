import type { ColumnType, Generated } from 'kysely';
import type { ItemFormat } from '../../src/protocol/socket';

// Tables of the auction: items, accepted bids, standing maximum bids, the answers to bid and maximum-bid requests, sales.

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
