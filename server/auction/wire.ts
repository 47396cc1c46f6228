import { eligibility as eligibilitySchema, NO_LEADER, type Eligibility, type StoreItem } from '../../src/protocol/store';
import { isSealed, type Bid, type Item } from '../../src/protocol/socket';
import type { ItemRow } from '../db/schema';
import type { Queryable } from '../db/write';

/** Whole seconds left until `endsAt` at `now` (rounded up: 0 only once it has ended). */
export function secondsLeft(endsAt: number, now: number): number {
  return Math.max(0, Math.ceil((endsAt - now) / 1000));
}

/** The stored eligibility JSON. Unreadable JSON (never written by the engine) fails closed: admins only, not everyone. */
export function readEligibility(json: string): Eligibility {
  try {
    const parsed = eligibilitySchema.safeParse(JSON.parse(json));
    if (parsed.success) return parsed.data;
  } catch {
    // fall through
  }
  return { ranks: ['admin'] };
}

/** Only the lists that restrict anything, so '{}' means everyone. */
export function writeEligibility(rules: Eligibility | undefined): string {
  const out: Eligibility = {};
  if (rules?.ranks?.length) out.ranks = [...new Set(rules.ranks)];
  if (rules?.groups?.length) out.groups = [...new Set(rules.groups.map((g) => g.trim()).filter(Boolean))];
  return JSON.stringify(out);
}

export type ItemWithLeader = ItemRow & { leader_name: string | null };

/** An item with its leader's name: the shape every item query here selects. */
export function selectItems(db: Queryable) {
  return db.selectFrom('items as i').leftJoin('users as l', 'l.id', 'i.leader_id').selectAll('i').select('l.username as leader_name');
}

/** Whether an item's amount reaches its reserve (true without one; on the wire only for an item that has one). */
export function reserveMet(row: Pick<ItemRow, 'reserve_price' | 'leader_id' | 'amount'>): boolean {
  return row.reserve_price === null || (row.leader_id !== null && row.amount >= row.reserve_price);
}

/** A sealed item still running or scheduled: its amount and leader are nobody's to read. */
export function sealedRunning(row: Pick<ItemRow, 'format' | 'state'>): boolean {
  return isSealed(row.format) && (row.state === 'live' || row.state === 'scheduled');
}

/**
 * An item on the wire. The socket's Item and REST's StoreItem are one shape: the socket fields
 * (itemId, itemName, type, amount, username, timer, timestamp, endsAt, state, start_price,
 * minIncrement) plus what the store manages. The reserve's number only for council and admin
 * (`reserve`); a sealed item while it runs shows the start price, no leader and how many bid.
 */
export function toStoreItem(row: ItemWithLeader, now: number, options: { reserve?: boolean } = {}): StoreItem & Item {
  const sealed = sealedRunning(row);
  return {
    itemId: row.id,
    itemName: row.name,
    type: row.type,
    amount: sealed ? row.start_price : row.amount,
    username: sealed ? NO_LEADER : (row.leader_name ?? NO_LEADER),
    timer: row.state !== 'live' ? 0 : row.held_ms !== null ? Math.ceil(row.held_ms / 1000) : secondsLeft(row.ends_at, now),
    timestamp: now,
    endsAt: row.ends_at,
    state: row.state,
    start_price: row.start_price,
    minIncrement: row.min_increment,
    description: row.description,
    imageUrl: row.image_url,
    startsAt: row.starts_at,
    duration: row.duration_s,
    extendWindow: row.extend_window_s,
    maxExtensions: row.max_extensions,
    extensions: row.extensions,
    eligibility: readEligibility(row.eligibility),
    format: row.format,
    ...(options.reserve && row.reserve_price !== null ? { reservePrice: row.reserve_price } : {}),
    ...(row.reserve_price !== null ? { reserveMet: reserveMet(row) } : {}),
    ...(row.buy_now_price !== null ? { buyNowPrice: row.buy_now_price } : {}),
    ...(sealed ? { bids: row.bids_count } : {}),
    // the store is closed: this live item's time left is held until it opens again
    ...(row.state === 'live' && row.held_ms !== null ? { heldMs: row.held_ms } : {}),
  };
}

/** A bid as it was when accepted: `timer`, `endsAt` and the extensions used at its own `timestamp`. */
export function toBid(b: { item_id: number; item_name: string; amount: number; username: string; ends_at: number; created_at: number; extensions?: number | null; auto?: number | null }): Bid {
  return {
    itemId: b.item_id,
    itemName: b.item_name,
    amount: b.amount,
    username: b.username,
    timer: secondsLeft(b.ends_at, b.created_at),
    timestamp: b.created_at,
    endsAt: b.ends_at,
    ...(b.extensions === null || b.extensions === undefined ? {} : { extensions: b.extensions }),
    ...(b.auto ? { auto: true } : {}),
  };
}

/** Bids with their item's name and bidder's name, newest first. */
export function selectBids(db: Queryable) {
  return db
    .selectFrom('bids as b')
    .innerJoin('items as i', 'i.id', 'b.item_id')
    .innerJoin('users as u', 'u.id', 'b.user_id')
    .select(['b.id', 'b.item_id', 'i.name as item_name', 'b.amount', 'u.username', 'b.ends_at', 'b.created_at', 'b.extensions', 'b.auto'])
    .orderBy('b.id', 'desc');
}
