import type { Bid, Item, ItemId, ServerMsg, ServerMsgOf, StoreState } from '../protocol/socket';
import { isSealedBid, MSG } from '../protocol/socket';
import type { StoreItem } from '../protocol/store';
import { listsOf, withLive, withoutItem, withoutUpcoming } from './board-lists';
import { phaseAfter, rulesOf, type ItemPhase, type ItemUpdate } from './item-fold';
import { insertBid, mergeBids } from './latest-bids';

/**
 * The board's fold, in plain code: what a run of auction messages does to the board's data. The
 * board machine calls `foldBoard` once per SERVER event and then does what the fold says (stop,
 * spawn, APPLY to each item); the fold touches no actor.
 */

/** A server message with its local arrival time when that is not now (a replayed frame). */
export interface TimedMessage {
  event: { msg: ServerMsg };
  at?: number;
}

/**
 * The board's data that the fold reads and writes: the board machine's context (BoardContext
 * extends it), with its item actors known here only by key.
 */
export interface BoardFoldState {
  latestBids: Bid[];
  items: Record<string, unknown>;
  /**
   * Live items' ids, in id order (numbers, then strings). With `finished`, the one home of each
   * item's phase (`phaseOf`): an item in neither is in none, which is never at rest (any message
   * about an item moves it on). The item actors follow what these lists say.
   */
  live: ItemId[];
  /** Finished items' ids, most recently finished first. */
  finished: ItemId[];
  /** Scheduled items (the store's REST list), soonest start first: none the board holds as live or finished, none cancelled. */
  upcoming: StoreItem[];
  /** Bids sent and not yet answered, by requestId. */
  pending: Record<string, { itemId: ItemId; amount: number }>;
  /** By item key: the amount of the player's last bid on it that got no answer in BID_TIMEOUT_MS (until they bid again or the answer comes). */
  unanswered: Record<string, number>;
  /** The council's store: open, or closed (no bids; live items held). HISTORY and STORE_STATE say which. */
  store: StoreState;
  /** Items the council cancelled since the last HISTORY: off the board, and late frames about them change nothing. */
  cancelled: Record<string, true>;
  /** How many HISTORY snapshots replaced the board (gives spawned items fresh ids). */
  generation: number;
  /** Server time − local time: the largest (server timestamp − local arrival time) seen; null before any. */
  serverOffset: number | null;
  /**
   * The player's own standing maximum bids, by item key (HISTORY's maxBids, then MAX_BID): theirs alone.
   * Whether they lead is the item's own leader, not kept twice here (the frame's `leading` is the
   * server's view at the time it was sent and goes stale at the next bid).
   */
  maxBids: Record<string, { max: number }>;
  /** Items whose maximum the server dropped (a raise the player's points could not cover), until they set one again. */
  maxDropped: Record<string, true>;
  /** Maximum bids sent and not yet answered (by MAX_BID or an ERROR), by requestId. */
  pendingMax: Record<string, { itemId: ItemId; max: number }>;
}

/** Each list's item keys, built once per list: the lists are never changed in place, only replaced, so a lookup stays O(1) while they stand. */
const keysByList = new WeakMap<readonly ItemId[], ReadonlySet<string>>();

function keysOf(list: readonly ItemId[]): ReadonlySet<string> {
  let keys = keysByList.get(list);
  if (!keys) {
    keys = new Set(list.map(String));
    keysByList.set(list, keys);
  }
  return keys;
}

/** An item's phase, as the board's lists say it (by item key). */
export function phaseOf(board: Pick<BoardFoldState, 'live' | 'finished'>, key: string): ItemPhase {
  if (keysOf(board.live).has(key)) return 'live';
  return keysOf(board.finished).has(key) ? 'finished' : 'none';
}

/** A board before anything was heard: no bids, no items, the store open. */
export function emptyBoardFold(): BoardFoldState {
  return {
    latestBids: [],
    items: {},
    live: [],
    finished: [],
    upcoming: [],
    pending: {},
    unanswered: {},
    store: 'open',
    cancelled: {},
    generation: 0,
    serverOffset: null,
    maxBids: {},
    maxDropped: {},
    pendingMax: {},
  };
}

type ItemMsg = ServerMsgOf<'BIDDING_STARTED' | 'SALE_COMPLETED' | 'NO_BUYER' | 'BID_CREATED'>;

function timestampOf(msg: ServerMsg): number | null {
  if (msg.type === MSG.BID_CREATED || msg.type === MSG.BIDDING_STARTED) return msg.data.timestamp;
  if (msg.type === MSG.HISTORY) return msg.data.items[0]?.timestamp ?? null;
  return null;
}

function toItemUpdate(msg: ItemMsg): ItemUpdate {
  switch (msg.type) {
    case MSG.BIDDING_STARTED:
      return { type: 'STARTED', itemName: msg.data.itemName, start_price: msg.data.start_price, endsAt: msg.data.endsAt, rules: rulesOf(msg.data) };
    case MSG.BID_CREATED:
      return isSealedBid(msg.data) ? { type: 'SEALED', bids: msg.data.bids, endsAt: msg.data.endsAt } : { type: 'BID', bid: msg.data };
    case MSG.SALE_COMPLETED:
      return { type: 'SOLD', itemName: msg.data.itemName, username: msg.data.username, amount: msg.data.amount };
    case MSG.NO_BUYER:
      return { type: 'NO_BUYER', itemName: msg.data.itemName, ...(msg.data.reason ? { reason: msg.data.reason } : {}) };
  }
}

/** (a masked bid on a sealed item is the item's count of bids: it names no amount and no bidder, so it is in no list of bids) */
const isItemMsg = (msg: ServerMsg): msg is ItemMsg =>
  msg.type === MSG.BIDDING_STARTED || msg.type === MSG.BID_CREATED || msg.type === MSG.SALE_COMPLETED || msg.type === MSG.NO_BUYER;

/**
 * What a run of messages does to the board, worked out before any actor is touched: the bids,
 * the pending requests, the items to build (from a snapshot, or new) and each item's updates.
 */
export interface BoardFold {
  latestBids: Bid[];
  pending: BoardFoldState['pending'];
  unanswered: BoardFoldState['unanswered'];
  store: StoreState;
  cancelled: BoardFoldState['cancelled'];
  /** Items cancelled in this run that the board held before it: stopped and dropped. */
  removed: Set<string>;
  generation: number;
  /** Set when a HISTORY came: the items it keeps (live or finished), replacing all others. */
  snapshot: Item[] | null;
  /** Items to spawn: from the snapshot (with the phase it gives them), and those first heard of in this run. */
  spawn: Map<string, { itemId: ItemId; snapshot?: Item; phase?: 'live' | 'finished' }>;
  /** Each item's updates after the last snapshot, in order. */
  updates: Map<string, ItemUpdate[]>;
  /** The phase each item with updates ends the run in (its place in `live`/`finished`): what its actor is told with them. */
  phases: Map<string, ItemPhase>;
  serverOffset: number | null;
  live: ItemId[];
  finished: ItemId[];
  upcoming: StoreItem[];
  /** Server time moved on while items were armed: they recompute their ends. */
  resync: boolean;
  maxBids: BoardFoldState['maxBids'];
  maxDropped: BoardFoldState['maxDropped'];
  pendingMax: BoardFoldState['pendingMax'];
}

/** A pure fold of a run of messages over the board's context; `localNow` is the actor system's time. */
export function foldBoard(context: BoardFoldState, frames: readonly TimedMessage[], localNow: number): BoardFold {
  const fold: BoardFold = {
    latestBids: context.latestBids,
    pending: context.pending,
    unanswered: context.unanswered,
    store: context.store,
    cancelled: context.cancelled,
    removed: new Set(),
    generation: context.generation,
    snapshot: null,
    spawn: new Map(),
    updates: new Map(),
    phases: new Map(),
    serverOffset: context.serverOffset,
    live: context.live,
    finished: context.finished,
    upcoming: context.upcoming,
    resync: false,
    maxBids: context.maxBids,
    maxDropped: context.maxDropped,
    pendingMax: context.pendingMax,
  };
  // the phase each item had when the run began (or the last HISTORY in it): the lists then; this run's changes on top
  let before: Pick<BoardFoldState, 'live' | 'finished'> = context;
  let moved = new Map<string, ItemPhase>();
  const phase = (key: string): ItemPhase => moved.get(key) ?? phaseOf(before, key);
  const setPhase = (key: string, itemId: ItemId, next: ItemPhase) => {
    const was = phase(key);
    moved.set(key, next);
    if (was === 'live') fold.live = withoutItem(fold.live, itemId);
    if (was === 'finished') fold.finished = withoutItem(fold.finished, itemId);
    if (next === 'live') fold.live = withLive(fold.live, itemId);
    if (next === 'finished') fold.finished = [itemId, ...fold.finished];
    // an item the board hears of for the first time has started (or ended): it is upcoming no more
    if (was === 'none' && next !== 'none' && fold.upcoming.length > 0) fold.upcoming = withoutUpcoming(fold.upcoming, itemId);
  };
  const known = (key: string) => fold.spawn.has(key) || (fold.snapshot === null && key in context.items && !fold.removed.has(key));
  const push = (key: string, update: ItemUpdate) => {
    const list = fold.updates.get(key);
    if (list) list.push(update);
    else fold.updates.set(key, [update]);
  };
  for (const { event, at } of frames) {
    const { msg } = event;
    const ts = timestampOf(msg);
    if (ts !== null) {
      // a frame's own arrival time: a batch folds exactly as its frames one by one
      const sample = ts - (at ?? localNow);
      if (fold.serverOffset === null || sample > fold.serverOffset) {
        fold.resync = true;
        fold.serverOffset = sample;
      }
    }
    if (msg.type === MSG.HISTORY) {
      fold.generation += 1;
      fold.snapshot = msg.data.items.filter((it) => it.state === 'live' || it.state === 'finished');
      const spawn = new Map(fold.snapshot.map((it) => [String(it.itemId), { itemId: it.itemId, snapshot: it, phase: it.state as 'live' | 'finished' }]));
      fold.spawn = spawn;
      ({ live: fold.live, finished: fold.finished } = listsOf(fold.snapshot));
      before = { live: fold.live, finished: fold.finished };
      moved = new Map();
      if (fold.upcoming.some((it) => spawn.has(String(it.itemId)))) fold.upcoming = fold.upcoming.filter((it) => !spawn.has(String(it.itemId)));
      fold.updates = new Map();
      // a sealed item's snapshot hides its amount and leader; HISTORY's bids on it are the reader's own: their bid stands on the item
      for (const it of fold.snapshot) {
        if (it.state !== 'live' || it.format === undefined || it.format === 'english') continue;
        const own = msg.data.bids.filter((b) => b.itemId === it.itemId).sort((a, b) => a.amount - b.amount);
        for (const bid of own) push(String(it.itemId), { type: 'BID', bid });
      }
      fold.latestBids = mergeBids([], msg.data.bids);
      fold.pending = {};
      fold.unanswered = {};
      fold.store = msg.data.store ?? 'open';
      fold.cancelled = {};
      fold.removed = new Set();
      fold.maxBids = Object.fromEntries((msg.data.maxBids ?? []).filter((m) => m.max > 0).map((m) => [String(m.itemId), { max: m.max }]));
      fold.maxDropped = {};
      fold.pendingMax = {};
    } else if (msg.type === MSG.MAX_BID) {
      const key = String(msg.data.itemId);
      if (msg.data.max > 0) fold.maxBids = { ...fold.maxBids, [key]: { max: msg.data.max } };
      else if (key in fold.maxBids) fold.maxBids = withoutKey(fold.maxBids, key);
      if (msg.data.max === 0 && msg.data.reason === 'balance') fold.maxDropped = { ...fold.maxDropped, [key]: true };
      else if (key in fold.maxDropped) fold.maxDropped = withoutKey(fold.maxDropped, key);
      for (const [id, p] of Object.entries(fold.pendingMax)) if (String(p.itemId) === key) fold.pendingMax = withoutKey(fold.pendingMax, id);
    } else if (isItemMsg(msg)) {
      const key = String(msg.data.itemId);
      if (key in fold.cancelled) continue;
      if (!known(key)) fold.spawn.set(key, { itemId: msg.data.itemId });
      const update = toItemUpdate(msg);
      push(key, update);
      const was = phase(key);
      const next = phaseAfter(was, update);
      if (next !== was) setPhase(key, msg.data.itemId, next);
      if (msg.type === MSG.BID_CREATED && !isSealedBid(msg.data)) {
        const bid = msg.data;
        fold.latestBids = insertBid(fold.latestBids, bid);
        for (const [id, p] of Object.entries(fold.pending)) {
          if (p.itemId === bid.itemId && p.amount === bid.amount) fold.pending = withoutKey(fold.pending, id);
        }
        if (fold.unanswered[key] === bid.amount) fold.unanswered = withoutKey(fold.unanswered, key);
      }
    } else if (msg.type === MSG.ITEM_CANCELLED) {
      // as a reload would show it: the item and its bids are gone from the board
      const key = String(msg.data.itemId);
      if (fold.snapshot === null && key in context.items) fold.removed.add(key);
      fold.spawn.delete(key);
      fold.updates.delete(key);
      if (phase(key) !== 'none') setPhase(key, msg.data.itemId, 'none');
      fold.upcoming = withoutUpcoming(fold.upcoming, msg.data.itemId);
      fold.cancelled = { ...fold.cancelled, [key]: true };
      if (fold.latestBids.some((b) => b.itemId === msg.data.itemId)) fold.latestBids = fold.latestBids.filter((b) => b.itemId !== msg.data.itemId);
      for (const [id, p] of Object.entries(fold.pending)) if (p.itemId === msg.data.itemId) fold.pending = withoutKey(fold.pending, id);
      if (key in fold.unanswered) fold.unanswered = withoutKey(fold.unanswered, key);
    } else if (msg.type === MSG.STORE_STATE) {
      fold.store = msg.data.state;
      for (const { itemId, endsAt, heldMs } of msg.data.items) {
        const key = String(itemId);
        if (known(key)) push(key, { type: 'TIMING', endsAt, heldMs: heldMs ?? null });
      }
    } else if (msg.type === MSG.ERROR) {
      const requestId = msg.data?.requestId;
      if (requestId && requestId in fold.pending) fold.pending = withoutKey(fold.pending, requestId);
      if (requestId && requestId in fold.pendingMax) fold.pendingMax = withoutKey(fold.pendingMax, requestId);
      const itemKey = msg.data?.itemId === undefined ? null : String(msg.data.itemId);
      if (itemKey !== null && itemKey in fold.unanswered) fold.unanswered = withoutKey(fold.unanswered, itemKey);
    }
  }
  for (const key of fold.updates.keys()) fold.phases.set(key, phase(key));
  return fold;
}

/** A copy of a record without one key. */
export function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = record;
  return rest;
}
