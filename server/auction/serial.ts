/**
 * Runs async jobs one at a time, in the order they were queued. The auction engine puts every
 * change (bid, start, settle, cancel, create, grant) and every HISTORY snapshot through one queue, so
 * each commit is announced before the next change begins: every socket hears BID_CREATED in
 * commit order, and a HISTORY snapshot is never older than a frame sent before it.
 */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();
  /** Jobs queued so far: a job is the last one queued while this still equals what it was just after queuing it. */
  queued = 0;

  run<T>(job: () => Promise<T>): Promise<T> {
    this.queued += 1;
    const result = this.tail.then(job);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Resolves when everything queued so far has finished. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
