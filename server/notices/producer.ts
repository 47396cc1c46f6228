import { NOTICE_KEEP_MS } from '../../src/protocol/notices';
import { MSG, type ServerMsg } from '../../src/protocol/socket';
import { publish } from '../cluster/events';
import { isPostgres } from '../db/dialect';
import type { Db } from '../db/open';
import type { Queryable } from '../db/write';
import type { DomainEvent } from '../events/events';
import { cursorTurn, moveCursor, PG_SETTLE_MS, startCursor } from '../events/cursor';
import { PassLoop } from '../events/pass-loop';
import type { Hub } from '../sockets/hub';
import { APP_CHANNELS, NOTICE_COLUMNS, preferencesFor, toNotice, type NoticeRow } from './notices';
import { draftsOf, type NoticeDraft } from './drafts';
import { forgetItem } from './watches';

/**
 * Makes notices, and nothing else does. Every notice has a cause (`won:<item>`, `points:<event>`,
 * `outbid:<item>:<the outbid bid>` …), unique per account: a notice made again (a reaction run twice
 * after a crash, several processes) is stored once and sent once. Each is stored whatever the
 * player chose, with the channel chosen (`channel`: the Discord direct messages read it); those for
 * `app` or `both` go out as NOTICE to the account's user sockets on every process.
 *
 * Three sources, all after the commits they tell of:
 * - domain events (`handle`, a reaction): started, won, lost, points, automatic, max exhausted or dropped;
 * - a pass over the append-only `bids` table from its own cursor (outbid), so the bid's transaction
 *   writes nothing more;
 * - a pass over the items ending soon (ending), at each player's lead time; the same pass purges
 *   notices older than NOTICE_KEEP_MS.
 */


export interface NoticesOptions {
  db: Db;
  hub: Pick<Hub, 'sendToUser' | 'connectionsOf'>;
  now: () => number;
  /** How often the passes run (outbid, ending soon, purge). */
  pollMs: number;
  paused: boolean;
  log: { error(obj: object, msg: string): void };
}


/** The outbid pass's cursor (the last bid id read) in event_cursors. */
const OUTBID_CURSOR = 'notices-outbid';
/** Bids read per turn of the outbid pass. */
const BIDS_BATCH = 500;
/** The longest "ending soon" lead time, in ms. */
const LONGEST_LEAD_MS = 15 * 60_000;
/** Rows inserted per statement. */
const CHUNK = 200;
/** Notice ids per cluster event (a NOTIFY payload stays far below its limit). */
const IDS_PER_EVENT = 400;

const inApp = (channel: string) => (APP_CHANNELS as readonly string[]).includes(channel);

export class Notices {
  private readonly loop: PassLoop;
  private lastPurge = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: NoticesOptions) {
    this.loop = new PassLoop(() => this.pass(), { pollMs: options.pollMs, paused: options.paused, onError: (error) => options.log.error({ err: error }, 'a pass of the notices failed') });
  }

  /** The outbid pass starts at the newest bid (it does not notice the past), then runs every pollMs. */
  async start(): Promise<void> {
    await startCursor(this.options.db, OUTBID_CURSOR, 'bids');
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  idle(): Promise<void> {
    return this.loop.idle();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * Stores the notices not made before (by their cause), with each player's channel for their
   * kind, then sends those meant for the app to the players' sockets here and on other processes.
   */
  async make(drafts: readonly NoticeDraft[]): Promise<void> {
    if (drafts.length === 0) return;
    const { db, now } = this.options;
    const preferences = await preferencesFor(db, drafts.map((d) => d.userId));
    const at = now();
    const made: NoticeRow[] = [];
    for (let start = 0; start < drafts.length; start += CHUNK) {
      const values = drafts.slice(start, start + CHUNK).map((d) => ({
        user_id: d.userId,
        kind: d.kind,
        at,
        item_id: d.itemId ?? null,
        item_name: d.itemName ?? null,
        amount: d.amount ?? null,
        channel: preferences.get(d.userId)?.channels[d.kind] ?? 'app',
        data: JSON.stringify(d.data ?? {}),
        cause: d.cause,
      }));
      const rows = await db
        .insertInto('notices')
        .values(values)
        .onConflict((oc) => oc.columns(['user_id', 'cause']).doNothing())
        .returning([...NOTICE_COLUMNS, 'user_id', 'channel'])
        .execute();
      made.push(...(rows as NoticeRow[]));
    }
    const told = made.filter((r) => inApp(r.channel));
    this.tell(told);
    for (let start = 0; start < told.length; start += IDS_PER_EVENT) {
      await publish(db, { k: 'notices', n: told.slice(start, start + IDS_PER_EVENT).map((r) => Number(r.id)) });
    }
  }

  /** Another process made these notices: the ones for accounts with sockets here go to them. */
  async tellRemote(ids: readonly number[]): Promise<void> {
    const { db, hub } = this.options;
    if (ids.length === 0) return;
    const rows = (await db
      .selectFrom('notices')
      .select([...NOTICE_COLUMNS, 'user_id', 'channel'])
      .where('id', 'in', [...ids])
      .orderBy('id')
      .execute()) as NoticeRow[];
    this.tell(rows.filter((r) => inApp(r.channel) && hub.connectionsOf(Number(r.user_id)).length > 0));
  }

  private tell(rows: readonly NoticeRow[]): void {
    for (const row of rows) {
      const { read: _read, ...data } = toNotice(row);
      const message: ServerMsg = { type: MSG.NOTICE, data };
      this.options.hub.sendToUser(Number(row.user_id), 'user', message);
    }
  }

  // ── the reaction to domain events ──────────────────────────────────────────────────────────

  /** Makes the notices one domain event calls for (idempotent: each has its cause). */
  handle(event: DomainEvent): Promise<void> {
    return this.handleAll([event]);
  }

  /**
   * Makes the notices a run of domain events calls for, stored together (one insert for the run,
   * not one per event: a burst of maxima exhausted in a bid storm is a burst of events), then lets
   * the watchers of the items that ended go.
   */
  async handleAll(events: readonly DomainEvent[]): Promise<void> {
    const drafts: NoticeDraft[] = [];
    const ended: number[] = [];
    for (const event of events) {
      const { drafts: made, ended: itemId } = await draftsOf(this.options.db, event);
      drafts.push(...made);
      if (itemId !== undefined) ended.push(itemId);
    }
    await this.make(drafts);
    for (const itemId of ended) await forgetItem(this.options.db, itemId);
  }

  // ── the passes: outbid, ending soon, purge ─────────────────────────────────────────────────

  private async pass(): Promise<void> {
    while (!this.loop.stopped && (await this.outbidTurn())) {
      // a full batch: read on
    }
    if (this.loop.stopped) return;
    await this.ending();
    await this.purge();
  }

  /** One batch of bids past the cursor; true when there may be more. On PostgreSQL one process claims the cursor. */
  private async outbidTurn(): Promise<boolean> {
    return (await cursorTurn(this.options.db, OUTBID_CURSOR, (on, last) => this.outbid(on, last))) ?? false;
  }

  private async outbid(on: Queryable, last: number): Promise<boolean> {
    const { db, now } = this.options;
    let query = db
      .selectFrom('bids as b')
      .innerJoin('items as i', 'i.id', 'b.item_id')
      .select(['b.id', 'b.item_id', 'b.user_id', 'b.amount', 'i.name', 'i.format', 'i.state', 'i.leader_id'])
      .where('b.id', '>', last)
      .orderBy('b.id')
      .limit(BIDS_BATCH);
    if (isPostgres(db)) query = query.where('b.created_at', '<=', now() - PG_SETTLE_MS);
    const rows = await query.execute();
    if (rows.length === 0) return false;

    const byItem = new Map<number, typeof rows>();
    for (const row of rows) {
      // sealed: nobody knows they were outbid; ended: the outcome (won, lost) says more
      if (row.format !== 'english' || row.state !== 'live') continue;
      const list = byItem.get(Number(row.item_id)) ?? [];
      list.push(row);
      byItem.set(Number(row.item_id), list);
    }
    const drafts: NoticeDraft[] = [];
    for (const [itemId, bids] of byItem) {
      const before = await db.selectFrom('bids').select(['id', 'user_id']).where('item_id', '=', itemId).where('id', '<', Number(bids[0].id)).orderBy('id', 'desc').limit(1).executeTakeFirst();
      const sequence = [...(before ? [{ id: Number(before.id), user_id: Number(before.user_id) }] : []), ...bids.map((b) => ({ id: Number(b.id), user_id: Number(b.user_id) }))];
      const { name, leader_id: leader } = bids[0];
      const amount = Number(bids[bids.length - 1].amount);
      for (let i = 1; i < sequence.length; i += 1) {
        const outbid = sequence[i - 1];
        // a raise of one's own, or a player who bid again since (their later bid is what counts; this covers the raise too)
        if (sequence.slice(i).some((b) => b.user_id === outbid.user_id)) continue;
        // who leads again (a maximum bid answered for them)
        if (leader !== null && Number(leader) === outbid.user_id) continue;
        // one per bid of theirs: while they do not bid again, later outbids of the same item add none
        drafts.push({ userId: outbid.user_id, kind: 'outbid', cause: `outbid:${itemId}:${outbid.id}`, itemId, itemName: name, amount, data: { bidId: outbid.id } });
      }
    }
    await this.make(drafts);
    await moveCursor(on, OUTBID_CURSOR, Number(rows[rows.length - 1].id));
    return rows.length === BIDS_BATCH;
  }

  /**
   * Live items whose end is within a player's lead time: each player who watches the item or bid
   * on it hears it once (`ending:<item>`), at their own lead (15, 5 or 1 minutes before the end).
   */
  private async ending(): Promise<void> {
    const { db, now } = this.options;
    const at = now();
    const items = await db
      .selectFrom('items')
      .select(['id', 'name', 'ends_at', 'amount', 'format'])
      .where('state', '=', 'live')
      .where('held_ms', 'is', null)
      .where('ends_at', '>', at)
      .where('ends_at', '<=', at + LONGEST_LEAD_MS)
      .execute();
    for (const item of items) {
      const cause = `ending:${item.id}`;
      const interested = await db
        .selectFrom('watches')
        .select('user_id')
        .where('item_id', '=', item.id)
        .union(db.selectFrom('bids').select('user_id').where('item_id', '=', item.id))
        .execute();
      const ids = interested.map((r) => Number(r.user_id));
      if (ids.length === 0) continue;
      const told = new Set((await db.selectFrom('notices').select('user_id').where('user_id', 'in', ids).where('cause', '=', cause).execute()).map((r) => Number(r.user_id)));
      const waiting = ids.filter((id) => !told.has(id));
      if (waiting.length === 0) continue;
      const preferences = await preferencesFor(db, waiting);
      const due = waiting.filter((id) => Number(item.ends_at) - at <= (preferences.get(id)?.endingLeadMinutes ?? 5) * 60_000);
      await this.make(
        due.map((userId) => ({ userId, kind: 'ending', cause, itemId: Number(item.id), itemName: item.name, ...(item.format === 'english' ? { amount: Number(item.amount) } : {}), data: { endsAt: Number(item.ends_at) } })),
      );
    }
  }

  /** Notices older than NOTICE_KEEP_MS go (at most once a minute). */
  private async purge(): Promise<void> {
    const at = this.options.now();
    if (at - this.lastPurge < 60_000) return;
    this.lastPurge = at;
    await this.options.db.deleteFrom('notices').where('at', '<', at - NOTICE_KEEP_MS).execute();
  }
}
