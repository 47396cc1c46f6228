/**
 * Shared by the benchmark's main thread and its client workers: one clock, the wire shapes the
 * workers exchange with the main thread, and percentiles.
 */

/**
 * Milliseconds on the process-wide monotonic clock (CLOCK_MONOTONIC through process.hrtime). Every
 * thread of the clients' process reads the same clock, unlike performance.now(), whose origin is
 * each thread's start.
 */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** One bid's identity on the wire: BID_CREATED carries no requestId, but (itemId, amount) is unique (amounts only rise). */
export function bidKey(itemId: number, amount: number): number {
  return itemId * 10_000_000 + amount;
}

/** The requestId the bid of this key is sent with, and back (an ERROR names the requestId). */
export const requestIdOf = (key: number) => `r${key}`;
export const keyOfRequestId = (requestId: string) => Number(requestId.slice(1));

/** An item the worker bids on, alternating between its two bidder sockets (so every bid but the first outbids someone). */
export interface ItemSpec {
  itemId: number;
  /** Indices, in the worker's socket list, of the item's bidders (they take turns). */
  bidders: number[];
  /** The amount of the next bid (start price 1, increment 1). */
  next: number;
}

export type ToWorker =
  /** `url`: the server, or several (socket i connects to url[i mod n]). */
  | { cmd: 'connect'; url: string | string[]; tokens: string[]; items: ItemSpec[]; concurrency: number }
  | {
      cmd: 'phase';
      /** Global rate (bids/s); this worker sends the global bids offset, offset + stride, offset + 2·stride, … */
      rate: number;
      offset: number;
      stride: number;
      /** nowMs() of global bid 0. */
      startAt: number;
      /** Global number of bids in the phase. */
      count: number;
    }
  | { cmd: 'progress' }
  | { cmd: 'collect' }
  | { cmd: 'close' };

export interface Progress {
  /** All of this worker's bids of the phase have been sent. */
  doneSending: boolean;
  sent: number;
  /** The bidder got its own BID_CREATED (accepted) or an ERROR naming the requestId. */
  answered: number;
  accepted: number;
  /** BID_CREATED frames received by this worker's sockets since the phase began. */
  deliveries: number;
  /** Bids (keys) its sockets have heard of, automatic bids from maxima included, and how many sockets it has. */
  heard?: number;
  sockets?: number;
}

export interface Collected {
  /** Per sent bid: key, scheduled time, send time, answer time (NaN: none), 1 when it was an ERROR. */
  sends: Float64Array;
  /** Per BID_CREATED key seen: key, time the last of this worker's sockets got it, how many of them did. */
  recv: Float64Array;
  errors: Record<string, number>;
  /** Mean size of the BID_CREATED frames received (bytes). */
  frameBytes: number;
  /** Other frames received during the phase, by type (OUTBID…). */
  otherFrames: Record<string, number>;
}

export type FromWorker =
  | { kind: 'connected'; sockets: number; ms: number; historyBytes: number }
  | { kind: 'progress'; progress: Progress }
  | { kind: 'collected'; data: Collected }
  | { kind: 'closed' }
  | { kind: 'error'; message: string };

/** The q-quantile (0..1) of ascending values, nearest rank; Infinity stands for a bid that never reached every socket. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** A run of steps one after the other: how many, how long, how fast, and the mean and p99 of one step (ms). */
export interface TimedRun {
  transactions: number;
  seconds: number;
  perSecond: number;
  meanMs: number;
  p99Ms: number;
}

function summariseRun(samples: number[], count: number, start: number): TimedRun {
  const total = (performance.now() - start) / 1000;
  samples.sort((a, b) => a - b);
  return {
    transactions: count,
    seconds: total,
    perSecond: count / total,
    meanMs: samples.reduce((s, x) => s + x, 0) / samples.length,
    p99Ms: samples[Math.min(samples.length - 1, Math.ceil(0.99 * samples.length) - 1)],
  };
}

/** Runs a synchronous `step` back to back for `seconds` (no await between steps, so nothing else runs in the loop). */
export function timedSync(seconds: number, step: (i: number) => void): TimedRun {
  const samples: number[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  let i = 0;
  for (let t = start; t < end; i++) {
    step(i);
    const after = performance.now();
    samples.push(after - t);
    t = after;
  }
  return summariseRun(samples, i, start);
}

/**
 * timedAsync with `lanes` calls in flight at once (lane l's k-th call gets (l, k)), for as long: what a
 * writer that commits the bids arriving together does with them. Each sample is one call's time.
 */
export async function timedLanes(seconds: number, lanes: number, step: (lane: number, k: number) => Promise<void>): Promise<TimedRun> {
  const samples: number[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  let count = 0;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let k = 0, t = performance.now(); t < end; k++) {
        await step(lane, k);
        const after = performance.now();
        samples.push(after - t);
        count += 1;
        t = after;
      }
    }),
  );
  return summariseRun(samples, count, start);
}

/** Runs `step` one after the other (each awaited) for `seconds`. */
export async function timedAsync(seconds: number, step: (i: number) => Promise<void>): Promise<TimedRun> {
  const samples: number[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  let i = 0;
  for (let t = start; t < end; i++) {
    await step(i);
    const after = performance.now();
    samples.push(after - t);
    t = after;
  }
  return summariseRun(samples, i, start);
}
