import { Serial } from './serial';

/** Where the engine runs each bid's job. */
export interface BidLanes {
  run<T>(itemId: number, job: () => Promise<T>): Promise<T>;
  /** Resolves once every bid job started so far has finished (`exclusive` waits for it). */
  pending(): Promise<void>;
}

/** Alone (SQLite, one writer): every bid in the engine's one queue, with every other job. */
export class OneQueue implements BidLanes {
  constructor(private readonly queue: Serial) {}

  run<T>(_itemId: number, job: () => Promise<T>): Promise<T> {
    return this.queue.run(job);
  }

  pending(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Clustered (PostgreSQL): a lane per item. Bids on one item run one after the other, in the order
 * they arrived; bids on different items run side by side (their transactions hold the write lock
 * shared and lock their own rows), so one bid's round trips to PostgreSQL do not hold up another's.
 * The engine's other jobs keep their place: a bid waits for every job queued before it in the
 * engine's queue (`queue.idle()` as it arrives), and such a job waits for every bid that arrived
 * before it (`pending()`, read as it is queued).
 */
export class ItemLanes implements BidLanes {
  private readonly lanes = new Map<number, { serial: Serial; jobs: number }>();
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(private readonly queue: Serial) {}

  run<T>(itemId: number, job: () => Promise<T>): Promise<T> {
    const before = this.queue.idle();
    let lane = this.lanes.get(itemId);
    if (!lane) {
      lane = { serial: new Serial(), jobs: 0 };
      this.lanes.set(itemId, lane);
    }
    const mine = lane;
    mine.jobs += 1;
    const result = mine.serial.run(async () => {
      await before;
      return job();
    });
    const settled: Promise<unknown> = result.then(
      () => undefined,
      () => undefined,
    );
    this.inflight.add(settled);
    void settled.then(() => {
      this.inflight.delete(settled);
      mine.jobs -= 1;
      if (mine.jobs === 0 && this.lanes.get(itemId) === mine) this.lanes.delete(itemId);
    });
    return result;
  }

  pending(): Promise<void> {
    return Promise.all([...this.inflight]).then(() => undefined);
  }
}
