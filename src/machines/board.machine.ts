import { assertEvent, assign, enqueueActions, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { emptyBoardFold, foldBoard, phaseOf, withoutKey, type BoardFoldState } from '../auction/board-fold';
import { upcomingOf } from '../auction/board-lists';
import type { BoardData } from '../auction/board-view';
import type { ItemData } from '../auction/item-fold';
import type { ItemId, OutgoingFrame } from '../protocol/socket';
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
 * finished, in the same fold (`phaseAfter`), so no view has to watch every item: these lists are
 * where an item's phase lives; each item actor is told its phase with its updates (APPLY) and its
 * chart follows it. And it keeps which are upcoming (scheduled): the store's REST list, fetched while a
 * view watches it (UPCOMING_WATCH / UPCOMING_UNWATCH) and every UPCOMING_REFRESH_MS on the actor
 * system's clock, by the `fetchUpcoming` actor the app provides; its answer comes in as
 * UPCOMING_LOADED. An upcoming item leaves the list when it starts (it is live on the board then)
 * or is cancelled.
 */
/** A bid with no answer after this long (on the actor system's clock) stops waiting: the player is told, and may bid again. */
export const BID_TIMEOUT_MS = 10_000;

/** While a view watches the upcoming items, the board asks the server for them again this often (and at once when a view starts watching). */
export const UPCOMING_REFRESH_MS = 30_000;

export type ItemRef = ActorRefFrom<typeof itemMachine>;

/** The board's context: the fold's data (BoardFoldState, where each field is described) with the item actors, and what only the machine keeps. */
export interface BoardContext extends Omit<BoardFoldState, 'items'> {
  items: Record<string, ItemRef>;
  /** Why the last fetch of the upcoming items failed (null when it did not). */
  upcomingError: string | null;
  /** How many views watch the upcoming items (the board fetches them while one does). */
  upcomingWatchers: number;
  /** What the board heard of the auction socket (its board view, which a replay prints, says it); the UI asks the connection itself (isConnected). */
  connected: boolean;
}

/** Server time now, as the board estimates it: the actor system's clock (`localNow`) plus the board's offset. */
export const serverTime = (context: Pick<BoardContext, 'serverOffset'>, localNow: number): number => localNow + (context.serverOffset ?? 0);

export type BoardEvent =
  /** Messages in the order they came: one live, a run of them in a replay; one fold, one transition. */
  | { type: 'SERVER'; frames: readonly MessageFrame[] }
  | { type: 'CONNECTED'; connected: boolean }
  /** `requestId`: the client's unique id for the bid, made by the UI that sends it. */
  | { type: 'PLACE_BID'; itemId: ItemId; amount: number; requestId: string }
  /** Sets (or, with max 0, withdraws) the player's maximum bid on an item; the requestId comes from the UI. */
  | { type: 'SET_MAX'; itemId: ItemId; max: number; requestId: string }
  /** Raised BID_TIMEOUT_MS after a PLACE_BID (delayed on the actor system's clock). */
  | { type: 'BID_TIMEOUT'; requestId: string }
  /** A view shows the upcoming items (fetch them now and keep them fresh) / no longer does. */
  | { type: 'UPCOMING_WATCH' }
  | { type: 'UPCOMING_UNWATCH' }
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
    pending: ({ context, event }) => {
      assertEvent(event, 'BID_TIMEOUT');
      return event.requestId in context.pending;
    },
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
      assertEvent(event, 'SERVER');
      const fold = foldBoard(context, event.frames, clockNow(system));
      if (fold.snapshot) for (const ref of Object.values(context.items)) enqueue.stopChild(ref);
      else for (const key of fold.removed) enqueue.stopChild(context.items[key]);
      const offset = fold.serverOffset ?? 0;
      enqueue.assign(({ context, spawn }) => {
        let items: Record<string, ItemRef> = fold.snapshot ? {} : fold.spawn.size > 0 || fold.removed.size > 0 ? { ...context.items } : context.items;
        if (!fold.snapshot) for (const key of fold.removed) items = withoutKey(items, key);
        for (const [key, { itemId, snapshot, phase }] of fold.spawn) {
          items[key] = spawn('item', { id: `item-${key}-${fold.generation}`, input: { itemId, offset, snapshot, phase } });
        }
        return {
          items,
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
          maxBids: fold.maxBids,
          maxDropped: fold.maxDropped,
          pendingMax: fold.pendingMax,
        };
      });
      // a better estimate of server time re-arms the end of every item armed before it (late
      // frames start an end short); items built in this fold start with it
      if (fold.resync && !fold.snapshot) {
        for (const [key, ref] of Object.entries(context.items)) if (!fold.removed.has(key)) enqueue.sendTo(ref, { type: 'RESYNC', offset });
      }
      for (const [key, updates] of fold.updates) {
        enqueue.sendTo(({ context }) => context.items[key], { type: 'APPLY', phase: fold.phases.get(key) ?? 'none', updates });
      }
    }),
  },
}).createMachine({
  id: 'board',
  // (connected first: the inspection panel's one-line summary of the context cuts the end off)
  context: {
    connected: false,
    ...emptyBoardFold(),
    items: {},
    upcomingError: null,
    upcomingWatchers: 0,
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
    SET_MAX: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const { itemId, max, requestId } = event;
        enqueue.assign({ pendingMax: { ...context.pendingMax, [requestId]: { itemId, max } } });
        enqueue.sendParent({ type: 'BOARD.SEND', frame: { type: MSG.SET_MAX_BID, data: { itemId, max, requestId } } } satisfies BoardOutEvent);
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
      actions: assign(({ context, event }) => ({ upcoming: upcomingOf(event.items, (key) => phaseOf(context, key) !== 'none', context.cancelled), upcomingError: null })),
    },
  },
  // the upcoming items: fetched while a view watches them, at once and then every UPCOMING_REFRESH_MS
  type: 'parallel',
  states: {
    upcoming: {
      initial: 'idle',
      states: {
        idle: {
          on: { UPCOMING_WATCH: { target: 'loading', actions: 'watch' } },
        },
        loading: {
          invoke: {
            id: 'fetchUpcoming',
            src: 'fetchUpcoming',
            onDone: { target: 'waiting', actions: enqueueActions(({ event, enqueue }) => enqueue.raise({ type: 'UPCOMING_LOADED', items: event.output })) },
            onError: { target: 'waiting', actions: assign({ upcomingError: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)) }) },
          },
          on: {
            UPCOMING_WATCH: { actions: 'watch' },
            UPCOMING_UNWATCH: [{ guard: 'lastWatcher', target: 'idle', actions: 'unwatch' }, { actions: 'unwatch' }],
          },
        },
        waiting: {
          after: { upcomingRefresh: 'loading' },
          on: {
            // a view that starts watching shows what the board has and asks for the news
            UPCOMING_WATCH: { target: 'loading', actions: 'watch' },
            UPCOMING_UNWATCH: [{ guard: 'lastWatcher', target: 'idle', actions: 'unwatch' }, { actions: 'unwatch' }],
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
  const { connected, store, latestBids, items, maxBids } = board.getSnapshot().context;
  const data: Record<string, { data: ItemData; finished: boolean }> = {};
  for (const [key, ref] of Object.entries(items)) {
    const snapshot = ref.getSnapshot();
    data[key] = { data: snapshot.context, finished: snapshot.matches('finished') };
  }
  return { connected, store, latestBids, items: data, maxBids };
}
