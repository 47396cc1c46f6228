import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRANT_ERRORS, migrantsAnswer, type Leaver, type Migrant } from '../../src/protocol/migrants';
import { call, leadershipServer, signedIn } from './helpers';
import { importScan, type FileGovernor } from './scan-files';

let server: Awaited<ReturnType<typeof leadershipServer>>['server'];
let admin: Awaited<ReturnType<typeof leadershipServer>>['admin'];
let council: Awaited<ReturnType<typeof leadershipServer>>['council'];

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer());
});
afterAll(() => server.close());

const day = (d: number) => Date.UTC(2026, 0, d);
const K = 3328;
const gov = (id: number, power: number, over: Partial<FileGovernor> = {}): FileGovernor => ({ id, name: `G${id}`, alliance: 'ABC', kingdom: K, power, killpoints: 1000, ...over });

describe('migrants between two scans', () => {
  // uploaded out of order: the latest-taken first, so "the last two" by upload order would be wrong
  let first: { id: number };
  let second: { id: number };
  let third: { id: number };
  beforeAll(async () => {
    third = await importScan(server, admin.token, day(15), [
      gov(1, 100_000_000), // stayed
      gov(6, 90_000_000), // stayed
      gov(3, 80_000_000, { kingdom: 9999 }), // scanned in another kingdom: left, kingdom-changed
      gov(5, 30_000_000, { alliance: 'NEW', name: 'Newcomer' }), // arrived
      gov(7, 10_000_000), // the later scan's lowest power
    ]);
    first = await importScan(server, admin.token, day(1), [gov(1, 95_000_000), gov(6, 85_000_000)]);
    second = await importScan(server, admin.token, day(8), [
      gov(1, 99_000_000),
      gov(6, 88_000_000),
      gov(2, 5_000_000, { alliance: 'LOW' }), // below the later scan's lowest power: below-cutoff
      gov(3, 79_000_000),
      gov(4, 60_000_000, { alliance: 'XYZ' }), // gone with a power above the cutoff: unknown
      gov(7, 9_000_000),
    ]);
  });

  it('by default compares the last two scans by when they were taken, not by upload order', async () => {
    const answer = await call(server, 'GET', '/migrants', { token: council.token });
    expect(answer.status, answer.text).toBe(200);
    expect(migrantsAnswer.safeParse(answer.body).success).toBe(true);
    expect((answer.body.from as { id: number }).id).toBe(second.id);
    expect((answer.body.to as { id: number }).id).toBe(third.id);
  });

  it('lists who arrived and who left, each reason, counts and power in and out', async () => {
    const answer = await call(server, 'GET', `/migrants?from=${second.id}&to=${third.id}`, { token: admin.token });
    expect(answer.status, answer.text).toBe(200);
    const arrived = answer.body.arrived as Migrant[];
    const left = answer.body.left as Leaver[];
    expect(arrived).toEqual([{ governorId: 5, name: 'Newcomer', alliance: 'NEW', power: 30_000_000, kingdom: K }]);
    // the largest first
    expect(left.map((l) => [l.governorId, l.reason])).toEqual([
      [3, 'kingdom-changed'],
      [4, 'unknown'],
      [2, 'below-cutoff'],
    ]);
    // a kingdom change shows where they went; the others the kingdom they were seen in
    expect(left[0]).toMatchObject({ name: 'G3', alliance: 'ABC', power: 79_000_000, kingdom: 9999 });
    expect(left[1]).toMatchObject({ kingdom: K });
    expect(answer.body.counts).toEqual({ arrived: 1, left: 3 });
    expect(answer.body.power).toEqual({ arrived: 30_000_000, left: 79_000_000 + 60_000_000 + 5_000_000 });
    expect(answer.body.reasons).toEqual({ 'kingdom-changed': 1, 'below-cutoff': 1, unknown: 1 });
  });

  it('compares any two scans; the earlier must come first and differ', async () => {
    const wide = await call(server, 'GET', `/migrants?from=${first.id}&to=${third.id}`, { token: council.token });
    expect((wide.body.arrived as Migrant[]).map((m) => m.governorId).sort()).toEqual([5, 7]);
    expect(wide.body.left).toEqual([]);
    // only `to`: compared with the scan taken before it
    const onlyTo = await call(server, 'GET', `/migrants?to=${second.id}`, { token: council.token });
    expect((onlyTo.body.from as { id: number }).id).toBe(first.id);
    expect((onlyTo.body.arrived as Migrant[]).map((m) => m.governorId)).toEqual([3, 4, 7, 2]);

    const backwards = await call(server, 'GET', `/migrants?from=${third.id}&to=${first.id}`, { token: council.token });
    expect(backwards).toMatchObject({ status: 400, body: { result: false, error: MIGRANT_ERRORS.fromAfterTo } });
    const same = await call(server, 'GET', `/migrants?from=${first.id}&to=${first.id}`, { token: council.token });
    expect(same).toMatchObject({ status: 400, body: { error: MIGRANT_ERRORS.sameScan } });
    const bad = await call(server, 'GET', '/migrants?from=abc', { token: council.token });
    expect(bad).toMatchObject({ status: 400, body: { error: MIGRANT_ERRORS.badScanId } });
    expect((await call(server, 'GET', '/migrants?from=99999', { token: council.token })).status).toBe(404);
  });

  it('charts arrivals and departures of every scan against the one before it', async () => {
    const answer = await call(server, 'GET', '/migrants/series', { token: council.token });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.points).toEqual([
      { scanId: second.id, previousScanId: first.id, takenAt: day(8), arrived: 4, left: 0, powerIn: 79_000_000 + 60_000_000 + 9_000_000 + 5_000_000, powerOut: 0 },
      { scanId: third.id, previousScanId: second.id, takenAt: day(15), arrived: 1, left: 3, powerIn: 30_000_000, powerOut: 144_000_000 },
    ]);
  });

  it('is for council and admin only', async () => {
    const player = await signedIn(server);
    expect((await call(server, 'GET', '/migrants', { token: player.token })).status).toBe(403);
    expect((await call(server, 'GET', '/migrants/series', { token: player.token })).status).toBe(403);
    expect((await call(server, 'GET', '/migrants')).status).toBe(401);
  });
});
