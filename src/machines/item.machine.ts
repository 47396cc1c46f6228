import { assign, setup } from 'xstate';
import type { Bid, BiddingStarted, Item } from '../protocol/socket';

/**
 * One item's lifecycle on the board: none → live → finished. While live it is `open` until its
 * end (server time, `endsAt`) passes on the actor system's clock, then `closing` until the
 * server settles it (SALE_COMPLETED or NO_BUYER). A bid that extends the end reopens it. While
 * the store is closed the item is `held`: its time left (`heldMs`) stands still and it cannot end.
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
}

export interface ItemContext extends ItemRules {
  itemId: number;
  itemName: string;
  amount: number;
  username: string;
  endsAt: number;
  start_price: number | null;
  /** Once finished: sold (to `username` for `amount`) or not. */
  sold: boolean | null;
  /** Server time, as the board estimates it on the actor system's clock. */
  now: () => number;
  /** The state HISTORY gave, when the item was built from a snapshot. */
  snapshotState: Item['state'] | null;
}

/** `snapshot`: the item as HISTORY gave it, when the board is rebuilt from a snapshot. */
export type ItemInput = { itemId: number; now: () => number; snapshot?: Item };

/** Something the server said about the item. `rules` on a start: everything BIDDING_STARTED carried (absent in old logs). */
export type ItemUpdate =
  | { type: 'STARTED'; itemName: string; start_price: number; endsAt: number; rules?: Partial<ItemRules> }
  | { type: 'BID'; bid: Bid }
  /** The store closed (heldMs: the time left, held) or opened again (heldMs null, a new end). */
  | { type: 'TIMING'; endsAt: number; heldMs: number | null }
  | { type: 'SOLD'; itemName: string; username: string; amount: number }
  | { type: 'NO_BUYER'; itemName: string };

export type ItemEvent =
  /** The board's estimate of server time changed: recompute when the end comes. */
  | { type: 'RESYNC' }
  | ItemUpdate
  /** Several updates at once, in order (a batch of frames): one transition for all of them. */
  | { type: 'APPLY'; updates: readonly ItemUpdate[] };

export type ItemPhase = 'none' | 'live' | 'finished';

/** The fields the server's updates change. */
export type ItemFields = Pick<ItemContext, 'itemName' | 'amount' | 'username' | 'endsAt' | 'start_price' | 'sold' | keyof ItemRules>;

const RULE_KEYS = ['minIncrement', 'imageUrl', 'description', 'ranks', 'groups', 'extendWindow', 'maxExtensions', 'extensions', 'heldMs'] as const satisfies readonly (keyof ItemRules)[];

function fieldsOf(context: ItemFields): ItemFields {
  const { itemName, amount, username, endsAt, start_price, sold } = context;
  const fields: ItemFields = { itemName, amount, username, endsAt, start_price, sold } as ItemFields;
  for (const key of RULE_KEYS) (fields as unknown as Record<string, unknown>)[key] = context[key];
  return fields;
}

export interface ItemFold {
  phase: ItemPhase;
  fields: ItemFields;
  /** The item went live, or its end moved (a bid in the soft-close window): it is open until the new end. */
  reopened: boolean;
  /** Some update counted (not only stale or repeated frames). */
  changed: boolean;
}

/**
 * The item's rules as one pure fold, so that one update and a batch of a thousand go the same way:
 * from none, a start or any bid makes it live and a sale or no-buyer finishes it; while live, only
 * a bid that raises the amount counts (frames may come twice or out of order) and a settlement
 * finishes it; once finished, nothing changes it.
 */
export function foldItem(start: ItemFields, phase: ItemPhase, updates: readonly ItemUpdate[]): ItemFold {
  let { itemName, amount, username, endsAt, start_price, sold } = start;
  let rules: ItemRules = fieldsOf(start);
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
        phase = 'live';
        reopened = true;
        break;
      case 'BID': {
        if (phase === 'live' && username !== 'server' && update.bid.amount <= amount) continue;
        if (phase === 'none' || update.bid.endsAt !== endsAt) reopened = true;
        // the server counts the extensions; a log from before it did: a later end is one more
        const extensions = update.bid.extensions ?? (phase === 'live' && update.bid.endsAt > endsAt ? rules.extensions + 1 : rules.extensions);
        if (extensions !== rules.extensions) rules = { ...rules, extensions };
        ({ itemName, amount, username, endsAt } = update.bid);
        phase = 'live';
        break;
      }
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
        phase = 'finished';
        break;
      case 'NO_BUYER':
        if (phase === 'none') itemName = update.itemName;
        sold = false;
        phase = 'finished';
        break;
    }
    changed = true;
  }
  return { phase, fields: { ...rules, itemName, amount, username, endsAt, start_price, sold }, reopened, changed };
}

const updatesOf = (event: ItemEvent): readonly ItemUpdate[] =>
  event.type === 'APPLY' ? event.updates : event.type === 'RESYNC' ? [] : [event];

/** A transition's guards and its action read one fold of the event (kept per event, for the context it started from). */
const folds = new WeakMap<object, { context: ItemContext; phase: ItemPhase; fold: ItemFold }>();
function folded(context: ItemContext, phase: ItemPhase, event: ItemEvent): ItemFold {
  const hit = folds.get(event);
  if (hit && hit.context === context && hit.phase === phase) return hit.fold;
  const fold = foldItem(context, phase, updatesOf(event));
  folds.set(event, { context, phase, fold });
  return fold;
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
  };
}

const NO_RULES: ItemRules = {
  minIncrement: null,
  imageUrl: null,
  description: null,
  ranks: [],
  groups: [],
  extendWindow: null,
  maxExtensions: null,
  extensions: 0,
  heldMs: null,
};

/** Every update, alone or in a batch, is one fold: from none to live or finished… */
const fromNone = [
  { guard: 'finishesFromNone', target: 'finished', actions: 'applyFromNone' },
  { guard: 'livesFromNone', target: 'live', actions: 'applyFromNone' },
] as const;
/**
 * …and while live, to finished, or open again until a new end; a raise that leaves the end where
 * it was changes the lead and keeps the timer; a stale bid changes nothing.
 */
const fromLive = [
  { guard: 'finishesFromLive', target: '#item.finished', actions: 'applyFromLive' },
  { guard: 'reopensFromLive', target: '.open', reenter: true, actions: 'applyFromLive' },
  { guard: 'changesFromLive', actions: 'applyFromLive' },
] as const;

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
    held: ({ context }) => context.heldMs !== null,
    snapshotLive: ({ context }) => context.snapshotState === 'live',
    snapshotFinished: ({ context }) => context.snapshotState === 'finished',
    finishesFromNone: ({ context, event }) => folded(context, 'none', event).phase === 'finished',
    livesFromNone: ({ context, event }) => folded(context, 'none', event).phase === 'live',
    finishesFromLive: ({ context, event }) => folded(context, 'live', event).phase === 'finished',
    reopensFromLive: ({ context, event }) => folded(context, 'live', event).reopened,
    changesFromLive: ({ context, event }) => folded(context, 'live', event).changed,
  },
  actions: {
    applyFromNone: assign(({ context, event }) => folded(context, 'none', event).fields),
    applyFromLive: assign(({ context, event }) => folded(context, 'live', event).fields),
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
      ...(it ? rulesOf(it) : NO_RULES),
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
      on: { STARTED: fromNone, BID: fromNone, SOLD: fromNone, NO_BUYER: fromNone, APPLY: fromNone },
    },
    live: {
      initial: 'open',
      on: { BID: fromLive, SOLD: fromLive, NO_BUYER: fromLive, TIMING: fromLive, APPLY: fromLive },
      states: {
        open: {
          always: { guard: 'held', target: 'held' },
          after: { untilEnd: 'closing' },
          on: { RESYNC: { target: 'open', reenter: true } },
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
