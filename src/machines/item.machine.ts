import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import { fieldsOf, foldItem, type ItemData, type ItemPhase, type ItemUpdate } from '../auction/item-fold';
import type { Item, ItemId } from '../protocol/socket';
import { clockNow } from './clock';

export type { ItemFields, ItemRules, ItemUpdate, ItemPhase } from '../auction/item-fold';

/**
 * One item's lifecycle on the board: none → live → finished. Which of the three it is in is the
 * board's word, not the item's: the board's fold decides it (its live and finished lists) and hands
 * it with each run of updates, one APPLY, live or replayed; the chart moves where it says. The
 * updates are folded once by `foldItem` (src/auction/item-fold.ts) into the item's fields.
 *
 * While live it is `open` until its end (server time, `endsAt`) passes: server time is the actor
 * system's clock plus the board's offset (`offset`, handed down by the board). Then `closing`
 * until the server settles it (SALE_COMPLETED or NO_BUYER). A bid that moves the end reopens it.
 * While the store is closed the item is `held`: its time left (`heldMs`) stands still. These live
 * states and their timers are the item's own.
 */
export interface ItemContext extends ItemData {
  /** The board's estimate of server time − local time (ms). */
  offset: number;
  /** The phase the board gave the item when it built it from a HISTORY snapshot (the snapshot's state); null for an item first heard of in a message. */
  snapshotState: Extract<Item['state'], 'live' | 'finished'> | null;
}

/** `snapshot`: the item as HISTORY gave it, when the board is rebuilt from a snapshot; `phase`: the board's word on its phase then. */
export type ItemInput = { itemId: ItemId; offset?: number; snapshot?: Item; phase?: 'live' | 'finished' };

export type ItemEvent =
  /** What the server said about the item, in order (one frame live, a run of them in a replay), and the phase the board's fold gave the item after them. */
  | { type: 'APPLY'; phase: ItemPhase; updates: readonly ItemUpdate[] }
  /** The board's estimate of server time changed: recompute when the end comes. */
  | { type: 'RESYNC'; offset: number }
  /** Raised by the fold of an APPLY while live: the item's end moved (a bid in the soft-close window, the store opened again). */
  | { type: 'FOLD.REOPENED' };

export const itemMachine = setup({
  types: {
    input: {} as ItemInput,
    context: {} as ItemContext,
    events: {} as ItemEvent,
  },
  delays: {
    untilEnd: ({ context, system }) => Math.max(0, context.endsAt - (clockNow(system) + context.offset)),
  },
  guards: {
    held: ({ context }) => context.heldMs !== null,
    snapshotLive: ({ context }) => context.snapshotState === 'live',
    snapshotFinished: ({ context }) => context.snapshotState === 'finished',
    /** The board's word with the updates. */
    boardSays: ({ event }, params: { phase: ItemPhase }) => {
      assertEvent(event, 'APPLY');
      return event.phase === params.phase;
    },
  },
  actions: {
    /** The one fold of an event's updates, from the phase the item was in: new fields, and, while live, whether its end moved (raised, so the chart reopens on it). */
    apply: enqueueActions(({ context, event, enqueue }, params: { from: 'none' | 'live' }) => {
      assertEvent(event, 'APPLY');
      const fold = foldItem(context, params.from, event.updates);
      if (!fold.changed) return;
      enqueue.assign(fold.fields);
      if (params.from === 'live' && event.phase === 'live' && fold.reopened) enqueue.raise({ type: 'FOLD.REOPENED' });
    }),
    setOffset: assign({
      offset: ({ event }) => {
        assertEvent(event, 'RESYNC');
        return event.offset;
      },
    }),
  },
}).createMachine({
  id: 'item',
  context: ({ input }) => ({
    itemId: input.itemId,
    ...fieldsOf(input.snapshot),
    offset: input.offset ?? 0,
    snapshotState: input.phase ?? null,
  }),
  initial: 'none',
  on: {
    RESYNC: { actions: 'setOffset' },
  },
  states: {
    none: {
      always: [
        { guard: 'snapshotLive', target: 'live' },
        { guard: 'snapshotFinished', target: 'finished' },
      ],
      on: {
        APPLY: [
          { guard: { type: 'boardSays', params: { phase: 'finished' } }, target: 'finished', actions: { type: 'apply', params: { from: 'none' } } },
          { guard: { type: 'boardSays', params: { phase: 'live' } }, target: 'live', actions: { type: 'apply', params: { from: 'none' } } },
          { actions: { type: 'apply', params: { from: 'none' } } },
        ],
      },
    },
    live: {
      initial: 'open',
      on: {
        APPLY: [
          { guard: { type: 'boardSays', params: { phase: 'finished' } }, target: 'finished', actions: { type: 'apply', params: { from: 'live' } } },
          { actions: { type: 'apply', params: { from: 'live' } } },
        ],
        'FOLD.REOPENED': { target: '.open', reenter: true },
      },
      states: {
        open: {
          always: { guard: 'held', target: 'held' },
          after: { untilEnd: 'closing' },
          on: { RESYNC: { target: 'open', reenter: true, actions: 'setOffset' } },
        },
        /** The store is closed: the time left stands still until it opens (TIMING with the new end). */
        held: {},
        /** The end has passed here; the server's settlement is on its way. */
        closing: {},
      },
    },
    finished: {},
  },
});
