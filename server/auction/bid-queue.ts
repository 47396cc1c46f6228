import { setImmediate as nextTurn } from 'node:timers/promises';
import { GROUP_MAX, type BidCommits, type BidOutcome, type BidWriter, type PendingBid, type Written } from './bid-writer';
import type { Serial } from './serial';

/** A bid for the queue: what the writer judges and writes; then, once that has committed (or failed), its answer. */
export interface BidJob<T> {
  bid: PendingBid;
  /** Runs in queue order, after the commit, before the next job; what it returns is the bid's answer. */
  after(result: Written<BidOutcome>): T;
}

interface Group {
  jobs: { job: BidJob<unknown>; resolve: (answer: unknown) => void; reject: (error: unknown) => void }[];
  /** The queue's count just after this group was queued: bids join while nothing was queued after it. */
  queuedAt: number;
}

/**
 * Where bids run: in the engine's one queue, with every other job, in the order they arrived
 * (with several processes, row locks order them across processes: bid-writer-postgres.ts). Bids
 * that arrive one after the other with nothing queued between them commit together (group
 * commit): the group's job waits for the end of the event-loop turn that queued it, so every bid
 * read in that turn joins it (and, while a group runs, the bids arriving meanwhile gather in the
 * next), then the writer runs them in one write transaction, each under its own savepoint, and
 * commits once: one WAL flush for the group instead of one per bid. Then each bid is answered and
 * announced, in order, before the next job starts. A bid is still told to nobody before it is
 * committed, and each is judged on the writes of the bids before it, as if they had run one by one.
 */
export class BidQueue {
  /** The group waiting to start, that bids may still join (cleared as it starts). */
  private open: Group | null = null;

  constructor(
    private readonly queue: Serial,
    private readonly writer: BidWriter,
    private readonly now: () => number,
  ) {}

  /** Write transactions run for bids so far, and the bids they carried. */
  get commits(): BidCommits {
    return { ...this.writer.commits };
  }

  write<T>(job: BidJob<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry = { job: job as BidJob<unknown>, resolve: resolve as (answer: unknown) => void, reject };
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

  /** One bid judged by the writer at its place in the queue, and rolled back (the early refusals' audit). */
  dryRun(bid: PendingBid): Promise<Written<BidOutcome>> {
    return this.queue.run(async () => (await this.writer.writeGroup([bid], this.now(), { dryRun: true }))[0]);
  }

  private async commitGroup(group: Group): Promise<void> {
    let results: Written<BidOutcome>[];
    try {
      results = await this.writer.writeGroup(
        group.jobs.map((j) => j.job.bid),
        this.now(),
      );
    } catch (error) {
      results = group.jobs.map(() => ({ ok: false, error }));
    }
    group.jobs.forEach(({ job, resolve, reject }, i) => {
      try {
        resolve(job.after(results[i]));
      } catch (error) {
        reject(error);
      }
    });
  }
}
