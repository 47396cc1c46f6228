import type { AuditAction } from '../../src/protocol/admin';
import { actorOf, emit } from '../events/events';
import type { Transaction, TransactionKind } from '../../src/protocol/points';
import type { Clock } from '../clock';
import type { Db } from '../db/open';
import type { UserRow } from '../db/schema';
import { writeTransaction, type Queryable } from '../db/write';
import { recordAuditBy } from '../audit/audit';
import { DomainError, restated } from '../errors';
import type { Announcer } from '../sockets/announcer';
import { announceBalance } from './announce';
import { balancesOf, publish } from '../cluster/events';
import { bookIn } from './ledger';

/** One change of one player's points. */
export interface PointsEntry {
  userId: number;
  /** > 0 adds, < 0 takes away. */
  delta: number;
  reason: string;
  /** Default: the options' kind, else 'grant' for a positive delta and 'deduct' for a negative one. */
  kind?: TransactionKind;
}

export interface BookOptions {
  /** Who made the change; null for the system (a purchase, an automatic award). */
  actorId: number | null;
  /** The kind of every entry that names none. */
  kind?: TransactionKind;
  /** The text a refusal of entry `index` reads (default: the ledger's own text, e.g. "below reserved"). */
  refusalText?: (index: number, message: string) => string;
  /**
   * The audit entry of a leadership action (a person's grant, deduct or bulk award), made from what
   * was booked and recorded in the same transaction; purchases and automatic awards leave it out.
   */
  audit?: (booked: Booked) => { action: AuditAction; target: string; detail?: Record<string, unknown> };
  /** Runs first in the transaction (claims what is booked, e.g. a bulk preview): a throw books nothing. */
  claim?: (trx: Queryable) => Promise<void>;
  /** More writes that belong with the booking (a bulk award's record of its file), in its transaction. */
  alsoIn?: (trx: Queryable, at: number) => Promise<void>;
}

export interface Booked {
  /** One per entry, in order. */
  transactions: Transaction[];
  /** Every account touched, as it is after the commit (once each). */
  users: UserRow[];
}

export interface PointsServiceDeps {
  db: Db;
  announcer: Announcer;
  now: Clock;
  /** The auction engine's queue (AuctionEngine.exclusive): bids, settlements and bookings take turns in it. */
  exclusive: <T>(job: () => Promise<T>) => Promise<T>;
}

/**
 * Every change of points outside the auction: serialise, book, announce. The entries are booked
 * in the engine's queue (so a balance change keeps its place among bids, which reserve points,
 * and settlements, which book purchases), all in one write transaction (all or nothing: the ledger
 * refuses a balance below 0 or below what leading bids reserve); once committed, each player's
 * open pages hear their new balance (VIRTUAL_BALANCE_UPDATE). Routes, bulk awards and automatic
 * awards call `book`; nothing else writes the ledger except settlement's purchases.
 */
export class PointsService {
  constructor(private readonly deps: PointsServiceDeps) {}

  /** Books `entries` and announces the balances. */
  book(entries: readonly PointsEntry[], options: BookOptions): Promise<Booked> {
    const { db, announcer, now } = this.deps;
    return this.deps.exclusive(async () => {
      const at = now();
      const booked = await writeTransaction(db, async (trx) => {
        await options.claim?.(trx);
        const transactions: Transaction[] = [];
        const users = new Map<number, UserRow>();
        for (const [index, entry] of entries.entries()) {
          const kind = entry.kind ?? options.kind ?? (entry.delta > 0 ? 'grant' : 'deduct');
          try {
            const { transaction, user } = await bookIn(trx, { userId: entry.userId, delta: entry.delta, kind, reason: entry.reason, actorId: options.actorId }, at);
            transactions.push(transaction);
            users.set(user.id, user);
          } catch (error) {
            if (error instanceof DomainError && options.refusalText) throw restated(error, options.refusalText(index, error.message));
            throw error;
          }
        }
        const result = { transactions, users: [...users.values()] };
        const ledger: [number, number] | undefined = transactions.length ? [transactions[0].id, transactions[transactions.length - 1].id] : undefined;
        await emit(trx, 'points.booked', { entries: transactions.length, users: [...users.keys()], total: transactions.reduce((sum, t) => sum + t.delta, 0), ...(ledger ? { ledger } : {}) }, actorOf(options.actorId), at);
        await publish(trx, { k: 'users', u: balancesOf(users.values()) });
        if (options.audit) {
          const entry = options.audit(result);
          await recordAuditBy(trx, options.actorId, entry.action, entry.target, entry.detail ?? {}, at);
        }
        await options.alsoIn?.(trx, at);
        return result;
      });
      // committed: now the players' open pages hear of it
      for (const user of booked.users) announceBalance(announcer, user);
      return booked;
    });
  }

  /**
   * A booking that writes more than ledger entries (an automatic run: its run row, its entries and
   * its audit entry, one transaction): `job` runs in the queue at `at`, opens its own write
   * transaction and books through the ledger (bookIn / bookManyIn); the accounts it answers hear
   * their new balances once it has committed.
   */
  bookWith<T>(job: (at: number) => Promise<{ value: T; users: Iterable<UserRow> }>): Promise<T> {
    const { announcer, now } = this.deps;
    return this.deps.exclusive(async () => {
      const { value, users } = await job(now());
      const touched = [...users];
      for (const user of touched) announceBalance(announcer, user);
      // (committed by the job: the other processes hear of it now)
      // (a failure here loses only the others' live update: they read balances again when they reconnect)
      await publish(this.deps.db, { k: 'users', u: balancesOf(touched) }).catch(() => undefined);
      return value;
    });
  }
}
