/**
 * Domain events and their reactions: an event is written in its change's transaction, and each
 * reaction handles each of its events once, after the commit, from its own cursor: across a
 * failure, a restart, a SIGKILL between the commit and the reaction, and (PostgreSQL) several
 * runners on one database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emit, type DomainEvent, type EventKind } from '../../server/events/events';
import { Reactions, type Reaction } from '../../server/events/reactions';
import type { Db } from '../../server/db/open';
import { writeTransaction } from '../../server/db/write';
import { call, login, newAccount, register, signedIn, startTestServer } from './helpers';
import { killed, spawnServer, type Child } from './processes';
import { importScan } from './scan-files';
import { databaseUrlFor, onPostgres, openTestDatabase } from './test-database';

const dirs: string[] = [];
const dbs: Db[] = [];
const children: Child[] = [];
afterAll(async () => {
  await Promise.all(children.map((c) => killed(c, 'SIGKILL')));
  for (const db of dbs) await db.destroy();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-events-'));
  dirs.push(dir);
  return dir;
}

async function database(dir: string): Promise<Db> {
  const db = await openTestDatabase(dir);
  dbs.push(db);
  return db;
}

/** A loaded machine may take this long to start a server process. */
const START_MS = 60_000;

const quiet = { info: () => undefined, error: () => undefined };
const runner = (db: Db) => new Reactions(db, { pollMs: 3_600_000, keepMs: 86_400_000, paused: false, now: Date.now, log: quiet });

/** A reaction that records the ids it handled (and may fail a given number of times first). */
function recorder(name: string, kinds: readonly EventKind[], failures = 0): Reaction & { seen: number[] } {
  let left = failures;
  const seen: number[] = [];
  return {
    name,
    kinds,
    seen,
    async handle(event: DomainEvent) {
      // yield, so that runners racing on one cursor would overlap here
      await new Promise((resolve) => setImmediate(resolve));
      if (left > 0) {
        left -= 1;
        throw new Error('failing on purpose');
      }
      seen.push(event.id);
    },
  };
}

const change = (db: Db, kind: EventKind, itemId: number) => writeTransaction(db, (trx) => emit(trx, kind, { itemId } as never, null, Date.now()));
const idsOf = async (db: Db, kinds: EventKind[]) => (await db.selectFrom('events').select('id').where('kind', 'in', kinds).orderBy('id').execute()).map((r) => Number(r.id));

describe('reactions', () => {
  it('each reaction handles each of its kinds once, in order, after the commit; a rollback leaves no event; a failure is tried again without holding the others', async () => {
    const db = await database(tempDir());
    const reactions = runner(db);
    const started = recorder('started', ['item.started']);
    const all = recorder('all', ['item.started', 'item.cancelled'], 1);
    reactions.on(started);
    reactions.on(all);
    // before the runner starts: not replayed (a new reaction starts at the newest event)
    await change(db, 'item.started', 0);
    await reactions.start();
    await reactions.idle();
    expect(started.seen).toEqual([]);

    for (let i = 1; i <= 3; i++) {
      await change(db, 'item.started', i);
      await change(db, 'item.cancelled', i);
      // the commit woke the runner: idle() waits for its pass
      await reactions.idle();
    }
    await expect(writeTransaction(db, async (trx) => {
      await emit(trx, 'item.started', { itemId: 99 }, null, Date.now());
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    reactions.wake();
    await reactions.idle();

    const startedIds = await idsOf(db, ['item.started']);
    const allIds = await idsOf(db, ['item.started', 'item.cancelled']);
    expect(startedIds).toHaveLength(4); // the one before the start, three after; none rolled back
    expect(started.seen).toEqual(startedIds.slice(1));
    // 'all' failed once on its first event, then handled it on the next pass: each once, in order
    expect(all.seen).toEqual(allIds.slice(1));
    const cursors = await db.selectFrom('event_cursors').selectAll().orderBy('reaction').execute();
    expect(cursors.map((c) => [c.reaction, Number(c.last_id)])).toEqual([
      ['all', allIds.at(-1)],
      ['started', allIds.at(-1)],
    ]);
    await reactions.stop();

    // committed while no runner ran: handled at the next start, and nothing handled again
    await change(db, 'item.cancelled', 7);
    const again = runner(db);
    const allAgain = recorder('all', ['item.started', 'item.cancelled']);
    again.on(allAgain);
    again.on(recorder('started', ['item.started']));
    await again.start();
    await again.idle();
    expect(allAgain.seen).toEqual((await idsOf(db, ['item.cancelled'])).slice(-1));
    await again.stop();
  });

  it('a reaction that handles a run of events at once gets the run in one call; a run that fails is taken again one event at a time', async () => {
    const db = await database(tempDir());
    const first = runner(db);
    first.on(recorder('runs', ['item.started']));
    await first.start();
    await first.stop();
    // committed while no runner ran: the next start finds them all in one batch
    for (let i = 1; i <= 5; i++) await change(db, 'item.started', i);
    await change(db, 'item.cancelled', 6);
    const runs: number[][] = [];
    let failRuns = 0;
    const batched = (fails: number): Reaction & { seen: number[] } => {
      failRuns = fails;
      const one = recorder('runs', ['item.started']);
      return {
        ...one,
        async handleAll(events) {
          if (failRuns > 0) {
            failRuns -= 1;
            throw new Error('failing on purpose');
          }
          runs.push(events.map((e) => e.id));
        },
      };
    };
    const second = runner(db);
    const reaction = batched(0);
    second.on(reaction);
    await second.start();
    await second.idle();
    const started = await idsOf(db, ['item.started']);
    expect(runs).toEqual([started.slice(-5)]);
    expect(reaction.seen).toEqual([]);
    const cursor = await db.selectFrom('event_cursors').select('last_id').where('reaction', '=', 'runs').executeTakeFirstOrThrow();
    expect(Number(cursor.last_id)).toBe((await idsOf(db, ['item.cancelled'])).at(-1));
    await second.stop();

    // the run fails: each event is handled on its own, once, and the cursor passes them all
    for (let i = 7; i <= 9; i++) await change(db, 'item.started', i);
    runs.length = 0;
    const third = runner(db);
    const fallback = batched(1);
    third.on(fallback);
    await third.start();
    await third.idle();
    expect(runs).toEqual([]);
    expect(fallback.seen).toEqual((await idsOf(db, ['item.started'])).slice(-3));
    await third.stop();
  });

  it.runIf(onPostgres)('two runners on one PostgreSQL database handle each event once between them', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const [one, two] = [await database(dir), await database(dir)];
    const a = recorder('shared', ['item.started']);
    const b = recorder('shared', ['item.started']);
    const [ra, rb] = [runner(one), runner(two)];
    ra.on(a);
    rb.on(b);
    await ra.start();
    await rb.start();
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      writes.push(change(i % 2 ? one : two, 'item.started', i));
      ra.wake();
      rb.wake();
    }
    await Promise.all(writes);
    ra.wake();
    rb.wake();
    await Promise.all([ra.idle(), rb.idle()]);
    const handled = [...a.seen, ...b.seen].sort((x, y) => x - y);
    expect(handled).toEqual(await idsOf(one, ['item.started']));
    await ra.stop();
    await rb.stop();
  });
});

describe('a reaction after a SIGKILL between the commit and the reaction', () => {
  it('runs exactly once after the restart: the automatic points of a scan are paid once', { timeout: 240_000 }, async () => {
    const dataDir = tempDir();
    const setup = await startTestServer({ dataDir });
    const admin = await signedIn(setup, 'admin');
    const governorId = 81_000_001;
    const player = await register(setup, { ...newAccount('evt'), playerid: String(governorId) });
    await login(setup, player.email);
    await importScan(setup, admin.token, Date.UTC(2026, 4, 1), [{ id: governorId, t5Kills: 0 }]);
    const created = await call(setup, 'POST', '/points/rules', { token: admin.token, body: { name: 'T5 events', stat: 't5Kills', per: 10, points: 1, auto: true } });
    expect(created.status, created.text).toBe(200);
    await setup.close();

    // the scan commits, its reactions are held: then the process is killed
    const url = (await databaseUrlFor(dataDir)) ?? '';
    const first = await spawnServer(dataDir, { DATABASE_URL: url, REACTIONS_PAUSED: '1' }, START_MS);
    children.push(first);
    const token = await login(first, admin.email);
    const scan = await importScan(first, token, Date.UTC(2026, 4, 2), [{ id: governorId, t5Kills: 100 }]);
    await killed(first, 'SIGKILL');

    const db = await database(dataDir);
    const event = await db.selectFrom('events').selectAll().where('kind', '=', 'scan.applied').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(event.data)).toMatchObject({ scanId: scan.id, source: 'upload' });
    const runs = () => db.selectFrom('points_runs').select('id').where('to_scan_id', '=', scan.id).execute();
    expect(await runs()).toHaveLength(0);

    const env = { DATABASE_URL: url, LOG_LEVEL: 'info' };
    const handledLine = `"reaction":"automatic-points","event":${event.id}`;
    const second = await spawnServer(dataDir, env, START_MS);
    children.push(second);
    await second.printed(handledLine, START_MS);
    expect(await runs()).toHaveLength(1);
    const balance = async () => (await db.selectFrom('users').select('balance').where('username', '=', player.username).executeTakeFirstOrThrow()).balance;
    expect(await balance()).toBe(10);
    await killed(second, 'SIGKILL');

    // and never again: a third start finds the cursor past it
    const third = await spawnServer(dataDir, env, START_MS);
    children.push(third);
    // a later scan's reaction runs after any earlier event's would have (one cursor, in id order)
    const later = await importScan(third, await login(third, admin.email), Date.UTC(2026, 4, 3), [{ id: governorId, t5Kills: 200 }]);
    const laterEvent = await db.selectFrom('events').select('id').where('kind', '=', 'scan.applied').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await third.printed(`"reaction":"automatic-points","event":${laterEvent.id}`, START_MS);
    expect((await db.selectFrom('points_runs').select('id').where('to_scan_id', '=', later.id).execute())).toHaveLength(1);
    expect(await runs()).toHaveLength(1);
    expect(await balance()).toBe(20);
    const cursor = await db.selectFrom('event_cursors').select('last_id').where('reaction', '=', 'automatic-points').executeTakeFirstOrThrow();
    expect(Number(cursor.last_id)).toBeGreaterThanOrEqual(Number(event.id));
    expect(third.output()).not.toContain(handledLine);
    await killed(third, 'SIGTERM');
  });
});
