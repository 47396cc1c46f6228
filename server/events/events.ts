import type { Db } from '../db/open';
import { afterCommit, type Queryable } from '../db/write';

/**
 * Domain events: a change other parts of the product react to, written by the module that owns the
 * change, inside the change's own write transaction (`emit`), so the event exists exactly when the
 * change does. Reactions (server/reactions.ts) run after the commit, each from its own cursor
 * (server/events/reactions.ts). Each kind's data is typed here; add a kind with its data's shape.
 */
export interface EventData {
  'scan.applied': { scanId: number; takenAt: number; rows: number; source: 'upload' | 'bot'; botId: number | null };
  'scan.deleted': { scanId: number; takenAt: number };
  /** Ledger entries booked together (a grant, a bulk award, a run, a sale's purchase …); `ledger`: the first and last entry's id (grants, deducts and runs give it). */
  'points.booked': { entries: number; users: number[]; total: number; ledger?: [number, number] };
  'rule.applied': { ruleId: number; runId: number; fromScanId: number; toScanId: number; entries: number; total: number; auto: boolean };
  'item.started': { itemId: number };
  'item.sold': { itemId: number; userId: number; amount: number };
  'item.no-buyer': { itemId: number; reason: 'no-bids' | 'reserve-not-met' };
  'item.cancelled': { itemId: number };
  'season.changed': { seasonId: number; change: 'created' | 'edited' | 'closed' | 'marks' };
  /** A player's maximum bid was outbid beyond its limit (exhausted) or dropped for want of points (dropped). */
  'max.exhausted': { itemId: number; itemName: string; userId: number; max: number };
  'max.dropped': { itemId: number; itemName: string; userId: number; max: number };
  /** Leadership posted a season's standings card to Discord (the KvK Dashboard's window and alliance). */
  'kvk.posted': { seasonId: number; window: string | null; alliance: string | null; top: 10 | 25 };
}

export type EventKind = keyof EventData;

/** Who made the change: an account (`user:<id>`), a bot (`bot:<id>`), or nobody (null: the system). */
export type EventActor = `user:${number}` | `bot:${number}` | null;

/** The actor of an account id as the server passes it around: a bot's is its id negated, none is the system. */
export function actorOf(id: number | null | undefined): EventActor {
  if (id === null || id === undefined) return null;
  return id < 0 ? `bot:${-id}` : `user:${id}`;
}

export interface DomainEvent<K extends EventKind = EventKind> {
  id: number;
  kind: K;
  at: number;
  actor: EventActor;
  data: EventData[K];
}

/**
 * Tells whoever runs the reactions of this database that an event committed. Set once at start-up
 * by the composition root (the reactions' runner); a database with no runner (the CLI, a test
 * opening the file) just records its events, and a runner finds them on its next pass.
 */
const WAKE = Symbol('events.wake');
type Wakeable = { [WAKE]?: () => void };

export function onEventsCommitted(db: Db, wake: () => void): void {
  (db as unknown as Wakeable)[WAKE] = wake;
}

/** Wakes the reactions' runner of `db` (a bid group that wrote events, after its commit: bid-writer-postgres.ts). */
export function eventsCommitted(db: Db): void {
  (db as unknown as Wakeable)[WAKE]?.();
}

/**
 * PostgreSQL's advisory lock that a bid group takes, after every row lock it needs, just before it
 * writes domain events, and holds to its COMMIT. Bid groups hold the write lock shared, so two may
 * run at once; with this lock their events' ids are taken and committed in one order, which the
 * reactions' cursors rely on (other writers hold the write lock exclusively, so none runs beside them).
 */
export const BID_EVENTS_LOCK_KEY = 0x6d617862; // 'maxb'

/**
 * The statements a PostgreSQL bid group runs before its COMMIT to record `events` (values written
 * in: the data is JSON of numbers and an item name, quoted by `quote`, pg's escapeLiteral).
 */
export function bidEventStatements(events: readonly { kind: EventKind; data: EventData[EventKind]; actor: EventActor; at: number }[], quote: (text: string) => string): string[] {
  if (events.length === 0) return [];
  const rows = events.map((e) => {
    if (!Number.isSafeInteger(e.at)) throw new Error(`not a time: ${e.at}`);
    return `(${quote(e.kind)}, ${e.at}, ${e.actor === null ? 'null' : quote(e.actor)}, ${quote(JSON.stringify(e.data))})`;
  });
  return [`select pg_advisory_xact_lock(${BID_EVENTS_LOCK_KEY})`, `insert into events (kind, at, actor, data) values ${rows.join(', ')}`];
}

/**
 * Records a domain event in `trx`, the write transaction of the change it tells of (exclusive: on
 * PostgreSQL that keeps events' ids in commit order, which a cursor relies on). Once `trx`
 * commits, the reactions' runner of its database is woken; a rollback leaves no event.
 */
export async function emit<K extends EventKind>(trx: Queryable, kind: K, data: EventData[K], actor: EventActor, at: number): Promise<void> {
  afterCommit(trx, (db) => (db as unknown as Wakeable)[WAKE]?.());
  await trx.insertInto('events').values({ kind, at, actor, data: JSON.stringify(data) }).execute();
}
