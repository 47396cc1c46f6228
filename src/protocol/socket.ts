import * as z from 'zod/mini';
import { notice } from './notices';

/** Socket message type names. Nothing else defines a wire name. */
export const MSG = {
  AUTHENTICATION: 'AUTHENTICATION',
  GET_STATUS: 'GET_STATUS',
  CREATE_BID: 'CREATE_BID',
  SET_MAX_BID: 'SET_MAX_BID',
  HISTORY: 'HISTORY',
  STATUS: 'STATUS',
  BIDDING_STARTED: 'BIDDING_STARTED',
  BID_CREATED: 'BID_CREATED',
  SALE_COMPLETED: 'SALE_COMPLETED',
  NO_BUYER: 'NO_BUYER',
  WINNER: 'WINNER',
  OUTBID: 'OUTBID',
  VIRTUAL_BALANCE_UPDATE: 'VIRTUAL_BALANCE_UPDATE',
  ITEM_CANCELLED: 'ITEM_CANCELLED',
  STORE_STATE: 'STORE_STATE',
  MAX_BID: 'MAX_BID',
  NOTICE: 'NOTICE',
  ERROR: 'ERROR',
} as const;

/** The socket's error types. */
export const ERROR_TYPES = [
  'OUT_OF_BALANCE',
  'SYSTEM_ERROR',
  'DATABASE_ERROR',
  'WS_ERROR',
  'JSON_ERROR',
  'UNAUTHENTICATED',
  'UNKNOWN_ITEM',
  'BID_OPEN_ERROR',
  'BID_AMOUNT_ERROR',
  'SALE_ERROR',
  'BID_NOT_ALLOWED',
  'BID_ERROR',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/** The two sockets and their default ports. */
export const CHANNELS = ['auction', 'user'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Largest frame a server accepts; a larger one gets WS_ERROR. */
export const MAX_FRAME_BYTES = 4096;

/** The item ids this server gives (and takes in CREATE_BID): whole numbers from 1. */
const serverItemId = z.int().check(z.positive());
/**
 * An item id as the client reads it: opaque. This server sends whole numbers; another server
 * that speaks the same contract (or a log recorded from one) may send strings. The client keys
 * items by it and never does arithmetic on it.
 */
export const itemIdSchema = z.union([serverItemId, z.string().check(z.minLength(1), z.maxLength(64))]);
export type ItemId = z.infer<typeof itemIdSchema>;
const itemId = itemIdSchema;
const epochMs = z.int().check(z.nonnegative());

// ── client → server ─────────────────────────────────────────────────────────────────────────
export const authenticationFrame = z.object({ type: z.literal(MSG.AUTHENTICATION), access_token: z.string().check(z.maxLength(2048)) });
export const getStatusFrame = z.object({ type: z.literal(MSG.GET_STATUS) });
/**
 * A bid's requestId: 1..64 characters, no NUL (PostgreSQL cannot store one: on its group commit,
 * a bid carrying one failed every bid committed with it).
 */
// eslint-disable-next-line no-control-regex -- the one character refused
const NO_NUL = /^[^\u0000]*$/;
export const requestIdSchema = z.string().check(z.minLength(1), z.maxLength(64), z.regex(NO_NUL));
export const createBidFrame = z.object({
  type: z.literal(MSG.CREATE_BID),
  data: z.object({ itemId: serverItemId, amount: z.number(), requestId: requestIdSchema }),
});
/**
 * A maximum (proxy) bid on an english item: the server bids for the player, up to `max`, each time
 * another bid takes the lead. `max: 0` withdraws it (a lead already reached stays).
 */
export const setMaxBidFrame = z.object({
  type: z.literal(MSG.SET_MAX_BID),
  data: z.object({ itemId: serverItemId, max: z.number(), requestId: requestIdSchema }),
});
export const clientFrame = z.discriminatedUnion('type', [authenticationFrame, getStatusFrame, createBidFrame, setMaxBidFrame]);
/** A frame as this server accepts it (item ids are its whole numbers). */
export type ClientFrame = z.infer<typeof clientFrame>;
/** A frame as the client sends it: a bid names the item by the id the server gave it, whatever its kind. */
export type OutgoingFrame =
  | Exclude<ClientFrame, { type: typeof MSG.CREATE_BID | typeof MSG.SET_MAX_BID }>
  | { type: typeof MSG.CREATE_BID; data: { itemId: ItemId; amount: number; requestId: string } }
  | { type: typeof MSG.SET_MAX_BID; data: { itemId: ItemId; max: number; requestId: string } };

// ── server → client ─────────────────────────────────────────────────────────────────────────

/** The kingdom store is open (bids taken) or closed by the council (every live item's time held). */
export const STORE_STATES = ['open', 'closed'] as const;
export type StoreState = (typeof STORE_STATES)[number];

export const bid = z.object({
  itemId,
  itemName: z.string(),
  amount: z.int(),
  username: z.string(),
  timer: z.int(),
  timestamp: epochMs,
  endsAt: epochMs,
  /** Soft-close extensions the item has used, this bid's included (on BID_CREATED and OUTBID). */
  extensions: z.optional(z.int()),
  /** The server placed this bid for the bidder, from their maximum bid. */
  auto: z.optional(z.boolean()),
  /** Whether the item's amount now reaches its reserve (absent: unchanged, or no reserve). */
  reserveMet: z.optional(z.boolean()),
});
export type Bid = z.infer<typeof bid>;

/**
 * A bid on a sealed item as everyone but its bidder hears of it while the item runs: no amount,
 * no name, only how many players have bid (`bids`).
 */
export const sealedBid = z.object({
  itemId,
  itemName: z.string(),
  sealed: z.literal(true),
  bids: z.int(),
  timer: z.int(),
  timestamp: epochMs,
  endsAt: epochMs,
  /** Whether some bid now reaches the item's reserve (absent: unchanged, or no reserve). */
  reserveMet: z.optional(z.boolean()),
});
export type SealedBid = z.infer<typeof sealedBid>;
export const isSealedBid = (data: Bid | SealedBid): data is SealedBid => 'sealed' in data;

/**
 * How an item is sold: `english` (open ascending bids, the soft close), `sealed-first` (one hidden
 * bid per player, the highest pays its bid) or `sealed-second` (the highest pays the second bid
 * plus the increment, at most its own bid, or the start price when it stood alone).
 */
export const ITEM_FORMATS = ['english', 'sealed-first', 'sealed-second'] as const;
export type ItemFormat = (typeof ITEM_FORMATS)[number];
export const isSealed = (format: string | undefined): boolean => format === 'sealed-first' || format === 'sealed-second';

/** Why an item ended unsold. */
export const NO_BUYER_REASONS = ['no-bids', 'reserve-not-met'] as const;
export type NoBuyerReason = (typeof NO_BUYER_REASONS)[number];

/** Who may bid, as the socket carries it: rank and group names (an unknown name still parses). */
export const wireEligibility = z.object({ ranks: z.optional(z.array(z.string())), groups: z.optional(z.array(z.string())) });
export type WireEligibility = z.infer<typeof wireEligibility>;

/**
 * Everything a client needs to judge a bid and show the soft close, beyond the price: on every
 * Item (HISTORY) and on BIDDING_STARTED. Optional only so that logs recorded before they were
 * sent still replay; the server always sends them.
 */
const itemRules = {
  minIncrement: z.optional(z.int()),
  eligibility: z.optional(wireEligibility),
  /** A bid in the last extendWindow seconds moves the end to then + extendWindow, at most maxExtensions times. */
  extendWindow: z.optional(z.int()),
  maxExtensions: z.optional(z.int()),
  extensions: z.optional(z.int()),
  /** While the store is closed: the milliseconds this live item had left, held until it opens again (absent while open). */
  heldMs: z.optional(z.int()),
  /** Absent: english (logs recorded before formats). */
  format: z.optional(z.enum(ITEM_FORMATS)),
  /** The least amount the item sells for: sent to council and admin only (REST); everyone reads `reserveMet`. */
  reservePrice: z.optional(z.int()),
  /** Whether the current amount reaches the reserve: sent only for an item that has one (absent: no reserve). */
  reserveMet: z.optional(z.boolean()),
  /** English only: while the amount is below it, a bid of at least this buys the item at once at this price. */
  buyNowPrice: z.optional(z.int()),
  /** Sealed items while they run: how many players have bid (amount and username stay the start price and NO_LEADER). */
  bids: z.optional(z.int()),
};

export const item = z.looseObject({
    itemId,
    itemName: z.string(),
    type: z.string(),
    amount: z.int(),
    username: z.string(),
    timer: z.int(),
    timestamp: epochMs,
    endsAt: epochMs,
    state: z.enum(['scheduled', 'live', 'finished', 'cancelled']),
    start_price: z.int(),
    ...itemRules,
    minIncrement: z.int(),
});
export type Item = z.infer<typeof item>;

/** An item going live: the whole Item (its rules, eligibility, image and description), as HISTORY would give it. */
export const biddingStarted = z.looseObject({ itemId, itemName: z.string(), start_price: z.int(), timer: z.int(), timestamp: epochMs, endsAt: epochMs, ...itemRules });
export type BiddingStarted = z.infer<typeof biddingStarted>;

export const balance = z.object({ balance: z.int(), reserved: z.int(), available: z.int() });
export type Balance = z.infer<typeof balance>;

/** A player's standing maximum bid on an item, to that player alone: `max: 0` none (withdrawn, or dropped: `reason`). */
export const maxBid = z.object({
  itemId,
  max: z.int(),
  /** Whether the player leads the item now. */
  leading: z.optional(z.boolean()),
  /** Dropped by the server: a raise the player's available points could not cover. */
  reason: z.optional(z.literal('balance')),
});
export type MaxBid = z.infer<typeof maxBid>;

export const historyMsg = z.object({
  type: z.literal(MSG.HISTORY),
  /**
   * `store` absent (logs recorded before it was sent): open. `bids` carry, for a sealed item still
   * running, only the reader's own bid; `maxBids` are the reader's own standing maxima.
   */
  data: z.object({ bids: z.array(bid), items: z.array(item), store: z.optional(z.enum(STORE_STATES)), maxBids: z.optional(z.array(maxBid)) }),
});
export const statusMsg = z.object({
  type: z.literal(MSG.STATUS),
  data: z.extend(balance, { username: z.string(), rank: z.string() }),
});
export const biddingStartedMsg = z.object({
  type: z.literal(MSG.BIDDING_STARTED),
  data: biddingStarted,
});
/** A bid to everyone: in full, or on a sealed item still running masked (`sealed: true`) to all but its bidder. */
export const bidCreatedMsg = z.object({ type: z.literal(MSG.BID_CREATED), data: z.union([bid, sealedBid]) });
export const saleCompletedMsg = z.object({
  type: z.literal(MSG.SALE_COMPLETED),
  data: z.object({ itemId, itemName: z.string(), username: z.string(), amount: z.int() }),
});
/** An item ended unsold: `reason` absent in logs recorded before it was sent. */
export const noBuyerMsg = z.object({
  type: z.literal(MSG.NO_BUYER),
  data: z.object({ itemId, itemName: z.string(), reason: z.optional(z.enum(NO_BUYER_REASONS)) }),
});
/** A live item the council cancelled: it leaves every board, its leader's points are released. */
export const itemCancelledMsg = z.object({ type: z.literal(MSG.ITEM_CANCELLED), data: z.object({ itemId, itemName: z.string() }) });
/**
 * The store opened or closed, to everyone. Closing holds every live item's time left (heldMs);
 * opening gives it back: each live item's new end is the reopening time plus what it had left.
 */
export const storeStateMsg = z.object({
  type: z.literal(MSG.STORE_STATE),
  data: z.object({
    state: z.enum(STORE_STATES),
    timestamp: epochMs,
    items: z.array(z.object({ itemId, endsAt: epochMs, heldMs: z.optional(z.int()) })),
  }),
});
export const winnerMsg = z.object({
  type: z.literal(MSG.WINNER),
  data: z.object({ itemId, itemName: z.string(), amount: z.int(), username: z.string() }),
});
export const outbidMsg = z.object({ type: z.literal(MSG.OUTBID), data: bid });
export const maxBidMsg = z.object({ type: z.literal(MSG.MAX_BID), data: maxBid });
/** A notice for this account, to each of its user sockets (the list and its unread count live on the server). */
export const noticeMsg = z.object({ type: z.literal(MSG.NOTICE), data: z.looseObject({ ...z.omit(notice, { read: true }).shape }) });
export const virtualBalanceUpdateMsg = z.object({ type: z.literal(MSG.VIRTUAL_BALANCE_UPDATE), data: balance });
export const errorMsg = z.object({
  type: z.literal(MSG.ERROR),
  /** A string, not an enum: an error type this client does not know still reaches the catalogue's "any other" row. */
  error_type: z.string(),
  data: z.optional(z.object({ itemId: z.optional(itemId), requestId: z.optional(z.string()) })),
});

export const serverMsg = z.discriminatedUnion('type', [
  historyMsg,
  statusMsg,
  biddingStartedMsg,
  bidCreatedMsg,
  saleCompletedMsg,
  noBuyerMsg,
  winnerMsg,
  outbidMsg,
  virtualBalanceUpdateMsg,
  itemCancelledMsg,
  storeStateMsg,
  maxBidMsg,
  noticeMsg,
  errorMsg,
]);
export type ServerMsg = z.infer<typeof serverMsg>;
export type ServerMsgOf<T extends ServerMsg['type']> = Extract<ServerMsg, { type: T }>;

/** Close code of a socket whose token is bad, revoked or expired (after an ERROR UNAUTHENTICATED): sign in again, do not retry. */
export const WS_CLOSE_UNAUTHENTICATED = 4401;

/** Close code of a connection that kept sending over its frame budget after the warning: reconnect later, slower. */
export const WS_CLOSE_FLOODING = 4429;
/** Close code of a connection over its account's socket cap: too many tabs or devices at once. */
export const WS_CLOSE_TOO_MANY_SOCKETS = 4409;

/**
 * Per-connection frame budget on both sockets (a token bucket): FRAME_BURST frames at once, then
 * FRAME_RATE_PER_S a second (the server also budgets each account and address). The first frame over
 * it is dropped and answered ERROR WS_ERROR (with data {itemId, requestId} when it was a
 * CREATE_BID, so a client can settle that bid); the next are dropped without an answer, and a
 * connection that keeps going is closed with WS_CLOSE_FLOODING.
 */
export const FRAME_RATE_PER_S = 10;
export const FRAME_BURST = 20;
