import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { listsOf, upcomingOf, withLive, withoutItem, withoutUpcoming } from '../auction/board-lists';
import type { BoardData } from '../auction/board-view';
import { phaseAfter, rulesOf, type ItemData, type ItemPhase, type ItemUpdate } from '../auction/item-fold';
import { insertBid, mergeBids } from '../auction/latest-bids';
import type { Bid, Item, ItemId, OutgoingFrame, ServerMsg, ServerMsgOf, StoreState } from '../protocol/socket';
import { MSG } from '../protocol/socket';
import type { StoreItem } from '../protocol/store';
import { clockNow } from './clock';
import type { ConnectionOutEvent, MessageFrame } from './connection.machine';
import { itemMachine } from './item.machine';

export { LATEST_BIDS, insertBid, mergeBids } from '../auction/latest-bids';

/**
 * The bidding board: a fold of the auction socket's messages. Latest bids (at most 5, newest
 * first), the items map of spawned item actors, and the connected flag. HISTORY is a snapshot
 * that replaces bids and items. Duplicated or stale frames change nothing.
 *
 * One message (live) or a run of them (a replay) is one SERVER event and one transition: the run is
 * folded in plain code first, then each item that it touched gets its updates as one APPLY. Each
 * message's own arrival time feeds the server-time estimate, so a run leaves the board exactly where
 * the same messages one by one would.
 *
 * The context is plain data (a persisted snapshot is JSON and restores to the same board): the
 * server-time offset changes through `assign`, a bid's requestId comes on PLACE_BID (the UI makes
 * it), the local time is the actor system's clock. The board also keeps which items are live and
 * finished, in the same fold, by the arrows the items follow (`phaseAfter`), so no view has to
 * watch every item; and which are upcoming (scheduled): the store's REST list, fetched while a
 * view watches it (UPCOMING.WATCH / UPCOMING.UNWATCH) and every UPCOMING_REFRESH_MS on the actor
 * system's clock, by the `fetchUpcoming` actor the app provides; its answer comes in as
 * UPCOMING_LOADED. An upcoming item leaves the list when it starts (it is live on the board then)
 * or is cancelled.
 */
/** A bid with no answer after this long (on the actor system's clock) stops waiting: the player is told, and may bid again. */
export const BID_TIMEOUT_MS = 10_000;

/** While a view watches the upcoming items, the board asks the server for them again this often (and at once when a view starts watching). */
export const UPCOMING_REFRESH_MS = 30_000;

export type ItemRef = ActorRefFrom<typeof itemMachine>;

export interface BoardContext {
  latestBids: Bid[];
  items: Record<string, ItemRef>;
  /** Each item's phase (none is never at rest: any message about an item moves it on), by item key. */
  phases: Record<string, Exclude<ItemPhase, 'none'>>;
  /** Live items' ids, in id order (numbers, then strings). */
  live: ItemId[];
  /** Finished items' ids, most recently finished first. */
  finished: ItemId[];
  /** Scheduled items (the store's REST list), soonest start first: none the board holds as live or finished, none cancelled. */
  upcoming: StoreItem[];
  /** Why the last fetch of the upcoming items failed (null when it did not). */
  upcomingError: string | null;
  /** How many views watch the upcoming items (the board fetches them while one does). */
  upcomingWatchers: number;
  /** What the board heard of the auction socket (its board view, which a replay prints, says it); the UI asks the connection itself (isConnected). */
  connected: boolean;
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
}

/** Server time now, as the board estimates it: the actor system's clock (`localNow`) plus the board's offset. */
export const serverTime = (context: Pick<BoardContext, 'serverOffset'>, localNow: number): number => localNow + (context.serverOffset ?? 0);

export type BoardEvent =
  /** Messages in the order they came: one live, a run of them in a replay; one fold, one transition. */
  | { type: 'SERVER'; frames: readonly MessageFrame[] }
  | { type: 'CONNECTED'; connected: boolean }
  /** `requestId`: the client's unique id for the bid, made by the UI that sends it. */
  | { type: 'PLACE_BID'; itemId: ItemId; amount: number; requestId: string }
  /** Raised BID_TIMEOUT_MS after a PLACE_BID (delayed on the actor system's clock). */
  | { type: 'BID_TIMEOUT'; requestId: string }
  /** A view shows the upcoming items (fetch them now and keep them fresh) / no longer does. */
  | { type: 'UPCOMING.WATCH' }
  | { type: 'UPCOMING.UNWATCH' }
  /** The store's scheduled items, as the server listed them (the `fetchUpcoming` actor's answer). */
  | { type: 'UPCOMING_LOADED'; items: StoreItem[] };

export type BoardOutEvent = { type: 'BOARD.SEND'; frame: OutgoingFrame };

/**
 * What the board hears of the connections: the auction socket's status and messages. The live app
 * and a replay both route through this one rule, so a replay folds exactly what the board folded.
 */
export function boardEventFor(event: ConnectionOutEvent): BoardEvent | null {
  if (event.channel !== 'auction') return null;
  if (event.type === 'CONNECTION.STATUS') return { type: 'CONNECTED', connected: event.connected };
  if (event.type === 'CONNECTION.MESSAGES') return { type: 'SERVER', frames: event.frames };
  return null;
}

type ItemMsg = ServerMsgOf<'BIDDING_STARTED' | 'BID_CREATED' | 'SALE_COMPLETED' | 'NO_BUYER'>;

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
  spawn: Map<string, { itemId: ItemId; snapshot?: Item }>;
  /** Each item's updates after the last snapshot, in order. */
  updates: Map<string, ItemUpdate[]>;
  serverOffset: number | null;
  phases: BoardContext['phases'];
  live: ItemId[];
  finished: ItemId[];
  upcoming: StoreItem[];
  /** Server time moved on while items were armed: they recompute their ends. */
  resync: boolean;
}

/** A pure fold of a run of messages over the board's context; `localNow` is the actor system's time. */
function foldBoard(context: BoardContext, frames: readonly MessageFrame[], localNow: number): BoardFold {
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
    serverOffset: context.serverOffset,
    phases: context.phases,
    live: context.live,
    finished: context.finished,
    upcoming: context.upcoming,
    resync: false,
  };
  // the phases record is copied once per fold, on its first change
  let ownPhases = false;
  const setPhase = (key: string, itemId: ItemId, phase: Exclude<ItemPhase, 'none'> | null) => {
    if (!ownPhases) {
      fold.phases = { ...fold.phases };
      ownPhases = true;
    }
    const was = fold.phases[key];
    if (phase === null) delete fold.phases[key];
    else fold.phases[key] = phase;
    if (was === 'live') fold.live = withoutItem(fold.live, itemId);
    if (was === 'finished') fold.finished = withoutItem(fold.finished, itemId);
    if (phase === 'live') fold.live = withLive(fold.live, itemId);
    if (phase === 'finished') fold.finished = [itemId, ...fold.finished];
    // an item the board hears of for the first time has started (or ended): it is upcoming no more
    if (was === undefined && phase !== null && fold.upcoming.length > 0) fold.upcoming = withoutUpcoming(fold.upcoming, itemId);
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
      fold.spawn = new Map(fold.snapshot.map((it) => [String(it.itemId), { itemId: it.itemId, snapshot: it }]));
      ({ live: fold.live, finished: fold.finished } = listsOf(fold.snapshot));
      fold.phases = Object.fromEntries(fold.snapshot.map((it) => [String(it.itemId), it.state as 'live' | 'finished']));
      ownPhases = true;
      if (fold.upcoming.some((it) => String(it.itemId) in fold.phases)) fold.upcoming = fold.upcoming.filter((it) => !(String(it.itemId) in fold.phases));
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
      const update = toItemUpdate(msg);
      push(key, update);
      const phase = fold.phases[key] ?? 'none';
      const next = phaseAfter(phase, update);
      if (next !== phase) setPhase(key, msg.data.itemId, next as Exclude<ItemPhase, 'none'>);
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
      if (key in fold.phases) setPhase(key, msg.data.itemId, null);
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
    context: {} as BoardContext,
    events: {} as BoardEvent,
  },
  actors: {
    item: itemMachine,
    /** The store's scheduled items (GET store/items?state=scheduled): provided by the app (src/ui/boot), which has the REST client. */
    fetchUpcoming: fromPromise<StoreItem[]>(() => Promise.reject(new Error('fetchUpcoming is not provided'))),
  },
  delays: { upcomingRefresh: UPCOMING_REFRESH_MS },
  guards: {
    pending: ({ context, event }) => event.type === 'BID_TIMEOUT' && event.requestId in context.pending,
    lastWatcher: ({ context }) => context.upcomingWatchers <= 1,
  },
  actions: {
    watch: assign({ upcomingWatchers: ({ context }) => context.upcomingWatchers + 1 }),
    unwatch: assign({ upcomingWatchers: ({ context }) => Math.max(0, context.upcomingWatchers - 1) }),
    /**
     * A run of messages, folded at once: a snapshot stops the old items, new items are spawned,
     * and each item gets its updates as one APPLY (in order).
     */
    fold: enqueueActions(({ context, event, system, enqueue }) => {
      if (event.type !== 'SERVER') return;
      const fold = foldBoard(context, event.frames, clockNow(system));
      if (fold.snapshot) for (const ref of Object.values(context.items)) enqueue.stopChild(ref);
      else for (const key of fold.removed) enqueue.stopChild(context.items[key]);
      const offset = fold.serverOffset ?? 0;
      enqueue.assign(({ context, spawn }) => {
        let items: Record<string, ItemRef> = fold.snapshot ? {} : fold.spawn.size > 0 || fold.removed.size > 0 ? { ...context.items } : context.items;
        if (!fold.snapshot) for (const key of fold.removed) items = withoutKey(items, key);
        for (const [key, { itemId, snapshot }] of fold.spawn) {
          items[key] = spawn('item', { id: `item-${key}-${fold.generation}`, input: { itemId, offset, snapshot } });
        }
        return {
          items,
          phases: fold.phases,
          live: fold.live,
          finished: fold.finished,
          upcoming: fold.upcoming,
          generation: fold.generation,
          latestBids: fold.latestBids,
          pending: fold.pending,
          unanswered: fold.unanswered,
          store: fold.store,
          cancelled: fold.cancelled,
          serverOffset: fold.serverOffset,
        };
      });
      // a better estimate of server time re-arms the end of every item armed before it (late
      // frames start an end short); items built in this fold start with it
      if (fold.resync && !fold.snapshot) {
        for (const [key, ref] of Object.entries(context.items)) if (!fold.removed.has(key)) enqueue.sendTo(ref, { type: 'RESYNC', offset });
      }
      for (const [key, updates] of fold.updates) {
        enqueue.sendTo(({ context }) => context.items[key], { type: 'APPLY', updates });
      }
    }),
  },
}).createMachine({
  id: 'board',
  context: {
    latestBids: [],
    items: {},
    phases: {},
    live: [],
    finished: [],
    upcoming: [],
    upcomingError: null,
    upcomingWatchers: 0,
    connected: false,
    pending: {},
    unanswered: {},
    store: 'open',
    cancelled: {},
    generation: 0,
    serverOffset: null,
  },
  on: {
    CONNECTED: { actions: assign({ connected: ({ event }) => event.connected }) },
    PLACE_BID: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const { itemId, amount, requestId } = event;
        enqueue.assign({
          pending: { ...context.pending, [requestId]: { itemId, amount } },
          unanswered: withoutKey(context.unanswered, String(itemId)),
        });
        enqueue.sendParent({ type: 'BOARD.SEND', frame: { type: MSG.CREATE_BID, data: { itemId, amount, requestId } } } satisfies BoardOutEvent);
        enqueue.raise({ type: 'BID_TIMEOUT', requestId }, { delay: BID_TIMEOUT_MS });
      }),
    },
    BID_TIMEOUT: {
      guard: 'pending',
      actions: assign(({ context, event }) => {
        const { itemId, amount } = context.pending[event.requestId];
        return { pending: withoutKey(context.pending, event.requestId), unanswered: { ...context.unanswered, [String(itemId)]: amount } };
      }),
    },
    SERVER: { actions: 'fold' },
    UPCOMING_LOADED: {
      actions: assign(({ context, event }) => ({ upcoming: upcomingOf(event.items, context.phases, context.cancelled), upcomingError: null })),
    },
  },
  // the upcoming items: fetched while a view watches them, at once and then every UPCOMING_REFRESH_MS
  type: 'parallel',
  states: {
    upcoming: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'UPCOMING.WATCH': { target: 'loading', actions: 'watch' } },
        },
        loading: {
          invoke: {
            id: 'fetchUpcoming',
            src: 'fetchUpcoming',
            onDone: { target: 'waiting', actions: enqueueActions(({ event, enqueue }) => enqueue.raise({ type: 'UPCOMING_LOADED', items: event.output })) },
            onError: { target: 'waiting', actions: assign({ upcomingError: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)) }) },
          },
          on: {
            'UPCOMING.WATCH': { actions: 'watch' },
            'UPCOMING.UNWATCH': [{ guard: 'lastWatcher', target: 'idle', actions: 'unwatch' }, { actions: 'unwatch' }],
          },
        },
        waiting: {
          after: { upcomingRefresh: 'loading' },
          on: {
            // a view that starts watching shows what the board has and asks for the news
            'UPCOMING.WATCH': { target: 'loading', actions: 'watch' },
            'UPCOMING.UNWATCH': [{ guard: 'lastWatcher', target: 'idle', actions: 'unwatch' }, { actions: 'unwatch' }],
          },
        },
      },
    },
  },
});

export type BoardActor = ActorRefFrom<typeof boardMachine>;
export type BoardSnapshot = SnapshotFrom<typeof boardMachine>;

/** The views a page reads from the board's snapshot (with `useSelector`); each list changes only when an item joins or leaves it. */
export const selectLive = ({ context: { items, live } }: BoardSnapshot): ItemRef[] => live.flatMap((id) => items[String(id)] ?? []);
export const selectFinished = ({ context: { items, finished } }: BoardSnapshot): ItemRef[] => finished.flatMap((id) => items[String(id)] ?? []);
export const selectUpcoming = (snapshot: BoardSnapshot): StoreItem[] => snapshot.context.upcoming;
export const selectUpcomingError = (snapshot: BoardSnapshot): string | null => snapshot.context.upcomingError;
/** For `useSelector`: two lists of item actors are the same view when they hold the same actors in the same order. */
export const sameRefs = (a: readonly ItemRef[], b: readonly ItemRef[]): boolean => a.length === b.length && a.every((ref, i) => ref === b[i]);

/** The board's data as plain data (what viewBoard reads): each item's fields and whether it finished. */
export function boardData(board: BoardActor): BoardData {
  const { connected, store, latestBids, items } = board.getSnapshot().context;
  const data: Record<string, { data: ItemData; finished: boolean }> = {};
  for (const [key, ref] of Object.entries(items)) {
    const snapshot = ref.getSnapshot();
    data[key] = { data: snapshot.context, finished: snapshot.matches('finished') };
  }
  return { connected, store, latestBids, items: data };
}
