import { Observable, Subject, asyncScheduler, interval, map, takeWhile, type SchedulerLike } from 'rxjs';
import { createActor } from 'xstate';
import { viewBoard, type BoardView } from '../machines/board-view';
import { REPLAY_TOKEN, replayMachine, type ReplayActor } from '../machines/replay.machine';
import type { Channel, ClientFrame } from '../protocol/socket';
import type { LogEntry, ParsedLog } from './log';
import { normalise, normaliseParsed } from './normalise';
import type { SocketEvent, SocketHandle } from './socket';

/**
 * The replayer: a recorded log played back through the live app's streams and machines. Each
 * entry becomes the socket event it was live (an incoming frame goes through the same normaliser),
 * delivered to the same connection machines, which hand it to the same board machine, while a
 * simulated clock stands at the recorded moment: the start's wall time plus the entry's `t`, as
 * `Date.now()` read live. Timers (an item's end, a reconnect's backoff) fire on that clock in
 * order between entries. So a log folds to the board its session showed, at any pace.
 */

/** An XState clock whose time is set by hand; timeouts in a heap, fired in time order. */
export class ReplayClock {
  private time: number;
  private nextId = 0;
  private heap: { at: number; id: number }[] = [];
  private readonly pending = new Map<number, { at: number; fn: () => void }>();

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): number {
    const id = ++this.nextId;
    const at = this.time + Math.max(0, ms);
    this.pending.set(id, { at, fn });
    this.push({ at, id });
    return id;
  }

  clearTimeout(id: unknown): void {
    this.pending.delete(id as number);
  }

  /** Moves to `time` (never back), firing every timeout due on the way, each at its own time. */
  set(time: number): void {
    for (;;) {
      const top = this.peek();
      if (!top || top.at > time) break;
      this.pop();
      const timeout = this.pending.get(top.id);
      if (!timeout) continue;
      this.pending.delete(top.id);
      if (top.at > this.time) this.time = top.at;
      timeout.fn();
    }
    if (time > this.time) this.time = time;
  }

  /** When the next timeout is due, if any. */
  nextDue(): number | null {
    return this.peek()?.at ?? null;
  }

  private peek() {
    while (this.heap.length > 0 && !this.pending.has(this.heap[0].id)) this.pop();
    return this.heap[0];
  }

  private less(a: { at: number; id: number }, b: { at: number; id: number }) {
    return a.at < b.at || (a.at === b.at && a.id < b.id);
  }

  private push(node: { at: number; id: number }) {
    const h = this.heap;
    h.push(node);
    for (let i = h.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!this.less(h[i], h[parent])) break;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  private pop() {
    const h = this.heap;
    const last = h.pop();
    if (h.length === 0 || !last) return;
    h[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l], h[m])) m = l;
      if (r < h.length && this.less(h[r], h[m])) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
}

/** A log entry as the socket event it was live; `null` for what the client sent (the machines send their own). */
export function toSocketEvent(entry: LogEntry): SocketEvent | null {
  switch (entry.dir) {
    case 'open':
      return { kind: 'open' };
    case 'close':
      return { kind: 'close', code: entry.code };
    case 'in':
      if (entry.msg) return { kind: 'frame', event: normaliseParsed(entry.msg) };
      return { kind: 'frame', event: entry.binary ? normalise(new ArrayBuffer(0)) : normalise(entry.raw) };
    case 'out':
      return null;
  }
}

/**
 * The sockets of a replay: `createSocket` gives the connection machines a handle per connection,
 * as the live factory does; the replayer delivers each channel's events to its current handle.
 */
export function createReplaySockets() {
  const current: Partial<Record<Channel, Subject<SocketEvent>>> = {};
  const channelOf = (url: string): Channel => (url.endsWith('user') ? 'user' : 'auction');
  return {
    createSocket(url: string): SocketHandle {
      const channel = channelOf(url);
      const sent = new Subject<ClientFrame>();
      const events$ = new Observable<SocketEvent>((subscriber) => {
        const subject = new Subject<SocketEvent>();
        const subscription = subject.subscribe(subscriber);
        current[channel] = subject;
        return () => {
          subscription.unsubscribe();
          if (current[channel] === subject) delete current[channel];
        };
      });
      return {
        events$,
        sent$: sent.asObservable(),
        send: (frame) => {
          sent.next(frame);
          return true;
        },
        close: () => undefined,
      };
    },
    /** False when no connection is listening on the channel. */
    deliver(channel: Channel, event: SocketEvent): boolean {
      const subject = current[channel];
      if (!subject) return false;
      subject.next(event);
      if (event.kind === 'close') {
        subject.complete();
        if (current[channel] === subject) delete current[channel];
      }
      return true;
    },
    listening: (channel: Channel) => current[channel] !== undefined,
  };
}

export interface Replayer {
  readonly actor: ReplayActor;
  readonly clock: ReplayClock;
  readonly entries: readonly LogEntry[];
  /** Wall time of the log's start (the header's recordedAt). */
  readonly start: number;
  /** Index of the next entry to apply. */
  readonly position: number;
  /** Where the replay stands, in ms since the start. */
  readonly time: number;
  /** The last entry's `t`. */
  readonly duration: number;
  /** Applies the next entry (the clock moves to its time first); false at the end. */
  step(): boolean;
  /** Applies every entry up to and including time `t` (ms since the start), then moves the clock to `t`. */
  advanceTo(t: number): void;
  /** Applies the whole log. */
  runToEnd(): void;
  board(): BoardView;
  stop(): void;
}

/** Starts a replay of a parsed log: a fresh set of machines on their own simulated clock. */
export function createReplayer(log: ParsedLog | { header: { recordedAt: string }; entries: readonly LogEntry[] }): Replayer {
  const start = Date.parse(log.header.recordedAt);
  const clock = new ReplayClock(start);
  const sockets = createReplaySockets();
  const actor = createActor(replayMachine, { clock, input: { createSocket: sockets.createSocket, now: () => clock.now() } });
  actor.start();
  const entries = log.entries;
  const duration = entries.length ? entries[entries.length - 1].t : 0;
  let position = 0;
  let time = 0;

  /** A recorded open with nobody listening: live, the connection had opened a socket; bring it back to it. */
  function ensureListening(channel: Channel) {
    if (sockets.listening(channel)) return;
    const connection = actor.getSnapshot().context.connections[channel];
    const state = connection.getSnapshot();
    if (state.matches('disconnected')) connection.send({ type: 'RETRY_NOW' });
    else connection.send({ type: 'TOKEN', token: REPLAY_TOKEN });
  }

  function apply(entry: LogEntry) {
    // recorded times only go forward; a clock set back on the recording machine stands still
    time = Math.max(time, entry.t);
    clock.set(start + time);
    const event = toSocketEvent(entry);
    if (!event) return;
    if (event.kind === 'open') ensureListening(entry.ch);
    sockets.deliver(entry.ch, event);
  }

  const replayer: Replayer = {
    actor,
    clock,
    entries,
    start,
    get position() {
      return position;
    },
    get time() {
      return time;
    },
    duration,
    step() {
      if (position >= entries.length) return false;
      apply(entries[position++]);
      return true;
    },
    advanceTo(t) {
      while (position < entries.length && entries[position].t <= t) apply(entries[position++]);
      if (t > time) {
        time = t;
        clock.set(start + t);
      }
    },
    runToEnd() {
      while (position < entries.length) apply(entries[position++]);
    },
    board: () => viewBoard(actor.getSnapshot().context.board),
    stop: () => actor.stop(),
  };
  return replayer;
}

/** Folds a whole log (or the part up to `at` ms) and gives the board it leaves. */
export function replayLog(log: ParsedLog, options: { at?: number } = {}): BoardView {
  const replayer = createReplayer(log);
  if (options.at === undefined) replayer.runToEnd();
  else replayer.advanceTo(options.at);
  const board = replayer.board();
  replayer.stop();
  return board;
}

/**
 * Plays a replay in real time at `speed` (2 = twice as fast): on each tick the replay moves on by
 * the time elapsed times the speed. Emits the replay's time after each tick; completes at the end.
 */
export function play(replayer: Replayer, options: { speed: number; scheduler?: SchedulerLike; tickMs?: number }): Observable<number> {
  // a timer, not animation frames: a player in a background tab still plays, only in bigger steps
  const scheduler = options.scheduler ?? asyncScheduler;
  const tick = options.tickMs ?? 16;
  const from = replayer.time;
  const began = scheduler.now();
  return interval(tick, scheduler).pipe(
    map(() => {
      replayer.advanceTo(from + (scheduler.now() - began) * options.speed);
      return replayer.time;
    }),
    takeWhile(() => replayer.position < replayer.entries.length, true),
  );
}
