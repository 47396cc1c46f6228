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
    private readonly clock: Clock = () => performance.now(),
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

/** Token buckets by key (an account, an address), forgotten once full and unused. */
export class BucketMap<K> {
  private readonly buckets = new Map<K, TokenBucket>();

  constructor(
    private readonly limit: Budget,
    private readonly clock: Clock,
  ) {}

  get(key: K): TokenBucket {
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = new TokenBucket(this.limit, this.clock)));
    return bucket;
  }

  /** Drops the buckets that are full again (a fresh one is the same). */
  sweep(): void {
    for (const [key, bucket] of this.buckets) if (bucket.isFull()) this.buckets.delete(key);
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
  private warned = false;
  account: TokenBucket | null = null;

  constructor(
    limit: Budget,
    private readonly address: TokenBucket,
    private readonly strikes: number,
    clock: Clock,
  ) {
    this.own = new TokenBucket(limit, clock);
    this.dropped = new DecayingCount(limit.perSecond, clock);
  }

  admit(): Admission {
    const buckets = this.account ? [this.own, this.address, this.account] : [this.own, this.address];
    if (buckets.every((b) => b.has())) {
      for (const b of buckets) b.take();
      if (this.warned && this.dropped.current === 0) this.warned = false;
      return 'ok';
    }
    if (this.warned && this.dropped.current === 0) this.warned = false;
    const count = this.dropped.add();
    if (count > this.strikes) return 'close';
    if (this.warned) return 'drop';
    this.warned = true;
    return 'warn';
  }
}
