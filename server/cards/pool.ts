import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { CardTheme } from '../../src/protocol/cards';
import { CARD_ERRORS } from '../../src/protocol/cards';
import type { Locale } from '../../src/protocol/locales';
import { Unavailable } from '../errors';
import type { CardData } from './data';

/** One card to draw, as a worker receives it. */
export interface DrawJob {
  id: number;
  data: CardData;
  lang: Locale;
  theme: CardTheme;
  uploads: string | null;
}

type Answer = { ready: true } | { id: number; png: Uint8Array } | { id: number; error: string };

interface Waiting {
  job: DrawJob;
  resolve: (png: Buffer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  child: ChildProcess;
  busy: Waiting | null;
}

export interface CardPoolOptions {
  /** Processes drawing at once (each holds the fonts, about 60 MB). */
  size: number;
  /** Cards waiting for a drawer at most; one more is refused (503) at once. */
  maxQueue: number;
}

export const DEFAULT_POOL: CardPoolOptions = { size: 1, maxQueue: 16 };

/**
 * Draws cards in child processes, off the process that judges bids, at the lowest CPU priority (nice
 * 19): on a machine whose cores are busy, the kernel gives bids and pages the CPU first and cards
 * what is left, which a worker thread (same priority as the bids' thread) cannot. A bounded queue in
 * front of `size` drawers, each drawing one card at a time; over the queue, `draw` throws
 * Unavailable (503, "try again") before any work is done. Drawers start on the first card and are
 * replaced when one dies.
 */
const DRAWER = fileURLToPath(new URL('./drawer-boot.mjs', import.meta.url));
/** A drawer's JavaScript heap at most (MB): a card needs far less; a runaway one dies, not the server. */
const DRAWER_HEAP_MB = 256;

export class CardPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Waiting[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: CardPoolOptions = DEFAULT_POOL) {}

  /** Cards being drawn or waiting. */
  get pending(): number {
    return this.queue.length + this.slots.filter((s) => s.busy).length;
  }

  draw(data: CardData, lang: Locale, theme: CardTheme, uploads: string | null): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Unavailable(CARD_ERRORS.busy));
    const idle = this.slots.find((s) => !s.busy);
    if (!idle && this.slots.length >= this.options.size && this.queue.length >= this.options.maxQueue) return Promise.reject(new Unavailable(CARD_ERRORS.busy));
    return new Promise<Buffer>((resolve, reject) => {
      this.queue.push({ job: { id: this.nextId++, data, lang, theme, uploads }, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.splice(0)) waiting.reject(new Unavailable(CARD_ERRORS.busy));
    await Promise.all(
      this.slots.splice(0).map(({ child }) => {
        const exited = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
        child.kill('SIGKILL');
        return exited;
      }),
    );
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.options.size) slot = this.spawn();
      if (!slot) return;
      const waiting = this.queue.shift() as Waiting;
      slot.busy = waiting;
      slot.child.send(waiting.job);
    }
  }

  private spawn(): Slot {
    const child = fork(DRAWER, [], { execArgv: [`--max-old-space-size=${DRAWER_HEAP_MB}`], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    try {
      if (child.pid !== undefined) os.setPriority(child.pid, 19);
    } catch {
      // a system that refuses leaves the drawer at normal priority
    }
    // the drawers never keep the server running: it stops them in close(), and they leave with it
    child.unref();
    child.channel?.unref();
    const slot: Slot = { child, busy: null };
    this.slots.push(slot);
    child.on('message', (answer: Answer) => {
      if ('ready' in answer) return;
      const waiting = slot.busy;
      if (!waiting || waiting.job.id !== answer.id) return;
      slot.busy = null;
      if ('png' in answer) waiting.resolve(Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength));
      else waiting.reject(new Error(`A card could not be drawn: ${answer.error}`));
      this.pump();
    });
    const lost = (error: Error) => {
      const at = this.slots.indexOf(slot);
      if (at < 0) return;
      this.slots.splice(at, 1);
      slot.busy?.reject(error);
      slot.busy = null;
      if (!this.closed) this.pump();
    };
    child.on('error', lost);
    child.on('exit', (code, signal) => lost(new Error(`A card drawer stopped (${signal ?? `exit code ${code}`}).`)));
    return slot;
  }
}
