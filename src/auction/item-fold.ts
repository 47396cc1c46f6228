import { ITEM_FORMATS, type Bid, type BiddingStarted, type Item, type ItemFormat, type ItemId } from '../protocol/socket';

/**
 * One item's rules as a pure fold of its fields (none → live → finished). The item machine calls
 * `foldItem` once per event, whatever the number of updates it carries (one frame live, a run of
 * them in a replay). Which phase the item is in is the board's word (its live and finished lists),
 * handed to the item with the updates: the fold gives fields, not a phase.
 */
export interface ItemRules {
  minIncrement: number | null;
  imageUrl: string | null;
  description: string | null;
  /** Ranks and groups allowed to bid, when the item is limited (both empty: everyone). */
  ranks: string[];
  groups: string[];
  /** Soft close: a bid in the last extendWindow s moves the end, at most maxExtensions times; `extensions` used so far. */
  extendWindow: number | null;
  maxExtensions: number | null;
  extensions: number;
  /** While the store is closed: the time it had left, held (ms); null while it runs. */
  heldMs: number | null;
  /** How it is sold: english (open bids), or sealed (one hidden bid per player). */
  format: ItemFormat;
  /** Whether the amount reaches the item's reserve; null when the item has none (only council and admin read the number, in REST). */
  reserveMet: boolean | null;
  /** English only: a bid of at least this buys the item at once, at this price; null: none. */
  buyNowPrice: number | null;
  /** A sealed item: how many players have bid (null when unknown, or not sealed). */
  sealedBids: number | null;
}

/** What the server's updates say about an item: plain data. */
export interface ItemFields extends ItemRules {
  itemName: string;
  amount: number;
  username: string;
  endsAt: number;
  start_price: number | null;
  /** Once finished: sold (to `username` for `amount`) or not. */
  sold: boolean | null;
}

/** An item as the board holds it: its id and fields. */
export interface ItemData extends ItemFields {
  itemId: ItemId;
}

/** Something the server said about the item. `rules` on a start: everything BIDDING_STARTED carried (absent in old logs). */
export type ItemUpdate =
  | { type: 'STARTED'; itemName: string; start_price: number; endsAt: number; rules?: Partial<ItemRules> }
  | { type: 'BID'; bid: Bid }
  /** A bid on a sealed item, as everyone but its bidder hears of it: only how many have bid. */
  | { type: 'SEALED'; bids: number; endsAt: number }
  /** The store closed (heldMs: the time left, held) or opened again (heldMs null, a new end). */
  | { type: 'TIMING'; endsAt: number; heldMs: number | null }
  | { type: 'SOLD'; itemName: string; username: string; amount: number }
  | { type: 'NO_BUYER'; itemName: string; reason?: 'no-bids' | 'reserve-not-met' };

export type ItemPhase = 'none' | 'live' | 'finished';

export interface ItemFold {
  fields: ItemFields;
  /** The item went live, or its end moved (a bid in the soft-close window, the store opened again): open until the new end. */
  reopened: boolean;
  /** Some update counted (not only stale or repeated frames). */
  changed: boolean;
}

/**
 * The phase an update leads to (the statechart's arrows): from none, a start or a bid makes the
 * item live; a sale or no-buyer finishes it from none or live; once finished, nothing moves it.
 * The board's fold decides each item's phase by it; within a run of updates the item's fold reads
 * it too, for which rule the next update meets, starting from the phase the board gave before.
 */
export function phaseAfter(phase: ItemPhase, update: ItemUpdate): ItemPhase {
  if (phase === 'finished') return phase;
  if (update.type === 'SOLD' || update.type === 'NO_BUYER') return 'finished';
  if (phase === 'none' && (update.type === 'STARTED' || update.type === 'BID' || update.type === 'SEALED')) return 'live';
  return phase;
}

const RULE_KEYS = ['minIncrement', 'imageUrl', 'description', 'ranks', 'groups', 'extendWindow', 'maxExtensions', 'extensions', 'heldMs', 'format', 'reserveMet', 'buyNowPrice', 'sealedBids'] as const satisfies readonly (keyof ItemRules)[];

function rulesFrom(fields: ItemRules): ItemRules {
  const rules = {} as Record<string, unknown>;
  for (const key of RULE_KEYS) rules[key] = fields[key];
  return rules as unknown as ItemRules;
}

/**
 * From none, a start or any bid makes the item live and a sale or no-buyer finishes it; while
 * live, only a bid that raises the amount counts (frames may come twice or out of order) and a
 * settlement finishes it; once finished, nothing changes it. `phase`: the item's phase before the
 * updates, as the board gave it. Returns new data; `start` is not touched.
 */
export function foldItem(start: ItemFields, phase: ItemPhase, updates: readonly ItemUpdate[]): ItemFold {
  let { itemName, amount, username, endsAt, start_price, sold } = start;
  let rules: ItemRules = rulesFrom(start);
  let reopened = false;
  let changed = false;
  for (const update of updates) {
    if (phase === 'finished') break;
    switch (update.type) {
      case 'STARTED':
        if (phase !== 'none') continue;
        ({ itemName, start_price, endsAt } = update);
        if (update.rules) rules = { ...rules, ...update.rules };
        amount = update.start_price;
        username = 'server';
        reopened = true;
        break;
      case 'BID': {
        if (phase === 'live' && username !== 'server' && update.bid.amount <= amount) continue;
        if (phase === 'none' || update.bid.endsAt !== endsAt) reopened = true;
        // the server counts the extensions; a log from before it did: a later end is one more
        const extensions = update.bid.extensions ?? (phase === 'live' && update.bid.endsAt > endsAt ? rules.extensions + 1 : rules.extensions);
        if (extensions !== rules.extensions) rules = { ...rules, extensions };
        ({ itemName, amount, username, endsAt } = update.bid);
        if (update.bid.reserveMet !== undefined && update.bid.reserveMet !== rules.reserveMet) rules = { ...rules, reserveMet: update.bid.reserveMet };
        break;
      }
      case 'SEALED':
        // masked bids may come twice or out of order: the count only grows
        if (phase === 'live' && rules.sealedBids !== null && update.bids <= rules.sealedBids) continue;
        if (phase === 'none') {
          endsAt = update.endsAt;
          reopened = true;
        }
        rules = { ...rules, sealedBids: update.bids };
        break;
      case 'TIMING':
        if (phase !== 'live') continue;
        if (update.endsAt === endsAt && update.heldMs === rules.heldMs) continue;
        endsAt = update.endsAt;
        rules = { ...rules, heldMs: update.heldMs };
        reopened = true;
        break;
      case 'SOLD':
        if (phase === 'none') itemName = update.itemName;
        ({ username, amount } = update);
        sold = true;
        break;
      case 'NO_BUYER':
        if (phase === 'none') itemName = update.itemName;
        sold = false;
        if (update.reason === 'reserve-not-met') rules = { ...rules, reserveMet: false };
        break;
    }
    phase = phaseAfter(phase, update);
    changed = true;
  }
  return { fields: { ...rules, itemName, amount, username, endsAt, start_price, sold }, reopened, changed };
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function int(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

function listOf(eligibility: unknown, key: 'ranks' | 'groups'): string[] {
  const list = (eligibility as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string') : [];
}

/**
 * An item's rules as HISTORY or BIDDING_STARTED give them: the same reading for both, so an item
 * that starts while the page is open has the card it would have after a reload. Fields a frame
 * lacks (a log from before they were sent) read as unknown.
 */
export function rulesOf(it: Item | BiddingStarted): ItemRules {
  return {
    minIncrement: int(it.minIncrement),
    imageUrl: str(it.imageUrl),
    description: str(it.description),
    ranks: listOf(it.eligibility, 'ranks'),
    groups: listOf(it.eligibility, 'groups'),
    extendWindow: int(it.extendWindow),
    maxExtensions: int(it.maxExtensions),
    extensions: int(it.extensions) ?? 0,
    heldMs: int(it.heldMs),
    format: (ITEM_FORMATS as readonly string[]).includes(it.format as string) ? (it.format as ItemFormat) : 'english',
    reserveMet: typeof it.reserveMet === 'boolean' ? it.reserveMet : null,
    buyNowPrice: int(it.buyNowPrice),
    sealedBids: int(it.bids),
  };
}

export const NO_RULES: ItemRules = {
  minIncrement: null,
  imageUrl: null,
  description: null,
  ranks: [],
  groups: [],
  extendWindow: null,
  maxExtensions: null,
  extensions: 0,
  heldMs: null,
  format: 'english',
  reserveMet: null,
  buyNowPrice: null,
  sealedBids: null,
};

/** An item's fields before anything was heard of it, or as a HISTORY snapshot gives them. */
export function fieldsOf(snapshot?: Item): ItemFields {
  return {
    itemName: snapshot?.itemName ?? '',
    amount: snapshot?.amount ?? 0,
    username: snapshot?.username ?? 'server',
    endsAt: snapshot?.endsAt ?? 0,
    start_price: snapshot?.start_price ?? null,
    ...(snapshot ? rulesOf(snapshot) : NO_RULES),
    sold: snapshot?.state === 'finished' ? snapshot.username !== 'server' : null,
  };
}
