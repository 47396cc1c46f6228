/**
 * A single-flight loop of passes: `wake` runs a pass now, or once more right after the one running
 * (wakes during a pass fold into one); a timer wakes it every `pollMs` for work other processes
 * queued. The reactions' runner and the Discord outbox's sender each drive their passes with one.
 */
export interface PassLoopOptions {
  pollMs: number;
  /** A paused loop never runs a pass (work waits for a start without it). */
  paused: boolean;
  /** What a pass threw: the loop goes on. */
  onError(error: unknown): void;
}

export class PassLoop {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private isStopped = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly options: PassLoopOptions,
  ) {}

  /** True once `stop` was called: a pass checks it between its steps. */
  get stopped(): boolean {
    return this.isStopped;
  }

  /** The first pass now, then one every `pollMs`. */
  start(): void {
    this.wake();
    this.schedule();
  }

  /** Runs a pass soon (now, or right after the one running). */
  wake(): void {
    if (this.isStopped || this.options.paused) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((error: unknown) => this.options.onError(error))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves once no pass runs nor is due (tests wait on it after a change). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** No pass starts after this; resolves once the running one ended. */
  async stop(): Promise<void> {
    this.isStopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.idle();
  }

  private schedule(): void {
    if (this.isStopped) return;
    this.timer = setTimeout(() => {
      this.wake();
      this.schedule();
    }, this.options.pollMs);
    this.timer.unref();
  }
}
