import { assign, enqueueActions, setup } from 'xstate';
import { fieldsOf, foldItem, type ItemData, type ItemUpdate } from '../auction/item-fold';
import type { Item, ItemId } from '../protocol/socket';
import { clockNow } from './clock';

export type { ItemFields, ItemRules, ItemUpdate, ItemPhase } from '../auction/item-fold';

/**
 * One item's lifecycle on the board: none → live → finished. Every
 * server update reaches the item the same way, live or replayed: one APPLY with the updates, folded
 * once by `foldItem` (src/auction/item-fold.ts), whose outcome moves the item on.
 *
 * While live it is `open` until its end (server time, `endsAt`) passes: server time is the actor
 * system's clock plus the board's offset (`offset`, handed down by the board). Then `closing`
 * until the server settles it (SALE_COMPLETED or NO_BUYER). A bid that moves the end reopens it.
 * While the store is closed the item is `held`: its time left (`heldMs`) stands still.
 */
export interface ItemContext extends ItemData {
  /** The board's estimate of server time − local time (ms). */
  offset: number;
  /** The state HISTORY gave, when the item was built from a snapshot. */
  snapshotState: Item['state'] | null;
}

/** `snapshot`: the item as HISTORY gave it, when the board is rebuilt from a snapshot. */
export type ItemInput = { itemId: ItemId; offset?: number; snapshot?: Item };

export type ItemEvent =
  /** What the server said about the item, in order: one frame live, a run of them in a replay. */
  | { type: 'APPLY'; updates: readonly ItemUpdate[] }
  /** The board's estimate of server time changed: recompute when the end comes. */
  | { type: 'RESYNC'; offset: number }
  /** Raised by the fold of an APPLY: the item went live, its end moved, or it finished. */
  | { type: 'FOLD.LIVE' }
  | { type: 'FOLD.REOPENED' }
  | { type: 'FOLD.FINISHED' };

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
  },
  actions: {
    /** The one fold of an event: new fields, and what it means for the state (raised, so the chart moves on it). */
    apply: enqueueActions(({ context, event, enqueue }, params: { phase: 'none' | 'live' }) => {
      if (event.type !== 'APPLY') return;
      const fold = foldItem(context, params.phase, event.updates);
      if (!fold.changed) return;
      enqueue.assign(fold.fields);
      if (fold.phase === 'finished') enqueue.raise({ type: 'FOLD.FINISHED' });
      else if (params.phase === 'none') enqueue.raise({ type: 'FOLD.LIVE' });
      else if (fold.reopened) enqueue.raise({ type: 'FOLD.REOPENED' });
    }),
    setOffset: assign({ offset: ({ context, event }) => (event.type === 'RESYNC' ? event.offset : context.offset) }),
  },
}).createMachine({
  id: 'item',
  context: ({ input }) => ({
    itemId: input.itemId,
    ...fieldsOf(input.snapshot),
    offset: input.offset ?? 0,
    snapshotState: input.snapshot?.state ?? null,
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
        APPLY: { actions: { type: 'apply', params: { phase: 'none' } } },
        'FOLD.LIVE': 'live',
        'FOLD.FINISHED': 'finished',
      },
    },
    live: {
      initial: 'open',
      on: {
        APPLY: { actions: { type: 'apply', params: { phase: 'live' } } },
        'FOLD.REOPENED': { target: '.open', reenter: true },
        'FOLD.FINISHED': 'finished',
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
