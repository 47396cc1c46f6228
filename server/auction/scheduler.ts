/** Longest single wait: setTimeout takes at most 2^31−1 ms, and an hour re-checks often enough. */
const MAX_WAIT_MS = 60 * 60 * 1000;

export interface SchedulerDeps {
  now(): number;
  /** The time of the next start or end that is stored (epoch ms), or null when nothing is pending. */
  nextDue(): Promise<number | null>;
  /** Starts, ends and settles whatever is due (the engine queues it behind other changes). */
  fire(): void;
  /** A failure to read the schedule; the scheduler retries by itself. */
  onError(error: unknown): void;
}

const RETRY_MS = 1000;

/**
 * One timer, always set to the next stored start or end. The schedule itself lives in the
 * database (items.starts_at, items.ends_at), so nothing is lost when the process dies: at the next
 * start the engine catches up from the same rows. Re-armed after every change that can move the
 * next event earlier (a new item); a soft-close extension only moves an end later, so the timer
 * may fire early, find nothing due and re-arm.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Only the scheduler's leader keeps a timer when several processes serve one kingdom (server/cluster/link.ts). */
  private enabled = true;
  /** When the armed timer fires (epoch ms on the engine's clock), for tests and logs. */
  armedFor: number | null = null;

  constructor(private readonly deps: SchedulerDeps) {}

  /** Never throws: when the schedule cannot be read, it tries again a second later. */
  async arm(): Promise<void> {
    if (this.stopped || !this.enabled) return;
    let next: number | null;
    try {
      next = await this.deps.nextDue();
    } catch (error) {
      this.deps.onError(error);
      this.retryIn(RETRY_MS);
      return;
    }
    this.clear();
    if (next === null || this.stopped) return;
    this.setTimer(next);
  }

  /** Keeps a timer (true) or none (false: another process is the leader). */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (!enabled) this.clear();
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  /** After a failure: try again in `ms`. */
  retryIn(ms: number): void {
    if (this.stopped || !this.enabled) return;
    this.clear();
    this.setTimer(this.deps.now() + ms);
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private setTimer(at: number): void {
    const wait = Math.min(Math.max(at - this.deps.now(), 0), MAX_WAIT_MS);
    this.armedFor = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.armedFor = null;
      this.deps.fire();
    }, wait);
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = null;
  }
}
