import type { Db } from '../db/open';
import type { Queryable } from '../db/write';
import { cursorTurn, moveCursor, startCursor } from './cursor';
import { onEventsCommitted, type DomainEvent, type EventKind } from './events';
import { PassLoop } from './pass-loop';

/**
 * A reaction to domain events: `handle` runs after the event's commit, once per event, in id (commit)
 * order. It must be idempotent by event id (or by the change's own key): a process that dies after
 * the reaction's work but before its cursor moved runs it again for that one event on restart.
 */
export interface Reaction {
  /** Its cursor's key in event_cursors: never rename a reaction that ran (it would start again from now). */
  name: string;
  kinds: readonly EventKind[];
  handle(event: DomainEvent): Promise<void>;
  /**
   * Handles a run of its events at once (in id order), when it has a cheaper way than one by one
   * (one write for all of them). The cursor moves past the run after it; if it throws, the run is
   * handled again one event at a time, so a failing event is found and counted alone.
   */
  handleAll?(events: readonly DomainEvent[]): Promise<void>;
}

export interface ReactionsLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ReactionsOptions {
  /** How often other processes' (and the CLI's) events are looked for; this process's own wake the runner at their commit. */
  pollMs: number;
  /** Events every reaction has handled are deleted once older than this. */
  keepMs: number;
  /** Record events but run no reaction (they run on the next start without it). */
  paused: boolean;
  now: () => number;
  log: ReactionsLog;
}

/** Events read per turn of a reaction; the next turn follows at once. */
const BATCH = 100;
/** Failures of one event before the reaction passes over it (logged at error level, so reported). */
const MAX_ATTEMPTS = 5;

interface EventRow {
  id: number;
  kind: string;
  at: number;
  actor: string | null;
  data: string;
}

const toEvent = (r: EventRow): DomainEvent => ({ id: Number(r.id), kind: r.kind as EventKind, at: Number(r.at), actor: r.actor as DomainEvent['actor'], data: JSON.parse(r.data) as DomainEvent['data'] });

/**
 * Runs the reactions registered at start-up (server/reactions.ts), after the commits they react to.
 * A pass takes each reaction in turn from its cursor: reads the events after it, hands each of the
 * reaction's kinds to it, and moves the cursor past each event once handled. On PostgreSQL a
 * reaction's cursor row is claimed with FOR UPDATE SKIP LOCKED for the whole turn, so with several
 * processes one handles each event and the others pass; if it dies the lock goes with its session.
 * Passes run one at a time; a wake during a pass runs another after it. A bid never waits on this.
 */
export class Reactions {
  private readonly reactions: Reaction[] = [];
  private readonly loop: PassLoop;
  private started = false;
  private readonly failures = new Map<string, { id: number; count: number }>();
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    private readonly options: ReactionsOptions,
  ) {
    this.loop = new PassLoop(() => this.pass(), { pollMs: options.pollMs, paused: options.paused, onError: (error) => options.log.error({ err: error }, 'a pass of the reactions failed') });
  }

  private get stopped(): boolean {
    return this.loop.stopped;
  }

  /** Registers a reaction (before start). */
  on(reaction: Reaction): void {
    if (this.started) throw new Error('reactions are registered before the runner starts');
    if (this.reactions.some((r) => r.name === reaction.name)) throw new Error(`reaction "${reaction.name}" is registered twice`);
    this.reactions.push(reaction);
  }

  /**
   * A new reaction starts at the newest event (it does not replay the past); then a first pass runs
   * what committed while the server was down, and every commit of this process wakes the runner.
   */
  async start(): Promise<void> {
    this.started = true;
    for (const r of this.reactions) await startCursor(this.db, r.name, 'events');
    onEventsCommitted(this.db, () => this.wake());
    this.loop.start();
  }

  /** Runs a pass soon (now, or right after the one running). */
  wake(): void {
    this.loop.wake();
  }

  /** Resolves once no pass runs nor is due (tests wait on it after a change). */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  async stop(): Promise<void> {
    onEventsCommitted(this.db, () => undefined);
    await this.loop.stop();
  }

  private async pass(): Promise<void> {
    for (const reaction of this.reactions) {
      if (this.stopped) return;
      try {
        while (!this.stopped && (await this.turn(reaction))) {
          // a full batch: read on
        }
      } catch (error) {
        this.options.log.error({ err: error, reaction: reaction.name }, 'a reaction could not read its events');
      }
    }
    await this.prune().catch((error: unknown) => this.options.log.error({ err: error }, 'old events could not be pruned'));
  }

  /** One batch of a reaction's events; true when there may be more (false too when another process holds its cursor). */
  private async turn(reaction: Reaction): Promise<boolean> {
    return (await cursorTurn(this.db, reaction.name, (on, last) => this.run(on, reaction, last))) ?? false;
  }

  private async run(on: Queryable, reaction: Reaction, last: number): Promise<boolean> {
    const rows = (await this.db.selectFrom('events').selectAll().where('id', '>', last).orderBy('id').limit(BATCH).execute()) as EventRow[];
    // the cursor is written after each event the reaction handled (so a crash repeats at most that
    // one), and once past the events it does not handle: one write per batch for those, not one per
    // event (under a burst of events every reaction's cursor would otherwise be a write per event)
    let stored = last;
    let done = stored;
    const store = async () => {
      if (done === stored) return;
      await moveCursor(on, reaction.name, done);
      stored = done;
    };
    // each row parsed once, for the run and for the events one by one
    const events = rows.map(toEvent);
    const mine = events.filter((e) => reaction.kinds.includes(e.kind));
    if (reaction.handleAll && mine.length > 1 && !this.failures.has(reaction.name) && (await this.handleAll(reaction, mine))) {
      done = events[events.length - 1].id;
      await store();
      return !this.stopped && rows.length === BATCH;
    }
    for (const event of events) {
      if (this.stopped) break;
      if (reaction.kinds.includes(event.kind)) {
        if (!(await this.handle(reaction, event))) break;
        done = event.id;
        await store();
      } else done = event.id;
    }
    await store();
    return !this.stopped && done === events[events.length - 1]?.id && rows.length === BATCH;
  }

  /** True when the reaction handled the whole run; false to handle it one event at a time. */
  private async handleAll(reaction: Reaction, events: readonly DomainEvent[]): Promise<boolean> {
    try {
      await reaction.handleAll?.(events);
      this.options.log.info({ reaction: reaction.name, events: events.length, first: events[0].id, last: events[events.length - 1].id }, 'reaction handled a run of events');
      return true;
    } catch (error) {
      this.options.log.error({ err: error, reaction: reaction.name, first: events[0].id, last: events[events.length - 1].id }, 'a reaction failed on a run of events; it takes them one by one');
      return false;
    }
  }

  /** True when handled (or given up on after MAX_ATTEMPTS); false to try again on the next pass. */
  private async handle(reaction: Reaction, event: DomainEvent): Promise<boolean> {
    try {
      await reaction.handle(event);
      this.options.log.info({ reaction: reaction.name, event: event.id, kind: event.kind }, 'reaction handled');
      this.failures.delete(reaction.name);
      return true;
    } catch (error) {
      const seen = this.failures.get(reaction.name);
      const count = seen?.id === event.id ? seen.count + 1 : 1;
      this.failures.set(reaction.name, { id: event.id, count });
      const givenUp = count >= MAX_ATTEMPTS;
      this.options.log.error({ err: error, reaction: reaction.name, event: event.id, kind: event.kind, attempt: count }, givenUp ? 'a reaction failed and passes over its event' : 'a reaction failed; it tries again');
      if (givenUp) this.failures.delete(reaction.name);
      return givenUp;
    }
  }

  /** Deletes events older than the retention that every reaction has passed (at most once a minute). */
  private async prune(): Promise<void> {
    const now = this.options.now();
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    const names = this.reactions.map((r) => r.name);
    if (names.length === 0) return;
    // (a cursor of a reaction no longer registered does not hold events back)
    const { handled } = await this.db.selectFrom('event_cursors').select((eb) => eb.fn.min('last_id').as('handled')).where('reaction', 'in', names).executeTakeFirstOrThrow();
    if (handled === null) return;
    await this.db.deleteFrom('events').where('id', '<=', Number(handled)).where('at', '<', now - this.options.keepMs).execute();
  }
}
