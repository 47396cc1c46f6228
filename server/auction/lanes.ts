import { setImmediate as nextTurn } from 'node:timers/promises';
import { CompiledQuery } from 'kysely';
import type { Db } from '../db/open';
import { writeTransaction, type Queryable } from '../db/write';
import { Serial } from './serial';

/** How a job's writes ended: what they answered, or what they threw (their writes undone). */
export type Written<O> = { ok: true; value: O } | { ok: false; error: unknown };

/** A bid's job: its writes, in a write transaction; then, once that has committed (or failed), its answer. */
export interface WriteJob<O, T> {
  write(trx: Queryable): Promise<O>;
  /** Runs in queue order, after the commit, before the next job; what it returns is the job's answer. */
  after(result: Written<O>): T;
}

/** Where the engine runs each bid's job. */
export interface BidLanes {
  run<T>(itemId: number, job: () => Promise<T>): Promise<T>;
  /** A bid: `job.write` in a write transaction, then `job.after` with how it ended. */
  write<O, T>(itemId: number, job: WriteJob<O, T>): Promise<T>;
  /** Resolves once every bid job started so far has finished (`exclusive` waits for it). */
  pending(): Promise<void>;
  /** Write transactions run for bids, and the bids they carried. */
  readonly commits: { transactions: number; bids: number };
}

/** Each bid of a group commit runs under its own savepoint (compiled once: a bid runs two of these). */
const SAVEPOINT = CompiledQuery.raw('savepoint bid');
const RELEASE = CompiledQuery.raw('release bid');
const ROLLBACK_TO = CompiledQuery.raw('rollback to bid');

/** The most bids one group commit carries: one transaction stays short whatever the flood. */
export const GROUP_MAX = 64;

interface Group {
  jobs: { job: WriteJob<unknown, unknown>; resolve: (answer: unknown) => void; reject: (error: unknown) => void }[];
  /** The queue's count just after this group was queued: bids join while nothing was queued after it. */
  queuedAt: number;
}

/**
 * Alone (SQLite, one writer): every bid in the engine's one queue, with every other job, in the
 * order they arrived. Bids that arrive one after the other with nothing queued between them commit
 * together (group commit): the group's job waits for the end of the event-loop turn that queued
 * it, so every bid read in that turn joins it, then runs them in one write transaction, each
 * under its own savepoint (a bid whose writes throw is undone alone and answered with its error),
 * and commits once: one fsync for the group instead of one per bid. Then each bid is answered and
 * announced, in order, before the next job starts. A bid is still told to nobody before it is
 * committed, and each is judged on the writes of the bids before it, as if they had run one by one.
 */
export class OneQueue implements BidLanes {
  /** The group waiting to start, that bids may still join (cleared as it starts). */
  private open: Group | null = null;
  readonly commits = { transactions: 0, bids: 0 };

  constructor(
    private readonly queue: Serial,
    private readonly db: Db,
  ) {}

  run<T>(_itemId: number, job: () => Promise<T>): Promise<T> {
    return this.queue.run(job);
  }

  write<O, T>(_itemId: number, job: WriteJob<O, T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry = { job: job as WriteJob<unknown, unknown>, resolve: resolve as (answer: unknown) => void, reject };
      const open = this.open;
      if (open && open.queuedAt === this.queue.queued && open.jobs.length < GROUP_MAX) {
        open.jobs.push(entry);
        return;
      }
      const group: Group = { jobs: [entry], queuedAt: 0 };
      this.open = group;
      void this.queue.run(async () => {
        // the bids read in the rest of this turn join the group
        await nextTurn();
        if (this.open === group) this.open = null;
        await this.commitGroup(group);
      });
      group.queuedAt = this.queue.queued;
    });
  }

  private async commitGroup(group: Group): Promise<void> {
    const results: Written<unknown>[] = [];
    this.commits.transactions += 1;
    this.commits.bids += group.jobs.length;
    try {
      await writeTransaction(this.db, async (trx) => {
        for (const { job } of group.jobs) {
          await trx.executeQuery(SAVEPOINT);
          try {
            results.push({ ok: true, value: await job.write(trx) });
          } catch (error) {
            // only this bid's writes are undone (a failure to undo them fails the whole group)
            await trx.executeQuery(ROLLBACK_TO);
            results.push({ ok: false, error });
          }
          await trx.executeQuery(RELEASE);
        }
      });
    } catch (error) {
      // nothing was committed: every bid of the group failed
      results.length = 0;
      for (let i = 0; i < group.jobs.length; i++) results.push({ ok: false, error });
    }
    group.jobs.forEach(({ job, resolve, reject }, i) => {
      try {
        resolve(job.after(results[i]));
      } catch (error) {
        reject(error);
      }
    });
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
 * before it (`pending()`, read as it is queued). Each bid commits on its own.
 */
export class ItemLanes implements BidLanes {
  readonly commits = { transactions: 0, bids: 0 };
  private readonly lanes = new Map<number, { serial: Serial; jobs: number }>();
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(
    private readonly queue: Serial,
    private readonly db: Db,
  ) {}

  write<O, T>(itemId: number, job: WriteJob<O, T>): Promise<T> {
    return this.run(itemId, async () => {
      this.commits.transactions += 1;
      this.commits.bids += 1;
      let result: Written<O>;
      try {
        result = { ok: true, value: await writeTransaction(this.db, (trx) => job.write(trx), { lock: 'shared' }) };
      } catch (error) {
        result = { ok: false, error };
      }
      return job.after(result);
    });
  }

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
