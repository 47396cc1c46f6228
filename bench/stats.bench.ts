/**
 * npm run bench:stats — the statistics' queries on seeded data: 5,000
 * governors × 100 scans in a real SQLite file (as the server opens it), every dashboard query's p95
 * beside a plain `SELECT count(*)` over the same table, and a 5,000-row XLSX previewed and applied.
 * Seeded, so two runs see the same data. Prints a table and writes bench/results-stats.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import writeXlsxFile from 'write-excel-file/node';
import { STATS, type Stat } from '../src/protocol/scans';
import { openDatabase, type Db } from '../server/db/open';
import { writeTransaction } from '../server/db/write';
import { listAlliances, metricSeries } from '../server/scans/directory';
import { PreviewStore } from '../server/previews/store';
import { scanFileOf } from '../server/scans/read';
import { writeAggregates } from '../server/scans/scans';
import { ScanImports } from '../server/scans/imports';
import { governorDetail, kingdomSummary, listGovernors } from '../server/scans/kingdom-view';
import { createSeason } from '../server/kvk/seasons';
import { clearStandingsCache, myStandings, seasonStandings } from '../server/kvk/standings';
import { STANDING_SORTS } from '../src/protocol/kvk';
import { nowMs } from './common';
import { benchMigrantsAndPoints } from './stats-migrants-points';

const GOVERNORS = Number(process.env.BENCH_GOVERNORS ?? 5_000);
const SCANS = Number(process.env.BENCH_SCANS ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const TARGET_P95_MS = 50;
/**
 * BENCH_ONLY=kvk,migrants runs only those parts (after the same seeding): `scans` (the
 * queries), `kvk`, `import` (the XLSX), `migrants`, `points` (the automatic points run). All by default.
 */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'scans,kvk,import,migrants,points').split(',').map((p) => p.trim()));
const part = (name: string) => ONLY.has(name);

/** mulberry32: a small seeded generator, so every run seeds the same kingdom. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(3328);
const int = (max: number) => Math.floor(random() * max);

interface Gov {
  id: number;
  name: string;
  alliance: string;
  power: number;
  t: [number, number, number, number, number];
  deads: number;
  helps: number;
  rss: number;
}
const ALLIANCES = Array.from({ length: 24 }, (_, i) => `A${i.toString(36).toUpperCase()}${i % 3 ? 'x' : ''}`);
function newGov(id: number): Gov {
  return {
    id,
    name: `Governor ${id}`,
    alliance: ALLIANCES[int(ALLIANCES.length)],
    power: 5_000_000 + int(150_000_000),
    t: [int(1e6), int(5e5), int(2e6), int(3e7), int(8e6)],
    deads: int(5e6),
    helps: int(1e5),
    rss: int(2e9),
  };
}

async function seed(db: Db): Promise<void> {
  let nextId = 10_000_000;
  let govs = Array.from({ length: GOVERNORS }, () => newGov(nextId++));
  const start = Date.UTC(2024, 0, 1);
  for (let s = 0; s < SCANS; s++) {
    // a few leave and arrive each week; the rest grow
    govs = govs.map((g) => (random() < 0.01 ? newGov(nextId++) : g));
    for (const g of govs) {
      g.power += int(2_000_000) - 500_000;
      g.t = g.t.map((k, i) => k + int([5000, 2000, 20000, 200000, 50000][i])) as Gov['t'];
      g.deads += int(30_000);
      g.helps += int(500);
      g.rss += int(20_000_000);
      if (random() < 0.005) g.alliance = ALLIANCES[int(ALLIANCES.length)];
    }
    await writeTransaction(db, async (trx) => {
      const { id } = await trx
        .insertInto('scans')
        .values({ taken_at: start + s * 7 * 86_400_000, kind: 'kingdom', rows: govs.length, file_name: `seed-${s}.csv`, sha256: `seed-${s}`, source: 'upload', uploaded_by: null, created_at: Date.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (let at = 0; at < govs.length; at += 500) {
        await trx
          .insertInto('scan_rows')
          .values(
            govs.slice(at, at + 500).map((g) => ({
              scan_id: id,
              governor_id: g.id,
              name: g.name,
              alliance: g.alliance,
              kingdom: 3328,
              power: g.power,
              killpoints: Math.floor(g.t[0] * 0.2) + g.t[1] * 2 + g.t[2] * 4 + g.t[3] * 10 + g.t[4] * 20,
              deads: g.deads,
              t1_kills: g.t[0],
              t2_kills: g.t[1],
              t3_kills: g.t[2],
              t4_kills: g.t[3],
              t5_kills: g.t[4],
              total_kills: g.t.reduce((a, b) => a + b, 0),
              t45_kills: g.t[3] + g.t[4],
              ranged: int(1e6),
              rss_gathered: g.rss * 3,
              rss_assistance: g.rss,
              helps: g.helps,
              acclaim: null,
              highest_acclaim: null,
            })),
          )
          .execute();
      }
      await writeAggregates(trx, id);
    });
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function time(label: string, run: (i: number) => Promise<unknown>): Promise<{ label: string; p50: number; p95: number; max: number }> {
  await run(0); // warm the statement cache and the page cache
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = nowMs();
    await run(i);
    times.push(nowMs() - t0);
  }
  times.sort((a, b) => a - b);
  return { label, p50: percentile(times, 50), p95: percentile(times, 95), max: times[times.length - 1] };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-bench-stats-'));
  const db = await openDatabase(dir);
  try {
    const seedStart = nowMs();
    await seed(db);
    console.log(`seeded ${GOVERNORS.toLocaleString('en')} governors × ${SCANS} scans in ${((nowMs() - seedStart) / 1000).toFixed(1)} s`);
    const scans = (await db.selectFrom('scans').select('id').orderBy('taken_at').execute()).map((s) => s.id);
    const latest = scans[scans.length - 1];
    const previous = scans[scans.length - 2];
    const govIds = (await db.selectFrom('scan_rows').select('governor_id').where('scan_id', '=', latest).execute()).map((r) => r.governor_id);
    const pick = <T>(list: T[], i: number) => list[(i * 7919) % list.length];
    const sorts: ('governorId' | 'name' | 'alliance' | Stat)[] = ['governorId', 'name', 'alliance', ...STATS];

    const results = [
      await time('baseline: SELECT count(*) FROM scan_rows', () => sql`select count(*) from scan_rows`.execute(db)),
    ];
    if (part('scans'))
      results.push(
        await time('kingdom summary with change (latest vs previous)', () => kingdomSummary(db)),
        await time('summary of any scan vs any scan', (i) => kingdomSummary(db, pick(scans, i), pick(scans, i + 3))),
        await time('top 10 by power', () => listGovernors(db, { sort: 'power', pageSize: 10 })),
        await time('top 10 by kill points', () => listGovernors(db, { sort: 'killpoints', pageSize: 10 })),
        await time('top 10 by deads', () => listGovernors(db, { sort: 'deads', pageSize: 10 })),
        await time('top 10 gains in kill points (latest vs previous)', () => listGovernors(db, { compare: previous, sort: 'killpoints', gain: true, pageSize: 10 })),
        await time('governors table: page 100 rows, any column, any order', (i) => listGovernors(db, { sort: sorts[i % sorts.length], order: i % 2 ? 'asc' : 'desc', page: 1 + (i % 50), pageSize: 100 })),
        await time('governors table: name search', (i) => listGovernors(db, { q: String(100 + (i % 800)), pageSize: 100 })),
        await time('two-scan compare: page of 100 with changes', (i) => listGovernors(db, { scan: pick(scans, i), compare: pick(scans, i + 11), sort: 'power', page: 1 + (i % 50), pageSize: 100 })),
        await time("one governor's history (100 scans)", (i) => governorDetail(db, pick(govIds, i))),
        await time('alliance totals of a scan', (i) => listAlliances(db, pick(scans, i))),
        await time('metrics series: kingdom, 4 stats', () => metricSeries(db, 'kingdom', undefined, ['power', 'killpoints', 'deads', 't5Kills'])),
        await time('metrics series: an alliance, 4 stats', (i) => metricSeries(db, 'alliance', ALLIANCES[i % ALLIANCES.length], ['power', 'killpoints', 'deads', 't5Kills'])),
        await time('metrics series: a governor, 4 stats', (i) => metricSeries(db, 'governor', String(pick(govIds, i)), ['power', 'killpoints', 'deads', 't5Kills'])),
      );

    // KvK: a running season over the last 10 scans (the latest stands in for its end), 5 brackets, one window
    const { id: kvkAdmin } = await db
      .insertInto('users')
      .values({ email: 'kvk@stats.test', username: 'kvk', playerid: String(govIds[0]), password_hash: 'x', rank: 'admin', created_at: Date.now() })
      .returningAll()
      .executeTakeFirstOrThrow();
    const season = await createSeason(
      db,
      {
        name: 'KvK bench',
        startScanId: scans[scans.length - 10],
        weights: { t4Kills: 4, t5Kills: 10, deads: 15 },
        brackets: [0, 30e6, 60e6, 90e6, 120e6].map((minPower, i) => ({ minPower, kills: 500_000 * (i + 1), deads: 50_000 * (i + 1) })),
        windows: [{ name: 'Pass 4', fromScanId: scans[scans.length - 8], toScanId: scans[scans.length - 4] }],
      },
      { id: kvkAdmin, name: 'kvk' },
      Date.now(),
    );
    if (part('kvk'))
      results.push(
        await time('KvK standings, computed from the database (cold: no cache at all)', (i) => {
          clearStandingsCache(db, true);
          return seasonStandings(db, season.id, { sort: STANDING_SORTS[i % STANDING_SORTS.length] }, 'admin');
        }),
        await time('KvK standings recomputed after a mark (scan rows cached)', (i) => {
          clearStandingsCache(db);
          return seasonStandings(db, season.id, { sort: STANDING_SORTS[i % STANDING_SORTS.length] }, 'admin');
        }),
        await time('KvK standings: page of 100, any sort and order', (i) => seasonStandings(db, season.id, { sort: STANDING_SORTS[i % STANDING_SORTS.length], order: i % 2 ? 'asc' : 'desc', page: 1 + (i % 50) }, 'admin')),
        await time('KvK standings: filtered by alliance, name or status', (i) =>
          seasonStandings(db, season.id, [{ alliance: ALLIANCES[i % ALLIANCES.length] }, { q: String(100 + (i % 800)) }, { status: 'met' as const }][i % 3], 'admin'),
        ),
        await time('KvK standings of a window (cold: no cache at all)', () => {
          clearStandingsCache(db, true);
          return seasonStandings(db, season.id, { window: 'Pass 4', sort: 'dkp' }, 'admin');
        }),
        await time('KvK alliance totals (with a page of standings)', async () => (await seasonStandings(db, season.id, { pageSize: 1 }, 'admin')).alliances),
        await time("KvK a player's own progress (kvk/me)", () => myStandings(db, [govIds[0]])),
      );
  
    const { id: adminId } = await db
      .insertInto('users')
      .values({ email: 'bench@stats.test', username: 'bench', playerid: '1', password_hash: 'x', rank: 'admin', created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    // a 5,000-row XLSX from RokTracker, read, previewed and applied
    const header = ['ID', 'Name', 'Power', 'Killpoints', 'Deads', 'T1 Kills', 'T2 Kills', 'T3 Kills', 'T4 Kills', 'T5 Kills', 'Total Kills', 'T45 Kills', 'Ranged', 'Rss Gathered', 'Rss Assistance', 'Helps', 'Alliance'];
    const latestRows = await db.selectFrom('scan_rows').selectAll().where('scan_id', '=', latest).execute();
    let imported: { rows: number; bytes: number; previewMs: number; applyMs: number } | null = null;
    if (part('import')) {
      const data = [
        header.map((value) => ({ value })),
        ...latestRows.map((r) =>
          [r.governor_id, r.name, (r.power ?? 0) + 1000, r.killpoints, r.deads, r.t1_kills, r.t2_kills, r.t3_kills, r.t4_kills, r.t5_kills, r.total_kills, r.t45_kills, r.ranged, r.rss_gathered, r.rss_assistance, r.helps, r.alliance].map((value) => ({ value })),
        ),
      ];
      const bytes = await writeXlsxFile([{ data, sheet: '2026-01-01' }] as never).toBuffer();
      const imports = new ScanImports(db, Date.now, new PreviewStore(db, Date.now));
      const t0 = nowMs();
      const file = await scanFileOf(bytes);
      const preview = await imports.preview({ file, fileName: 'TOP5000-2026-01-01-3328.xlsx', takenAt: null, actorId: adminId });
      const t1 = nowMs();
      await imports.apply(adminId, preview.token, { takenAt: null, skipInvalid: false });
      const t2 = nowMs();
      imported = { rows: latestRows.length, bytes: bytes.length, previewMs: t1 - t0, applyMs: t2 - t1 };
    }

    // migrants and an automatic points run (after the import: the run pays the imported scan's gains)
    const scansNow = (await db.selectFrom('scans').select('id').orderBy('taken_at').orderBy('id').execute()).map((s) => s.id);
    const issue13 = await benchMigrantsAndPoints(db, time, scansNow, { migrants: part('migrants'), points: part('points') });
    results.push(...issue13.queries);

    const baseline = results[0].p95;
    console.log(`\n${'query'.padEnd(58)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'max ms'.padStart(8)} ${'p95 ÷ count(*)'.padStart(15)}  target p95 < ${TARGET_P95_MS} ms`);
    for (const r of results) {
      const ok = r === results[0] ? '' : r.p95 < TARGET_P95_MS ? 'met' : 'MISSED';
      console.log(`${r.label.padEnd(58)} ${r.p50.toFixed(2).padStart(8)} ${r.p95.toFixed(2).padStart(8)} ${r.max.toFixed(2).padStart(8)} ${(r.p95 / baseline).toFixed(2).padStart(14)}×  ${ok}`);
    }
    if (imported) {
      const importMs = imported.previewMs + imported.applyMs;
      console.log(`\nimport of a ${imported.rows.toLocaleString('en')}-row XLSX (${(imported.bytes / 1024).toFixed(0)} KB): read + preview ${imported.previewMs.toFixed(0)} ms, apply ${imported.applyMs.toFixed(0)} ms, total ${importMs.toFixed(0)} ms (target < 3000 ms: ${importMs < 3000 ? 'met' : 'MISSED'})`);
    }
    const { run } = issue13;
    if (run.seriesMs !== null) console.log(`migrant series over ${scansNow.length} scans (first call, then cached): ${run.seriesMs.toFixed(0)} ms`);
    if (run.previewMs !== null && run.applyMs !== null)
      console.log(
        `automatic points run over ${run.governors.toLocaleString('en')} governors (${run.entries.toLocaleString('en')} entries): preview ${run.previewMs.toFixed(0)} ms (target < 200 ms: ${run.previewMs < 200 ? 'met' : 'MISSED'}), apply ${run.applyMs.toFixed(0)} ms (target < 1000 ms: ${run.applyMs < 1000 ? 'met' : 'MISSED'})`,
      );
    // a partial run (BENCH_ONLY) leaves the full run's figures alone
    fs.writeFileSync(
      path.join(import.meta.dirname, process.env.BENCH_ONLY ? 'results-stats-partial.json' : 'results-stats.json'),
      JSON.stringify({ governors: GOVERNORS, scans: SCANS, runs: RUNS, only: [...ONLY], queries: results, import: imported, automaticPoints: issue13.run }, null, 2),
    );
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
