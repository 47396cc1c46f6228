import type { Budget } from './limits';

/** Frames a connection may send: `burst` at once, refilled at `perSecond`. */
export type FrameRateLimit = Budget;

/** Milliseconds from any fixed origin; the socket servers take it injected (tests freeze it). */
export type Clock = () => number;

/** A token bucket on an injected clock. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly limit: Budget,
    private readonly clock: Clock,
  ) {
    this.tokens = limit.burst;
    this.last = clock();
  }

  private refill(): void {
    const now = this.clock();
    this.tokens = Math.min(this.limit.burst, this.tokens + (Math.max(0, now - this.last) / 1000) * this.limit.perSecond);
    this.last = now;
  }

  /** True when a token is there to take (nothing is taken). */
  has(): boolean {
    this.refill();
    return this.tokens >= 1;
  }

  /** Takes one token; false when there is none (the frame is over the limit). */
  take(): boolean {
    if (!this.has()) return false;
    this.tokens -= 1;
    return true;
  }

  /** Full again: nothing was taken that has not been refilled. */
  isFull(): boolean {
    this.refill();
    return this.tokens >= this.limit.burst;
  }
}

/** Token buckets by key (an account, an address), kept while a connection uses them and forgotten once full and unused. */
export class BucketMap<K> {
  private readonly buckets = new Map<K, { bucket: TokenBucket; users: number }>();

  constructor(
    private readonly limit: Budget,
    private readonly clock: Clock,
  ) {}

  private entry(key: K) {
    let entry = this.buckets.get(key);
    if (!entry) this.buckets.set(key, (entry = { bucket: new TokenBucket(this.limit, this.clock), users: 0 }));
    return entry;
  }

  /** The key's bucket, for a moment (a handshake). */
  get(key: K): TokenBucket {
    return this.entry(key).bucket;
  }

  /** The key's bucket for a connection, until `release`. */
  acquire(key: K): TokenBucket {
    const entry = this.entry(key);
    entry.users += 1;
    return entry.bucket;
  }

  release(key: K): void {
    const entry = this.buckets.get(key);
    if (entry) entry.users = Math.max(0, entry.users - 1);
  }

  /** Drops the buckets no connection uses that are full again (a fresh one is the same). */
  sweep(): void {
    for (const [key, entry] of this.buckets) if (entry.users === 0 && entry.bucket.isFull()) this.buckets.delete(key);
  }

  get size(): number {
    return this.buckets.size;
  }
}

/** A count that decays at `perSecond` (a leaky bucket): a connection's frames dropped lately. */
export class DecayingCount {
  private value = 0;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly clock: Clock,
  ) {
    this.last = clock();
  }

  private decay(): void {
    const now = this.clock();
    this.value = Math.max(0, this.value - (Math.max(0, now - this.last) / 1000) * this.perSecond);
    this.last = now;
  }

  /** Adds one; the count after it. */
  add(): number {
    this.decay();
    this.value += 1;
    return this.value;
  }

  /** The count now. */
  get current(): number {
    this.decay();
    return this.value;
  }
}

/** What becomes of one frame. */
export type Admission = 'ok' | 'warn' | 'drop' | 'close';

/**
 * One connection's budget: its own bucket, and the shared buckets of its address and (once
 * authenticated) its account. A frame passes when all of them have a token (and takes one from
 * each). Over budget, the first frame is warned, the next dropped; when the drops pile up past
 * `strikes` the connection is to be closed. Once the drops have decayed to nothing, the next one is
 * warned again.
 */
export class FrameBudget {
  private readonly own: TokenBucket;
  private readonly dropped: DecayingCount;
  private warnedAt: number | null = null;
  account: TokenBucket | null = null;

  constructor(
    limit: Budget,
    private readonly address: TokenBucket,
    private readonly strikes: number,
    /** A connection warned, calm again (its drops decayed) and over again is warned again after this long. */
    private readonly warnEveryMs: number,
    private readonly clock: Clock,
  ) {
    this.own = new TokenBucket(limit, clock);
    this.dropped = new DecayingCount(limit.perSecond, clock);
  }

  admit(): Admission {
    const buckets = this.account ? [this.own, this.address, this.account] : [this.own, this.address];
    if (buckets.every((b) => b.has())) {
      for (const b of buckets) b.take();
      return 'ok';
    }
    const now = this.clock();
    if (this.warnedAt !== null && this.dropped.current === 0 && now - this.warnedAt >= this.warnEveryMs) this.warnedAt = null;
    if (this.dropped.add() > this.strikes) return 'close';
    if (this.warnedAt !== null) return 'drop';
    this.warnedAt = now;
    return 'warn';
  }
}
