import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/open';
import { openTestDatabase } from './test-database';
import { diffScans } from '../../server/scans/migrants';

/**
 * The migrant diff counts and sums every migrant while handing back only the largest (at most
 * MIGRANTS_MAX_LIST, as between two scans far apart): its figures must not depend on where the list
 * is cut, nor on there being no list at all (the series). A small limit cuts the list here.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-migrants-diff-'));
let db: Db;
let earlier: number;
let later: number;

interface Row {
  id: number;
  power: number | null;
  kingdom?: number | null;
}

async function scan(takenAt: number, rows: Row[]): Promise<number> {
  const { id } = await db
    .insertInto('scans')
    .values({ taken_at: takenAt, kind: 'kingdom', rows: rows.length, file_name: `s${takenAt}.csv`, sha256: `s${takenAt}`, source: 'upload', uploaded_by: null, created_at: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('scan_rows')
    .values(rows.map((r) => ({ scan_id: id, governor_id: r.id, name: `G${r.id}`, alliance: `A${r.id % 3}`, kingdom: r.kingdom === undefined ? 3328 : r.kingdom, power: r.power })))
    .execute();
  return id;
}

beforeAll(async () => {
  db = await openTestDatabase(dir);
  earlier = await scan(1, [
    { id: 1, power: 100 },
    { id: 2, power: 90 }, // stays
    { id: 3, power: 80, kingdom: 3328 }, // in another kingdom later: kingdom-changed
    { id: 4, power: 70 }, // gone above the cutoff: unknown
    { id: 5, power: 5 }, // gone below the cutoff: below-cutoff
    { id: 6, power: 4 }, // below-cutoff
    { id: 7, power: null }, // gone, power unknown: unknown, listed last
    { id: 8, power: 60, kingdom: null }, // no kingdom column: a member; gone: unknown
  ]);
  later = await scan(2, [
    { id: 1, power: 101 },
    { id: 2, power: 91 },
    { id: 3, power: 81, kingdom: 9999 },
    { id: 10, power: 50 }, // arrivals…
    { id: 11, power: 50 },
    { id: 12, power: 20 },
    { id: 13, power: null },
    { id: 14, power: 10, kingdom: null },
  ]);
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the migrant diff, its list cut or whole', () => {
  it('counts, sums and reasons are the same whether the list holds every migrant, was cut or is not asked for', async () => {
    const whole = await diffScans(db, earlier, later, 3328);
    expect(whole.arrived.map((m) => m.governorId)).toEqual([10, 11, 12, 14, 13]);
    expect(whole.left.map((m) => [m.governorId, m.reason])).toEqual([
      [3, 'kingdom-changed'],
      [4, 'unknown'],
      [8, 'unknown'],
      [5, 'below-cutoff'],
      [6, 'below-cutoff'],
      [7, 'unknown'],
    ]);
    expect(whole.counts).toEqual({ arrived: 5, left: 6 });
    expect(whole.powerIn).toBe(130);
    expect(whole.powerOut).toBe(80 + 70 + 60 + 5 + 4);
    expect(whole.reasons).toEqual({ 'kingdom-changed': 1, 'below-cutoff': 2, unknown: 3 });
    for (const limit of [1, 2, 5]) {
      const cut = await diffScans(db, earlier, later, 3328, limit);
      expect(cut.arrived).toEqual(whole.arrived.slice(0, limit));
      expect(cut.left).toEqual(whole.left.slice(0, limit));
      expect({ ...cut, arrived: [], left: [] }).toEqual({ ...whole, arrived: [], left: [] });
    }
    // the series asks for no list at all
    const counted = await diffScans(db, earlier, later, 3328, 0);
    expect({ ...counted, arrived: [], left: [] }).toEqual({ ...whole, arrived: [], left: [] });
    expect(counted.arrived).toEqual([]);
  });

  it('no migrant at all: zero counts and sums, however the list is capped', async () => {
    const same = await scan(3, [
      { id: 1, power: 1 },
      { id: 2, power: 2 },
      { id: 3, power: 3, kingdom: 9999 },
      { id: 10, power: 4 },
      { id: 11, power: 5 },
      { id: 12, power: 6 },
      { id: 13, power: 7 },
      { id: 14, power: 8 },
    ]);
    for (const limit of [0, 1, 1000]) {
      expect(await diffScans(db, later, same, 3328, limit)).toEqual({
        arrived: [],
        left: [],
        counts: { arrived: 0, left: 0 },
        powerIn: 0,
        powerOut: 0,
        reasons: { 'kingdom-changed': 0, 'below-cutoff': 0, unknown: 0 },
      });
    }
  });
});
