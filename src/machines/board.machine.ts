import { assign, enqueueActions, setup, type ActorRefFrom } from 'xstate';
import type { Bid, ClientFrame, ServerMsg, ServerMsgOf } from '../protocol/socket';
import { MSG } from '../protocol/socket';
import type { ConnectionOutEvent } from './connection.machine';
import { itemMachine, type ItemEvent } from './item.machine';

/**
 * The bidding board: a fold of the auction socket's messages. Latest bids (at most 5, newest
 * first), the items map of spawned item actors, and the connected flag. HISTORY is a snapshot
 * that replaces bids and items. Duplicated or stale frames change nothing.
 */
export const LATEST_BIDS = 5;

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
  /** How many HISTORY snapshots replaced the board (gives spawned items fresh ids). */
  generation: number;
  clock: ServerClock;
  newRequestId: () => string;
}

export type BoardEvent =
  | { type: 'SERVER'; msg: ServerMsg }
  | { type: 'CONNECTED'; connected: boolean }
  | { type: 'PLACE_BID'; itemId: number; amount: number };

export type BoardOutEvent = { type: 'BOARD.SEND'; frame: ClientFrame };

/**
 * What the board hears of the connections: the auction socket's status and messages. The live app
 * and a replay both route through this one rule, so a replay folds exactly what the board folded.
 */
export function boardEventFor(event: ConnectionOutEvent): BoardEvent | null {
  if (event.channel !== 'auction') return null;
  if (event.type === 'CONNECTION.STATUS') return { type: 'CONNECTED', connected: event.connected };
  if (event.type === 'CONNECTION.MESSAGE') return { type: 'SERVER', msg: event.msg };
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

function timestampOf(msg: ServerMsg): number | null {
  if (msg.type === MSG.BID_CREATED || msg.type === MSG.BIDDING_STARTED) return msg.data.timestamp;
  if (msg.type === MSG.HISTORY) return msg.data.items[0]?.timestamp ?? null;
  return null;
}

function toItemEvent(msg: ItemMsg): ItemEvent {
  switch (msg.type) {
    case MSG.BIDDING_STARTED:
      return { type: 'STARTED', itemName: msg.data.itemName, start_price: msg.data.start_price, endsAt: msg.data.endsAt };
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

export const boardMachine = setup({
  types: {
    input: {} as BoardInput,
    context: {} as BoardContext,
    events: {} as BoardEvent,
  },
  actors: { item: itemMachine },
  guards: {
    history: ({ event }) => event.type === 'SERVER' && event.msg.type === MSG.HISTORY,
    itemMessage: ({ event }) => event.type === 'SERVER' && isItemMsg(event.msg),
    answersPending: ({ context, event }) =>
      event.type === 'SERVER' && event.msg.type === MSG.ERROR && !!event.msg.data?.requestId && event.msg.data.requestId in context.pending,
  },
  actions: {
    /** A better estimate of server time re-arms every live item's end (late frames start it short). */
    observeServerTime: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'SERVER') return;
      const ts = timestampOf(event.msg);
      if (ts === null) return;
      const sample = ts - context.clock.local();
      if (context.clock.offset !== null && sample <= context.clock.offset) return;
      const improved = context.clock.offset !== null;
      context.clock.offset = sample;
      if (improved) for (const ref of Object.values(context.items)) enqueue.sendTo(ref, { type: 'RESYNC' });
    }),
    stopItems: enqueueActions(({ context, enqueue }) => {
      for (const ref of Object.values(context.items)) enqueue.stopChild(ref);
    }),
    applyHistory: assign(({ context, event, spawn }) => {
      if (event.type !== 'SERVER' || event.msg.type !== MSG.HISTORY) return {};
      const generation = context.generation + 1;
      const items: Record<string, ItemRef> = {};
      for (const snapshot of event.msg.data.items) {
        if (snapshot.state !== 'live' && snapshot.state !== 'finished') continue;
        const key = String(snapshot.itemId);
        items[key] = spawn('item', { id: `item-${key}-${generation}`, input: { itemId: snapshot.itemId, now: context.clock.now, snapshot } });
      }
      return { items, generation, latestBids: mergeBids([], event.msg.data.bids), pending: {} };
    }),
    ensureItem: assign(({ context, event, spawn }) => {
      if (event.type !== 'SERVER' || !isItemMsg(event.msg)) return {};
      const key = String(event.msg.data.itemId);
      if (context.items[key]) return {};
      const ref = spawn('item', { id: `item-${key}-${context.generation}`, input: { itemId: event.msg.data.itemId, now: context.clock.now } });
      return { items: { ...context.items, [key]: ref } };
    }),
    forwardToItem: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'SERVER' || !isItemMsg(event.msg)) return;
      enqueue.sendTo(context.items[String(event.msg.data.itemId)], toItemEvent(event.msg));
    }),
    recordBid: assign(({ context, event }) => {
      if (event.type !== 'SERVER' || event.msg.type !== MSG.BID_CREATED) return {};
      const bid = event.msg.data;
      const pending = Object.fromEntries(Object.entries(context.pending).filter(([, p]) => !(p.itemId === bid.itemId && p.amount === bid.amount)));
      return { latestBids: mergeBids(context.latestBids, [bid]), pending };
    }),
    clearPending: assign(({ context, event }) => {
      if (event.type !== 'SERVER' || event.msg.type !== MSG.ERROR) return {};
      const requestId = event.msg.data?.requestId;
      return { pending: Object.fromEntries(Object.entries(context.pending).filter(([id]) => id !== requestId)) };
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
    return { latestBids: [], items: {}, connected: false, pending: {}, generation: 0, clock, newRequestId: input.newRequestId };
  },
  on: {
    CONNECTED: { actions: assign({ connected: ({ event }) => event.connected }) },
    PLACE_BID: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const requestId = context.newRequestId();
        enqueue.assign({ pending: { ...context.pending, [requestId]: { itemId: event.itemId, amount: event.amount } } });
        enqueue.sendParent({
          type: 'BOARD.SEND',
          frame: { type: MSG.CREATE_BID, data: { itemId: event.itemId, amount: event.amount, requestId } },
        } satisfies BoardOutEvent);
      }),
    },
    SERVER: [
      { guard: 'history', actions: ['observeServerTime', 'stopItems', 'applyHistory'] },
      { guard: 'itemMessage', actions: ['observeServerTime', 'ensureItem', 'forwardToItem', 'recordBid'] },
      { guard: 'answersPending', actions: 'clearPending' },
    ],
  },
});

export type BoardActor = ActorRefFrom<typeof boardMachine>;
