import { assign, enqueueActions, setup, type ActorRefFrom } from 'xstate';
import type { Bid, ClientFrame, Item, ServerMsg, ServerMsgOf, StoreState } from '../protocol/socket';
import { MSG } from '../protocol/socket';
import type { ConnectionOutEvent, MessageFrame } from './connection.machine';
import { itemMachine, rulesOf, type ItemEvent, type ItemUpdate } from './item.machine';

/**
 * The bidding board: a fold of the auction socket's messages. Latest bids (at most 5, newest
 * first), the items map of spawned item actors, and the connected flag. HISTORY is a snapshot
 * that replaces bids and items. Duplicated or stale frames change nothing.
 *
 * One message (live) or a run of them (a replay) is one transition: the run is folded in plain
 * code first, then each item that it touched gets its updates as one event. Each message's own
 * arrival time feeds the server-time estimate, so a run leaves the board exactly where the same
 * messages one by one would.
 */
export const LATEST_BIDS = 5;
/** A bid with no answer after this long (on the actor system's clock) stops waiting: the player is told, and may bid again. */
export const BID_TIMEOUT_MS = 10_000;

export type ItemRef = ActorRefFrom<typeof itemMachine>;

/** Server time on the actor system's clock: the largest (server timestamp − local time) seen. */
export interface ServerClock {
  offset: number | null;
  local(): number;
  now(): number;
}

export interface BoardInput {
  /** The actor system's clock (Date.now live, a simulated clock in tests and replays). */
  now: () => number;
  newRequestId: () => string;
}

export interface BoardContext {
  latestBids: Bid[];
  items: Record<string, ItemRef>;
  connected: boolean;
  /** Bids sent and not yet answered, by requestId. */
  pending: Record<string, { itemId: number; amount: number }>;
  /** By itemId: the amount of the player's last bid on it that got no answer in BID_TIMEOUT_MS (until they bid again or the answer comes). */
  unanswered: Record<string, number>;
  /** The council's store: open, or closed (no bids; live items held). HISTORY and STORE_STATE say which. */
  store: StoreState;
  /** Items the council cancelled since the last HISTORY: off the board, and late frames about them change nothing. */
  cancelled: Record<string, true>;
  /** How many HISTORY snapshots replaced the board (gives spawned items fresh ids). */
  generation: number;
  clock: ServerClock;
  newRequestId: () => string;
}

export type BoardEvent =
  | { type: 'SERVER'; msg: ServerMsg }
  /** Several messages at once, in order: one fold, one transition (replays, and frames that arrive together). */
  | { type: 'SERVER_BATCH'; frames: readonly MessageFrame[] }
  | { type: 'CONNECTED'; connected: boolean }
  | { type: 'PLACE_BID'; itemId: number; amount: number }
  /** Raised BID_TIMEOUT_MS after a PLACE_BID (delayed on the actor system's clock). */
  | { type: 'BID_TIMEOUT'; requestId: string };

export type BoardOutEvent = { type: 'BOARD.SEND'; frame: ClientFrame };

/**
 * What the board hears of the connections: the auction socket's status and messages. The live app
 * and a replay both route through this one rule, so a replay folds exactly what the board folded.
 */
export function boardEventFor(event: ConnectionOutEvent): BoardEvent | null {
  if (event.channel !== 'auction') return null;
  if (event.type === 'CONNECTION.STATUS') return { type: 'CONNECTED', connected: event.connected };
  if (event.type === 'CONNECTION.MESSAGES') return { type: 'SERVER_BATCH', frames: event.frames };
  return null;
}

type ItemMsg = ServerMsgOf<'BIDDING_STARTED' | 'BID_CREATED' | 'SALE_COMPLETED' | 'NO_BUYER'>;

const bidKey = (b: Pick<Bid, 'itemId' | 'amount'>) => `${b.itemId}:${b.amount}`;

/** Newest first by server time (then amount), without duplicates, at most 5. */
export function mergeBids(current: Bid[], incoming: Bid[]): Bid[] {
  const seen = new Set<string>();
  return [...incoming, ...current]
    .filter((b) => (seen.has(bidKey(b)) ? false : (seen.add(bidKey(b)), true)))
    .sort((a, b) => b.timestamp - a.timestamp || b.amount - a.amount)
    .slice(0, LATEST_BIDS);
}

/** `mergeBids(current, [bid])` without building and sorting a list: the one bid put in its place. */
export function insertBid(current: Bid[], bid: Bid): Bid[] {
  const rest = current.filter((b) => b.itemId !== bid.itemId || b.amount !== bid.amount);
  let at = 0;
  while (at < rest.length && (rest[at].timestamp > bid.timestamp || (rest[at].timestamp === bid.timestamp && rest[at].amount > bid.amount))) at += 1;
  if (at >= LATEST_BIDS) return rest.length === current.length ? current : rest;
  rest.splice(at, 0, bid);
  if (rest.length > LATEST_BIDS) rest.length = LATEST_BIDS;
  return rest;
}

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
      return { type: 'BID', bid: msg.data };
    case MSG.SALE_COMPLETED:
      return { type: 'SOLD', itemName: msg.data.itemName, username: msg.data.username, amount: msg.data.amount };
    case MSG.NO_BUYER:
      return { type: 'NO_BUYER', itemName: msg.data.itemName };
  }
}

const isItemMsg = (msg: ServerMsg): msg is ItemMsg =>
  msg.type === MSG.BIDDING_STARTED || msg.type === MSG.BID_CREATED || msg.type === MSG.SALE_COMPLETED || msg.type === MSG.NO_BUYER;

/**
 * What a run of messages does to the board, worked out before any actor is touched: the bids,
 * the pending requests, the items to build (from a snapshot, or new) and each item's updates.
 */
interface BoardFold {
  latestBids: Bid[];
  pending: BoardContext['pending'];
  unanswered: BoardContext['unanswered'];
  store: StoreState;
  cancelled: BoardContext['cancelled'];
  /** Items cancelled in this run that the board held before it: stopped and dropped. */
  removed: Set<string>;
  generation: number;
  /** Set when a HISTORY came: the items it keeps (live or finished), replacing all others. */
  snapshot: Item[] | null;
  /** Items to spawn: from the snapshot, and those first heard of in this run. */
  spawn: Map<string, { itemId: number; snapshot?: Item }>;
  /** Each item's updates after the last snapshot, in order. */
  updates: Map<string, ItemUpdate[]>;
  /** Server time moved on while items were armed: they recompute their ends. */
  resync: boolean;
}

function foldBoard(context: BoardContext, frames: readonly MessageFrame[]): BoardFold {
  const { clock } = context;
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
    resync: false,
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
      const sample = ts - (at ?? clock.local());
      if (clock.offset === null || sample > clock.offset) {
        if (clock.offset !== null) fold.resync = true;
        clock.offset = sample;
      }
    }
    if (msg.type === MSG.HISTORY) {
      fold.generation += 1;
      fold.snapshot = msg.data.items.filter((it) => it.state === 'live' || it.state === 'finished');
      fold.spawn = new Map(fold.snapshot.map((it) => [String(it.itemId), { itemId: it.itemId, snapshot: it }]));
      fold.updates = new Map();
      fold.latestBids = mergeBids([], msg.data.bids);
      fold.pending = {};
      fold.unanswered = {};
      fold.store = msg.data.store ?? 'open';
      fold.cancelled = {};
      fold.removed = new Set();
    } else if (isItemMsg(msg)) {
      const key = String(msg.data.itemId);
      if (key in fold.cancelled) continue;
      if (!known(key)) fold.spawn.set(key, { itemId: msg.data.itemId });
      push(key, toItemUpdate(msg));
      if (msg.type === MSG.BID_CREATED) {
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
      const itemKey = msg.data?.itemId === undefined ? null : String(msg.data.itemId);
      if (itemKey !== null && itemKey in fold.unanswered) fold.unanswered = withoutKey(fold.unanswered, itemKey);
    }
  }
  return fold;
}

function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = record;
  return rest;
}

export const boardMachine = setup({
  types: {
    input: {} as BoardInput,
    context: {} as BoardContext,
    events: {} as BoardEvent,
  },
  actors: { item: itemMachine },
  actions: {
    /**
     * One message or a batch, folded at once: a snapshot stops the old items, new items are
     * spawned, and each item gets its updates as one event (in order).
     */
    fold: enqueueActions(({ context, event, enqueue }) => {
      const frames: readonly MessageFrame[] =
        event.type === 'SERVER' ? [{ event: { type: 'message', msg: event.msg } }] : event.type === 'SERVER_BATCH' ? event.frames : [];
      const fold = foldBoard(context, frames);
      if (fold.snapshot) for (const ref of Object.values(context.items)) enqueue.stopChild(ref);
      else for (const key of fold.removed) enqueue.stopChild(context.items[key]);
      enqueue.assign(({ context, spawn }) => {
        let items: Record<string, ItemRef> = fold.snapshot ? {} : fold.spawn.size > 0 || fold.removed.size > 0 ? { ...context.items } : context.items;
        if (!fold.snapshot) for (const key of fold.removed) items = withoutKey(items, key);
        for (const [key, { itemId, snapshot }] of fold.spawn) {
          items[key] = spawn('item', { id: `item-${key}-${fold.generation}`, input: { itemId, now: context.clock.now, snapshot } });
        }
        return {
          items,
          generation: fold.generation,
          latestBids: fold.latestBids,
          pending: fold.pending,
          unanswered: fold.unanswered,
          store: fold.store,
          cancelled: fold.cancelled,
        };
      });
      // a better estimate of server time re-arms the end of every item armed before it (late
      // frames start an end short); items built in this fold arm theirs after it
      if (fold.resync && !fold.snapshot) {
        for (const [key, ref] of Object.entries(context.items)) if (!fold.removed.has(key)) enqueue.sendTo(ref, { type: 'RESYNC' });
      }
      for (const [key, updates] of fold.updates) {
        const itemEvent: ItemEvent = updates.length === 1 ? updates[0] : { type: 'APPLY', updates };
        enqueue.sendTo(({ context }) => context.items[key], itemEvent);
      }
    }),
  },
}).createMachine({
  id: 'board',
  context: ({ input }) => {
    const clock: ServerClock = {
      offset: null,
      local: input.now,
      now: () => input.now() + (clock.offset ?? 0),
    };
    return {
      latestBids: [],
      items: {},
      connected: false,
      pending: {},
      unanswered: {},
      store: 'open' as StoreState,
      cancelled: {},
      generation: 0,
      clock,
      newRequestId: input.newRequestId,
    };
  },
  on: {
    CONNECTED: { actions: assign({ connected: ({ event }) => event.connected }) },
    PLACE_BID: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const requestId = context.newRequestId();
        enqueue.assign({
          pending: { ...context.pending, [requestId]: { itemId: event.itemId, amount: event.amount } },
          unanswered: withoutKey(context.unanswered, String(event.itemId)),
        });
        enqueue.sendParent({
          type: 'BOARD.SEND',
          frame: { type: MSG.CREATE_BID, data: { itemId: event.itemId, amount: event.amount, requestId } },
        } satisfies BoardOutEvent);
        enqueue.raise({ type: 'BID_TIMEOUT', requestId }, { delay: BID_TIMEOUT_MS });
      }),
    },
    BID_TIMEOUT: {
      guard: ({ context, event }) => event.requestId in context.pending,
      actions: assign(({ context, event }) => {
        const { itemId, amount } = context.pending[event.requestId];
        return { pending: withoutKey(context.pending, event.requestId), unanswered: { ...context.unanswered, [String(itemId)]: amount } };
      }),
    },
    SERVER: { actions: 'fold' },
    SERVER_BATCH: { actions: 'fold' },
  },
});

export type BoardActor = ActorRefFrom<typeof boardMachine>;
