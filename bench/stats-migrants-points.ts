/**
 * Part of `npm run bench:stats`: on the seeded 5,000 governors × 100 scans,
 * a migrant diff between any two scans (p95 < 50 ms), and an automatic points run over 5,000
 * governors, each linked to its own account: previewed (< 200 ms) and applied (< 1 s).
 */
import { migrants, migrantSeries } from '../server/scans/migrants';
import type { Db } from '../server/db/open';
import { writeTransaction } from '../server/db/write';
import { bookRun, createRule, planRun } from '../server/points/automatic';
import { findScan } from '../server/scans/scans';
import { nowMs } from './common';

type Timed = { label: string; p50: number; p95: number; max: number };
type Time = (label: string, run: (i: number) => Promise<unknown>) => Promise<Timed>;

type Run = { governors: number; previewMs: number | null; applyMs: number | null; entries: number; seriesMs: number | null };

export async function benchMigrantsAndPoints(db: Db, time: Time, scans: number[], parts = { migrants: true, points: true }): Promise<{ queries: Timed[]; run: Run }> {
  const pick = (i: number) => scans[(i * 7919) % scans.length];
  const queries: Timed[] = [];
  let seriesMs: number | null = null;
  if (parts.migrants) {
    queries.push(
      await time('migrant diff: latest vs the scan before (default)', () => migrants(db, {})),
      await time('migrant diff: any two scans', (i) => {
        const [a, b] = [pick(i), pick(i + 13)].sort((x, y) => scans.indexOf(x) - scans.indexOf(y));
        return a === b ? migrants(db, { to: b }) : migrants(db, { from: a, to: b });
      }),
    );
    const s0 = nowMs();
    await migrantSeries(db);
    seriesMs = nowMs() - s0;
  }
  if (!parts.points) return { queries, run: { governors: 0, previewMs: null, applyMs: null, entries: 0, seriesMs } };

  // every governor of two seeded scans (the imported one repeats its kill points) linked to an account of its own, as sign-up claims are
  const latest = scans[scans.length - 2];
  const previous = scans[scans.length - 3];
  // (a governor another part of the bench already gave an account, the KvK part's player, keeps it)
  const claimed = new Set((await db.selectFrom('users').select('playerid').execute()).map((u) => u.playerid));
  const governors = (await db.selectFrom('scan_rows').select('governor_id').where('scan_id', '=', latest).execute())
    .map((r) => r.governor_id)
    .filter((g) => !claimed.has(String(g)));
  await writeTransaction(db, async (trx) => {
    for (let at = 0; at < governors.length; at += 500) {
      const chunk = governors.slice(at, at + 500);
      const users = await trx
        .insertInto('users')
        .values(chunk.map((g) => ({ email: `g${g}@bench.test`, username: `gov${g}`, playerid: String(g), password_hash: 'x', created_at: 1 })))
        .returning(['id', 'playerid'])
        .execute();
      await trx
        .insertInto('governor_links')
        .values(users.map((u) => ({ governor_id: Number(u.playerid), user_id: u.id, verified: 1, created_at: 1 })))
        .execute();
    }
  });
  const actor = await db.selectFrom('users').select(['id', 'username']).where('username', '=', 'bench').executeTakeFirstOrThrow();
  const rule = await createRule(db, { name: 'Kill points', stat: 'killpoints', per: 100_000, points: 1, cap: 5_000 }, { id: actor.id, name: actor.username }, Date.now());
  const [from, to] = await Promise.all([findScan(db, previous), findScan(db, latest)]);
  const p0 = nowMs();
  const plan = await planRun(db, rule, from, to);
  const previewMs = nowMs() - p0;
  const a0 = nowMs();
  const { run } = await bookRun(db, plan, { id: actor.id, name: actor.username }, false, Date.now());
  const applyMs = nowMs() - a0;
  return { queries, run: { governors: governors.length, previewMs, applyMs, entries: run.entries, seriesMs } };
}
