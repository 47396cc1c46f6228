import { EventEmitter } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { DomainError, errorOfKind, type DomainErrorKind } from '../errors';
import type { FromWorker, ToWorker } from './messages';

/**
 * Worker threads behind a bounded queue: work that would hold the event loop that judges bids
 * (drawing a card, reading a spreadsheet) runs in one of `size` threads, each with its own memory
 * cap, one job at a time. Over the queue a job is refused at once (`refuse.busy`, a 503), before
 * any work is done. Threads start on the first job and a dead one is replaced on the next, so a
 * crash or a thread over its memory fails its own job with a sentence (`refuse.outOfMemory`,
 * `refuse.stopped`) and never the queue behind it.
 *
 * A job may answer in parts (`send` in server/workers/serve.ts): each part is handed to the
 * caller, then the loop turns before the thread is told to send the next, so a large answer is
 * copied into this thread a slice at a time instead of in one long pause.
 */
export interface WorkerPoolOptions {
  /** Threads working at once. */
  size: number;
  /** Jobs waiting for a thread at most; one more is refused at once. */
  maxQueue: number;
  /** Each thread's heap (V8's old generation), MB: a job that needs more ends its thread and is refused with `refuse.outOfMemory`. */
  maxMemoryMb: number;
}

export interface WorkerPoolSetup extends WorkerPoolOptions {
  /** The module each thread runs (it calls serveJobs from server/workers/serve.ts). */
  module: URL;
  /** What a caller is told when its job cannot be done here. */
  refuse: {
    /** The queue is full. */
    busy: () => DomainError;
    /** The thread ran out of its memory during the job. */
    outOfMemory: () => DomainError;
    /** The thread stopped during the job (crashed, or the pool closed). */
    stopped: () => DomainError;
  };
}

interface Waiting {
  id: number;
  job: unknown;
  transfer: ArrayBuffer[];
  onPart: (part: unknown) => void;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Waiting | null;
}

const BOOT = new URL('./boot.mjs', import.meta.url);

export class WorkerPool<Job, Answer, Part = never> {
  private readonly slots: Slot[] = [];
  private readonly queue: Waiting[] = [];
  private nextId = 1;
  private closed = false;
  /** 'start' when a job is handed to a thread (tests wait on it to act while a job runs). */
  readonly events = new EventEmitter<{ start: [] }>();

  constructor(private readonly setup: WorkerPoolSetup) {}

  /** Jobs running or waiting. */
  get pending(): number {
    return this.queue.length + this.slots.filter((s) => s.busy).length;
  }

  /**
   * Runs `job` in a thread: its answer, or the domain error it was refused with (in the thread or
   * here). `transfer` moves buffers to the thread instead of copying them; `onPart` hears each part.
   */
  run(job: Job, options: { transfer?: ArrayBuffer[]; onPart?: (part: Part) => void } = {}): Promise<Answer> {
    if (this.closed) return Promise.reject(this.setup.refuse.stopped());
    const idle = this.slots.find((s) => !s.busy);
    if (!idle && this.slots.length >= this.setup.size && this.queue.length >= this.setup.maxQueue) return Promise.reject(this.setup.refuse.busy());
    return new Promise<Answer>((resolve, reject) => {
      const onPart = (options.onPart ?? (() => undefined)) as (part: unknown) => void;
      this.queue.push({ id: this.nextId++, job, transfer: options.transfer ?? [], onPart, resolve: resolve as (value: unknown) => void, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.splice(0)) waiting.reject(this.setup.refuse.stopped());
    const slots = this.slots.splice(0);
    for (const slot of slots) slot.busy?.reject(this.setup.refuse.stopped());
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.setup.size) slot = this.spawn();
      if (!slot) return;
      const waiting = this.queue.shift() as Waiting;
      slot.busy = waiting;
      // a thread at work keeps the process alive until its answer; an idle one does not
      slot.worker.ref();
      slot.worker.postMessage({ type: 'job', id: waiting.id, job: waiting.job } satisfies ToWorker, waiting.transfer);
      this.events.emit('start');
    }
  }

  private spawn(): Slot {
    const worker = new Worker(BOOT, { workerData: { module: this.setup.module.href }, resourceLimits: { maxOldGenerationSizeMb: this.setup.maxMemoryMb } });
    worker.unref();
    const slot: Slot = { worker, busy: null };
    this.slots.push(slot);
    const finish = (waiting: Waiting) => {
      slot.busy = null;
      worker.unref();
      this.pump();
      return waiting;
    };
    worker.on('message', (message: FromWorker) => {
      const waiting = slot.busy;
      if (!waiting || waiting.id !== message.id) return;
      if (message.type === 'part') {
        try {
          waiting.onPart(message.part);
        } catch (error) {
          // the caller refused the answer: the thread is ended (its job with it) and replaced
          this.retire(slot);
          waiting.reject(error as Error);
          void worker.terminate();
          this.pump();
          return;
        }
        // the loop turns (other requests, bids) before the next part comes in
        void nextTurn().then(() => {
          if (slot.busy === waiting) worker.postMessage({ type: 'more', id: waiting.id } satisfies ToWorker);
        });
      } else if (message.type === 'done') finish(waiting).resolve(message.answer);
      else finish(waiting).reject(message.kind ? errorOfKind(message.kind as DomainErrorKind, message.message) : new Error(`A worker's job failed: ${message.message}`));
    });
    const lost = (error: Error & { code?: string }) => {
      if (!this.retire(slot)) return;
      const waiting = slot.busy;
      slot.busy = null;
      waiting?.reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? this.setup.refuse.outOfMemory() : this.setup.refuse.stopped());
      if (!this.closed) this.pump();
    };
    worker.on('error', lost);
    worker.on('exit', () => lost(new Error('A worker thread stopped.')));
    return slot;
  }

  /** Takes a thread out of the pool (false when it already was): no job is given to it again. */
  private retire(slot: Slot): boolean {
    const at = this.slots.indexOf(slot);
    if (at < 0) return false;
    this.slots.splice(at, 1);
    return true;
  }
}
