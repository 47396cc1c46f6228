import { Observable, Subject, asyncScheduler, interval, map, takeWhile, type SchedulerLike } from 'rxjs';
import { createActor } from 'xstate';
import { viewBoard, type BoardView } from '../auction/board-view';
import { boardData } from '../machines/board.machine';
import { REPLAY_TOKEN, replayWith, type ReplayActor } from '../machines/replay.machine';
import { CHANNELS, type Channel, type OutgoingFrame } from '../protocol/socket';
import { createLogReader, type LogEntry, type ParsedLog } from '../streams/log';
import type { LogHeader } from '../streams/recorder';
import { normalise, normaliseParsed, type ProtocolEvent } from '../streams/normalise';
import type { Frame, SocketEvent, SocketHandle } from '../streams/socket';

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

type InEntry = Extract<LogEntry, { dir: 'in' }>;

/** An incoming entry as the frame it was live: through the same normaliser. */
function eventOf(entry: InEntry): ProtocolEvent {
  if (entry.msg) return normaliseParsed(entry.msg);
  return entry.binary ? normalise(new ArrayBuffer(0)) : normalise(entry.raw);
}

/** A log entry as the socket event it was live; `null` for what the client sent (the machines send their own). */
export function toSocketEvent(entry: LogEntry): SocketEvent | null {
  switch (entry.dir) {
    case 'open':
      return { kind: 'open' };
    case 'close':
      return { kind: 'close', code: entry.code };
    case 'in':
      return { kind: 'frames', frames: [{ event: eventOf(entry) }] };
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
      const sent = new Subject<OutgoingFrame>();
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

/**
 * The machines of a replay on their own simulated clock. Entries go in, in order, in whatever
 * pieces: a whole parsed log, or chunks of a file as it is read (nothing is kept once applied).
 */
export interface ReplaySession {
  readonly actor: ReplayActor;
  readonly clock: ReplayClock;
  /** Wall time of the log's start (the header's recordedAt). */
  readonly start: number;
  /** Where the replay stands, in ms since the start. */
  readonly time: number;
  /**
   * Applies `entries` from index `from` while `more(entry)`, and returns the index of the first
   * entry it did not apply. Incoming frames for authenticated connections go as one run per
   * channel (each frame with its recorded time, so the machines fold them exactly as one by one);
   * everything else goes one entry at a time.
   */
  apply(entries: readonly LogEntry[], from: number, more?: (entry: LogEntry) => boolean): number;
  /** Moves the replay's time on to `t` (never back), firing the timers due on the way. */
  moveTo(t: number): void;
  board(): BoardView;
  stop(): void;
}

export function createReplaySession(header: { recordedAt: string }): ReplaySession {
  const start = Date.parse(header.recordedAt);
  const clock = new ReplayClock(start);
  const sockets = createReplaySockets();
  const actor = createActor(replayWith(sockets.createSocket), { clock });
  actor.start();
  let time = 0;

  /** A recorded open with nobody listening: live, the connection had opened a socket; bring it back to it. */
  function ensureListening(channel: Channel) {
    if (sockets.listening(channel)) return;
    const connection = actor.getSnapshot().context.connections[channel];
    const state = connection.getSnapshot();
    if (state.matches('disconnected')) connection.send({ type: 'RETRY_NOW' });
    else connection.send({ type: 'TOKEN', token: REPLAY_TOKEN });
  }

  function applyOne(entry: LogEntry) {
    // recorded times only go forward; a clock set back on the recording machine stands still
    time = Math.max(time, entry.t);
    clock.set(start + time);
    const event = toSocketEvent(entry);
    if (event) {
      if (event.kind === 'open') ensureListening(entry.ch);
      sockets.deliver(entry.ch, event);
    }
    // what the entry armed for now (an end already past) goes off now, as it would live
    clock.set(start + time);
  }

  /** A connection that is authenticated has no timer of its own: frames can reach it in a run. */
  const takesRuns = (channel: Channel) =>
    sockets.listening(channel) && actor.getSnapshot().context.connections[channel].getSnapshot().matches({ online: 'connected' });

  const always = () => true;

  return {
    actor,
    clock,
    start,
    get time() {
      return time;
    },
    apply(entries, from, more = always) {
      let position = from;
      while (position < entries.length && more(entries[position])) {
        const first = entries[position];
        const open: Record<Channel, boolean> | null = first.dir === 'in' ? { auction: takesRuns('auction'), user: takesRuns('user') } : null;
        if (!open?.[first.ch]) {
          applyOne(entries[position++]);
          continue;
        }
        const runs: Record<Channel, Frame[]> = { auction: [], user: [] };
        const runFrom = Math.max(time, first.t);
        let t = runFrom;
        for (; position < entries.length; position++) {
          const entry = entries[position];
          if (!more(entry)) break;
          // what the client sent is not replayed (the machines send their own); an open or close ends the run
          if (entry.dir !== 'in') {
            if (entry.dir === 'out') continue;
            break;
          }
          if (!open[entry.ch]) break;
          t = Math.max(t, entry.t);
          runs[entry.ch].push({ event: eventOf(entry), at: start + t });
        }
        // timers due before the run go off first; those it arms for its span go off after it
        clock.set(start + runFrom);
        for (const channel of CHANNELS) if (runs[channel].length > 0) sockets.deliver(channel, { kind: 'frames', frames: runs[channel] });
        time = t;
        clock.set(start + time);
      }
      return position;
    },
    moveTo(t) {
      if (t <= time) return;
      time = t;
      clock.set(start + t);
    },
    board: () => viewBoard(boardData(actor.getSnapshot().context.board)),
    stop: () => actor.stop(),
  };
}

/** A replay of a whole parsed log, with a position in it: what the QA player steps, seeks and plays. */
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
  const session = createReplaySession(log.header);
  const entries = log.entries;
  const duration = entries.length ? entries[entries.length - 1].t : 0;
  let position = 0;
  return {
    actor: session.actor,
    clock: session.clock,
    entries,
    start: session.start,
    get position() {
      return position;
    },
    get time() {
      return session.time;
    },
    duration,
    step() {
      if (position >= entries.length) return false;
      session.apply([entries[position]], 0);
      position += 1;
      return true;
    },
    advanceTo(t) {
      position = session.apply(entries, position, (entry) => entry.t <= t);
      session.moveTo(t);
    },
    runToEnd() {
      position = session.apply(entries, position);
    },
    board: session.board,
    stop: session.stop,
  };
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
 * Folds a log's text as it is read: each line is checked as it comes (a malformed line throws its
 * LogError, naming it) and each piece's entries are applied and let go. A string is one piece;
 * pieces of a file as it is read are folded one after the other, to the same board. Gives the
 * board after the whole log, or at `at` ms after its start: `replayLog`'s board, without holding
 * on to the log (the CLI and the benchmark).
 */
export function foldLog(text: string | Iterable<string>, options: { at?: number } = {}): BoardView {
  const { at } = options;
  const reader = createLogReader();
  let session: ReplaySession | null = null;
  let done = false;
  const more = at === undefined ? undefined : (entry: LogEntry) => entry.t <= at;
  const feed = (entries: LogEntry[]) => {
    if (done || entries.length === 0) return;
    session ??= createReplaySession(reader.header as LogHeader);
    if (session.apply(entries, 0, more) < entries.length) done = true;
  };
  for (const piece of typeof text === 'string' ? [text] : text) feed(reader.push(piece));
  feed(reader.end());
  session ??= createReplaySession(reader.header as LogHeader);
  if (at !== undefined) session.moveTo(at);
  // The session is let go, not stopped: it holds nothing outside itself (its clock and sockets
  // are its own), and XState stops spawned children one by one, copying the map of children each
  // time, which for the hundreds of items of a long log costs more than the whole fold.
  return session.board();
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
