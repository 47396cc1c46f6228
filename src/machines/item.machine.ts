import { assign, setup } from 'xstate';
import type { Bid, Item } from '../protocol/socket';

/**
 * One item's lifecycle on the board: none → live → finished. While live it is `open` until its
 * end (server time, `endsAt`) passes on the actor system's clock, then `closing` until the
 * server settles it (SALE_COMPLETED or NO_BUYER). A bid that extends the end reopens it.
 */
export interface ItemContext {
  itemId: number;
  itemName: string;
  amount: number;
  username: string;
  endsAt: number;
  start_price: number | null;
  minIncrement: number | null;
  imageUrl: string | null;
  description: string | null;
  /** Ranks and groups allowed to bid, when the item is limited (both empty: everyone). */
  ranks: string[];
  groups: string[];
  /** Once finished: sold (to `username` for `amount`) or not. */
  sold: boolean | null;
  /** Server time, as the board estimates it on the actor system's clock. */
  now: () => number;
  /** The state HISTORY gave, when the item was built from a snapshot. */
  snapshotState: Item['state'] | null;
}

/** `snapshot`: the item as HISTORY gave it, when the board is rebuilt from a snapshot. */
export type ItemInput = { itemId: number; now: () => number; snapshot?: Item };

export type ItemEvent =
  /** The board's estimate of server time changed: recompute when the end comes. */
  | { type: 'RESYNC' }
  | { type: 'STARTED'; itemName: string; start_price: number; endsAt: number }
  | { type: 'BID'; bid: Bid }
  | { type: 'SOLD'; itemName: string; username: string; amount: number }
  | { type: 'NO_BUYER'; itemName: string };

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function listOf(eligibility: unknown, key: 'ranks' | 'groups'): string[] {
  const list = (eligibility as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string') : [];
}

export const itemMachine = setup({
  types: {
    input: {} as ItemInput,
    context: {} as ItemContext,
    events: {} as ItemEvent,
  },
  delays: {
    untilEnd: ({ context }) => Math.max(0, context.endsAt - context.now()),
  },
  guards: {
    snapshotLive: ({ context }) => context.snapshotState === 'live',
    snapshotFinished: ({ context }) => context.snapshotState === 'finished',
    /** Frames may come twice or out of order: a bid that does not raise the amount is stale. */
    raises: ({ context, event }) => event.type === 'BID' && (context.username === 'server' || event.bid.amount > context.amount),
  },
  actions: {
    fromBid: assign(({ event }) => {
      if (event.type !== 'BID') return {};
      const { bid } = event;
      return { itemName: bid.itemName, amount: bid.amount, username: bid.username, endsAt: bid.endsAt };
    }),
  },
}).createMachine({
  id: 'item',
  context: ({ input }) => {
    const it = input.snapshot;
    return {
      itemId: input.itemId,
      itemName: it?.itemName ?? '',
      amount: it?.amount ?? 0,
      username: it?.username ?? 'server',
      endsAt: it?.endsAt ?? 0,
      start_price: it?.start_price ?? null,
      minIncrement: it?.minIncrement ?? null,
      imageUrl: str(it?.imageUrl),
      description: str(it?.description),
      ranks: listOf(it?.eligibility, 'ranks'),
      groups: listOf(it?.eligibility, 'groups'),
      sold: it?.state === 'finished' ? it.username !== 'server' : null,
      now: input.now,
      snapshotState: it?.state ?? null,
    };
  },
  initial: 'none',
  states: {
    none: {
      always: [
        { guard: 'snapshotLive', target: 'live' },
        { guard: 'snapshotFinished', target: 'finished' },
      ],
      on: {
        STARTED: {
          target: 'live',
          actions: assign(({ event }) => ({ itemName: event.itemName, amount: event.start_price, start_price: event.start_price, username: 'server', endsAt: event.endsAt })),
        },
        BID: { target: 'live', actions: 'fromBid' },
        SOLD: { target: 'finished', actions: assign(({ event }) => ({ itemName: event.itemName, username: event.username, amount: event.amount, sold: true })) },
        NO_BUYER: { target: 'finished', actions: assign(({ event }) => ({ itemName: event.itemName, sold: false })) },
      },
    },
    live: {
      initial: 'open',
      on: {
        BID: { guard: 'raises', target: '.open', reenter: true, actions: 'fromBid' },
        SOLD: { target: 'finished', actions: assign(({ event }) => ({ username: event.username, amount: event.amount, sold: true })) },
        NO_BUYER: { target: 'finished', actions: assign({ sold: false }) },
      },
      states: {
        open: {
          after: { untilEnd: 'closing' },
          on: { RESYNC: { target: 'open', reenter: true } },
        },
        /** The end has passed here; the server's settlement is on its way. */
        closing: {},
      },
    },
    finished: {},
  },
});
