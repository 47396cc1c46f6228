/** Frames a connection may send: `burst` at once, refilled at `perSecond`. */
export interface FrameRateLimit {
  perSecond: number;
  burst: number;
}

/** A token bucket on the wall clock (not the engine's clock: floods are real time). */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly limit: FrameRateLimit,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.tokens = limit.burst;
    this.last = clock();
  }

  /** Takes one token; false when there is none (the frame is over the limit). */
  take(): boolean {
    const now = this.clock();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.last) / 1000) * this.limit.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
