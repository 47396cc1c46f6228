import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KVK_ERRORS, standingsAnswer, type Season, type Standing, type StandingsAnswer } from '../../src/protocol/kvk';
import { killpointsFromTiers } from '../../src/protocol/scan-file';
import { csvRecords, upload } from './back-office-helpers';
import { call, leadershipServer, login, newAccount, register, signedIn } from './helpers';

let server: Awaited<ReturnType<typeof leadershipServer>>['server'];
let admin: Awaited<ReturnType<typeof leadershipServer>>['admin'];
let council: Awaited<ReturnType<typeof leadershipServer>>['council'];
let now = Date.UTC(2026, 1, 1, 12);

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer({ now: () => (now += 1) }));
});
afterAll(() => server.close());

const HEADER = 'ID,Name,Power,Killpoints,Deads,T1 Kills,T2 Kills,T3 Kills,T4 Kills,T5 Kills,Alliance';
interface Gov {
  id: number;
  name: string;
  alliance: string;
  power: number;
  t4: number;
  t5: number;
  deads: number;
}
const csv = (govs: Gov[]) =>
  [HEADER, ...govs.map((g) => [g.id, g.name, g.power, killpointsFromTiers({ t1Kills: 0, t2Kills: 0, t3Kills: 0, t4Kills: g.t4, t5Kills: g.t5 }), g.deads, 0, 0, 0, g.t4, g.t5, g.alliance].join(','))].join('\n') + '\n';

async function importScan(govs: Gov[], day: string): Promise<number> {
  const fileName = `TOP300-${day}-3328-[kvk${govs[0].id}].csv`;
  const answer = await upload(server, '/scans/preview', admin.token, csv(govs), fileName, 'text/csv');
  expect(answer.status, answer.text).toBe(200);
  const applied = await call(server, 'POST', '/scans/apply', { token: admin.token, body: { token: (answer.body.preview as { token: string }).token } });
  expect(applied.status, applied.text).toBe(200);
  return (applied.body.scan as { id: number }).id;
}

const BASE = 70_000_000;
const id = (n: number) => BASE + n;
const g = (n: number, over: Partial<Gov>): Gov => ({ id: id(n), name: `Gov${n}`, alliance: 'K1', power: 50_000_000, t4: 100_000, t5: 20_000, deads: 50_000, ...over });

// the start scan: seven governors; G1 and G2 in the 80M bracket (G2 exactly on its edge), G3 one below it
const START: Gov[] = [
  g(1, { name: 'Aurelia', power: 100_000_000 }),
  g(2, { name: 'Borin', power: 80_000_000, alliance: 'K2' }),
  g(3, { name: 'Cato', power: 79_999_999, alliance: 'K2' }),
  g(4, { name: 'Dara', power: 10_000_000 }),
  g(5, { name: 'Eske', power: 60_000_000 }),
  g(6, { name: 'Fenn', power: 40_000_000 }),
  g(7, { name: 'Gull', power: 35_000_000 }),
];
// a week later: G8 arrives
const MIDDLE: Gov[] = [...START.map((x) => ({ ...x, t4: x.t4 + 1000 })), g(8, { name: 'Hale', power: 30_000_000, t4: 5_000, t5: 1_000, deads: 100 })];
// the end: gains the tests compute by hand; G7 has left; G5 was zeroed (power 60M → 20M, deads +200,000)
const END: Gov[] = [
  { ...START[0], t4: START[0].t4 + 6_000, t5: START[0].t5 + 4_000, deads: START[0].deads + 2_500, power: 101_000_000 },
  { ...START[1], t4: START[1].t4 + 10_000, deads: START[1].deads + 5_000 },
  { ...START[2], t4: START[2].t4 + 2_000, deads: START[2].deads + 1_000 },
  { ...START[3] },
  { ...START[4], deads: START[4].deads + 200_000, power: 20_000_000 },
  { ...START[5], t4: START[5].t4 + 10 },
  g(8, { name: 'Hale', power: 31_000_000, t4: 9_000, t5: 2_000, deads: 400 }),
];

const WEIGHTS = { t4Kills: 4, t5Kills: 10, deads: 15 };
const BRACKETS = [
  { minPower: 30_000_000, kills: 2_000, deads: 1_000 },
  { minPower: 80_000_000, kills: 10_000, deads: 5_000 },
];

let startScan: number;
let middleScan: number;
let endScan: number;
let seasonId: number;

const standings = async (query = '', token = council.token) => {
  const answer = await call(server, 'GET', `/kvk/seasons/${seasonId}/standings${query}`, { token });
  expect(answer.status, answer.text).toBe(200);
  expect(standingsAnswer.safeParse(answer.body).success, answer.text).toBe(true);
  return answer.body as unknown as StandingsAnswer;
};
const row = (list: Standing[], n: number) => list.find((s) => s.governorId === id(n)) as Standing;
const auditActions = async () => (await server.db.selectFrom('audit_log').select(['action', 'target', 'detail']).where('action', 'like', 'season.%').orderBy('id').execute()).map((r) => r.action);
const seasonCount = async () => (await server.db.selectFrom('kvk_seasons').select('id').execute()).length;

describe('KvK seasons and standings', () => {
  beforeAll(async () => {
    startScan = await importScan(START, '2026-01-01');
    middleScan = await importScan(MIDDLE, '2026-01-08');
    endScan = await importScan(END, '2026-01-15');
  });

  it('an admin creates a running season (audited); council reads it; the latest scan stands in for its end', async () => {
    const created = await call(server, 'POST', '/kvk/seasons', {
      token: admin.token,
      body: { name: 'KvK 3', startScanId: startScan, weights: WEIGHTS, brackets: BRACKETS, windows: [{ name: 'Pass 4', fromScanId: startScan, toScanId: middleScan }] },
    });
    expect(created.status, created.text).toBe(200);
    const season = created.body.season as Season;
    seasonId = season.id;
    expect(season).toMatchObject({ name: 'KvK 3', startScanId: startScan, endScanId: null, running: true, endScan: { id: endScan }, weights: WEIGHTS, brackets: BRACKETS, marks: 0 });
    const list = await call(server, 'GET', '/kvk/seasons', { token: council.token });
    expect(list.status).toBe(200);
    expect((list.body.seasons as Season[]).map((s) => s.id)).toContain(seasonId);
    expect(await auditActions()).toEqual(['season.create']);
  });

  it('standings: gains, DKP, requirement by bracket (edges included), progress and status as computed by hand', async () => {
    const s = await standings('?pageSize=500');
    expect(s.from.id).toBe(startScan);
    expect(s.to?.id).toBe(endScan);
    expect(s.total).toBe(7);
    const all = s.standings;
    // G1, 100M: kills 6,000 + 4,000 = 10,000 of 10,000 (100%), deads 2,500 of 5,000 (50%): not met
    expect(row(all, 1)).toMatchObject({
      startPower: 100_000_000,
      power: 101_000_000,
      gains: { t4Kills: 6_000, t5Kills: 4_000, deads: 2_500, killpoints: 6_000 * 10 + 4_000 * 20, power: 1_000_000 },
      dkp: 6_000 * 4 + 4_000 * 10 + 2_500 * 15,
      required: { kills: 10_000, deads: 5_000 },
      progress: { kills: 100, deads: 50 },
      status: 'not-met',
      suggestedZeroed: false,
    });
    // G2 exactly 80M: the 80M bracket; met
    expect(row(all, 2)).toMatchObject({ required: { kills: 10_000, deads: 5_000 }, progress: { kills: 100, deads: 100 }, status: 'met', dkp: 10_000 * 4 + 5_000 * 15 });
    // G3 one below 80M: the 30M bracket; met there
    expect(row(all, 3)).toMatchObject({ required: { kills: 2_000, deads: 1_000 }, progress: { kills: 100, deads: 100 }, status: 'met', dkp: 2_000 * 4 + 1_000 * 15 });
    // G4 below the lowest bracket: no requirement
    expect(row(all, 4)).toMatchObject({ required: { kills: 0, deads: 0 }, progress: { kills: 100, deads: 100 }, status: 'met', dkp: 0 });
    // G5 zeroed: power fell 60M → 20M while deads rose 200,000: suggested, never marked by itself
    expect(row(all, 5)).toMatchObject({ status: 'not-met', suggestedZeroed: true, dkp: 200_000 * 15, progress: { kills: 0, deads: 100 }, gains: { power: -40_000_000 } });
    // G6: 10 kills of 2,000 → 0% (floored)
    expect(row(all, 6)).toMatchObject({ progress: { kills: 0, deads: 0 }, status: 'not-met' });
    // G7 left: not in the end scan, no gains
    expect(row(all, 7)).toMatchObject({ inEndScan: false, power: null, gains: { t4Kills: null, t5Kills: null, deads: null, killpoints: null, power: null }, dkp: 0, status: 'not-met' });
    expect(s.counts).toMatchObject({ governors: 7, met: 3, 'not-met': 4, exempt: 0, zeroed: 0, suggested: 1 });
    expect(s.suggested.map((x) => x.governorId)).toEqual([id(5)]);
    // G8 arrived after the start: listed apart, its gains since the first scan that saw it
    expect(all.map((x) => x.governorId)).not.toContain(id(8));
    expect(s.arrivals).toEqual([
      expect.objectContaining({ governorId: id(8), name: 'Hale', firstScan: expect.objectContaining({ id: middleScan }), firstPower: 30_000_000, power: 31_000_000, gains: expect.objectContaining({ t4Kills: 4_000, t5Kills: 1_000, deads: 300 }), dkp: 4_000 * 4 + 1_000 * 10 + 300 * 15 }),
    ]);
    // totals per alliance: K2 holds G2 and G3
    const k2 = s.alliances.find((a) => a.alliance === 'K2');
    expect(k2).toEqual({ alliance: 'K2', governors: 2, met: 2, startPower: 159_999_999, gains: { t4Kills: 12_000, t5Kills: 0, deads: 6_000, killpoints: 120_000, power: 0 }, dkp: 115_000 + 23_000 });
  });

  it('a window: gains between its two scans, same governors and brackets', async () => {
    const s = await standings('?window=Pass%204&pageSize=500');
    expect(s.window).toBe('Pass 4');
    expect(s.to?.id).toBe(middleScan);
    expect(row(s.standings, 1)).toMatchObject({ gains: { t4Kills: 1_000, t5Kills: 0, deads: 0 }, dkp: 4_000, progress: { kills: 10, deads: 0 } });
    expect(s.arrivals.map((a) => a.governorId)).toEqual([id(8)]);
    const unknown = await call(server, 'GET', `/kvk/seasons/${seasonId}/standings?window=Nope`, { token: council.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(KVK_ERRORS.unknownWindow);
  });

  it('sorts by any column, filters by alliance, name or id and status, pages', async () => {
    expect((await standings('?sort=dkp')).standings.map((x) => x.governorId).slice(0, 3)).toEqual([id(5), id(2), id(1)]);
    expect((await standings('?sort=name&order=desc')).standings[0].name).toBe('Gull');
    expect((await standings('?sort=startPower&order=asc')).standings[0].governorId).toBe(id(4));
    // nulls last whatever the order
    expect((await standings('?sort=power&order=asc')).standings.at(-1)?.governorId).toBe(id(7));
    expect((await standings('?sort=killsProgress&order=desc')).standings.slice(0, 3).map((x) => x.progress.kills)).toEqual([100, 100, 100]);
    expect((await standings('?alliance=K2')).standings.map((x) => x.governorId).sort()).toEqual([id(2), id(3)]);
    // any case; part of a tag finds every alliance containing it (K1 and K2 here)
    expect((await standings('?alliance=k2')).standings.map((x) => x.governorId).sort()).toEqual([id(2), id(3)]);
    expect((await standings('?alliance=k')).total).toBe((await standings('')).total);
    expect((await standings('?q=aur')).standings.map((x) => x.name)).toEqual(['Aurelia']);
    expect((await standings(`?q=${id(3)}`)).standings.map((x) => x.name)).toEqual(['Cato']);
    const met = await standings('?status=met');
    expect(met.total).toBe(3);
    const paged = await standings('?sort=governorId&pageSize=2&page=2');
    expect(paged.standings.map((x) => x.governorId)).toEqual([id(3), id(4)]);
    expect(paged.total).toBe(7);
    for (const bad of ['?sort=nope', '?status=done', '?order=up', '?page=0', '?pageSize=501']) {
      const answer = await call(server, 'GET', `/kvk/seasons/${seasonId}/standings${bad}`, { token: council.token });
      expect(answer.status, bad).toBe(400);
    }
  });

  it('zeroed and exempt: leadership marks (audited), the status follows, the suggestion goes; unmark restores', async () => {
    const marked = await call(server, 'PUT', `/kvk/seasons/${seasonId}/marks/${id(5)}`, { token: council.token, body: { mark: 'zeroed', reason: 'Zeroed by K1234 on day 40' } });
    expect(marked.status, marked.text).toBe(200);
    const exempt = await call(server, 'PUT', `/kvk/seasons/${seasonId}/marks/${id(6)}`, { token: admin.token, body: { mark: 'exempt', reason: 'On leave' } });
    expect(exempt.status, exempt.text).toBe(200);
    let s = await standings('?pageSize=500');
    expect(row(s.standings, 5)).toMatchObject({ status: 'zeroed', reason: 'Zeroed by K1234 on day 40', suggestedZeroed: false });
    expect(row(s.standings, 6)).toMatchObject({ status: 'exempt', reason: 'On leave' });
    expect(s.counts).toMatchObject({ met: 3, 'not-met': 2, exempt: 1, zeroed: 1, suggested: 0 });
    expect((await standings('?status=zeroed')).standings.map((x) => x.governorId)).toEqual([id(5)]);
    const marks = await call(server, 'GET', `/kvk/seasons/${seasonId}/marks`, { token: council.token });
    expect(marks.body.marks).toEqual(expect.arrayContaining([expect.objectContaining({ governorId: id(5), name: 'Eske', mark: 'zeroed', markedBy: council.username })]));

    // a governor not in the start scan, an empty reason, an unknown mark: refused, nothing changes
    for (const [gov, body, status] of [
      [id(8), { mark: 'zeroed', reason: 'x' }, 404],
      [id(1), { mark: 'zeroed', reason: '  ' }, 400],
      [id(1), { mark: 'gone', reason: 'x' }, 400],
    ] as const) {
      const answer = await call(server, 'PUT', `/kvk/seasons/${seasonId}/marks/${gov}`, { token: admin.token, body });
      expect(answer.status, answer.text).toBe(status);
    }
    const user = await signedIn(server, 'marker');
    expect((await call(server, 'PUT', `/kvk/seasons/${seasonId}/marks/${id(1)}`, { token: user.token, body: { mark: 'exempt', reason: 'x' } })).status).toBe(403);

    const unmarked = await call(server, 'DELETE', `/kvk/seasons/${seasonId}/marks/${id(6)}`, { token: council.token });
    expect(unmarked.status, unmarked.text).toBe(200);
    expect((await call(server, 'DELETE', `/kvk/seasons/${seasonId}/marks/${id(6)}`, { token: council.token })).status).toBe(404);
    s = await standings('?pageSize=500');
    expect(row(s.standings, 6)).toMatchObject({ status: 'not-met', reason: null });
    expect(await auditActions()).toEqual(['season.create', 'season.mark', 'season.mark', 'season.unmark']);
  });

  it('exports the standings as CSV in the table order, with the filters', async () => {
    const answer = await fetch(`${server.httpUrl}/kvk/seasons/${seasonId}/standings.csv?sort=dkp&alliance=K2`, { headers: { authorization: `Bearer ${council.token}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/csv');
    const records = csvRecords(await answer.text());
    expect(records[0].slice(0, 4)).toEqual(['Governor id', 'Governor', 'Alliance', 'Start power']);
    expect(records.slice(1).map((r) => r[1])).toEqual(['Borin', 'Cato']);
    expect(records[1][10]).toBe(String(115_000));

    // the same rows as XLSX: numbers as numbers
    const xlsx = await fetch(`${server.httpUrl}/kvk/seasons/${seasonId}/standings.xlsx?sort=dkp&alliance=K2`, { headers: { authorization: `Bearer ${council.token}` } });
    expect(xlsx.headers.get('content-disposition')).toBe(`attachment; filename="kvk-season-${seasonId}.xlsx"`);
    const sheet = await readSheet(Buffer.from(await xlsx.arrayBuffer()));
    expect(sheet[0]).toEqual(records[0]);
    expect(sheet.slice(1).map((r) => r[1])).toEqual(['Borin', 'Cato']);
    expect(sheet[1][10]).toBe(115_000);
  });

  it('bad input gets a clear error and changes nothing', async () => {
    const good = { name: 'KvK 4', startScanId: startScan, weights: WEIGHTS, brackets: BRACKETS };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, weights: { ...WEIGHTS, t4Kills: '4' } }, KVK_ERRORS.weights],
      [{ ...good, weights: { ...WEIGHTS, deads: -1 } }, KVK_ERRORS.weights],
      [{ ...good, weights: { t4Kills: 4, t5Kills: 10 } }, KVK_ERRORS.weights],
      [{ ...good, brackets: [BRACKETS[1], BRACKETS[0]] }, KVK_ERRORS.bracketsOrder],
      [{ ...good, brackets: [BRACKETS[0], { ...BRACKETS[1], minPower: BRACKETS[0].minPower }] }, KVK_ERRORS.bracketsOrder],
      [{ ...good, brackets: [] }, KVK_ERRORS.bracketsRequired],
      [{ ...good, brackets: [{ minPower: 0, kills: -5, deads: 0 }] }, KVK_ERRORS.bracketNumbers],
      [{ ...good, windows: [{ name: 'Back', fromScanId: endScan, toScanId: startScan }] }, `${KVK_ERRORS.windowBackwards} (Back)`],
      [{ ...good, windows: [{ name: 'Same', fromScanId: middleScan, toScanId: middleScan }] }, `${KVK_ERRORS.windowBackwards} (Same)`],
      [{ ...good, windows: [{ name: 'Gone', fromScanId: startScan, toScanId: 9_999_999 }] }, KVK_ERRORS.unknownWindowScan],
      [{ ...good, windows: [{ name: 'A', fromScanId: startScan, toScanId: endScan }, { name: 'a', fromScanId: startScan, toScanId: endScan }] }, KVK_ERRORS.windowNamesUnique],
      [{ ...good, startScanId: 9_999_999 }, KVK_ERRORS.unknownStartScan],
      [{ ...good, endScanId: 9_999_999 }, KVK_ERRORS.unknownEndScan],
      [{ ...good, startScanId: endScan, endScanId: startScan }, KVK_ERRORS.endBeforeStart],
      [{ ...good, name: '' }, KVK_ERRORS.nameRequired],
      [{ ...good, published: 'yes' }, KVK_ERRORS.badPublished],
    ];
    const seasonsBefore = await seasonCount();
    const auditBefore = (await auditActions()).length;
    const stored = await server.db.selectFrom('kvk_seasons').selectAll().where('id', '=', seasonId).executeTakeFirstOrThrow();
    for (const [body, error] of cases) {
      const created = await call(server, 'POST', '/kvk/seasons', { token: admin.token, body });
      expect(created.status, JSON.stringify(body)).toBe(400);
      expect(created.body.error).toBe(error);
      const edited = await call(server, 'PUT', `/kvk/seasons/${seasonId}`, { token: admin.token, body });
      expect(edited.status, JSON.stringify(body)).toBe(400);
      expect(edited.body.error).toBe(error);
    }
    expect(await seasonCount()).toBe(seasonsBefore);
    expect((await auditActions()).length).toBe(auditBefore);
    expect(await server.db.selectFrom('kvk_seasons').selectAll().where('id', '=', seasonId).executeTakeFirstOrThrow()).toEqual(stored);
    expect((await call(server, 'PUT', '/kvk/seasons/9999', { token: admin.token, body: good })).status).toBe(404);
  });

  it('rank checks: a player and a stranger are refused; council reads but may not create or edit', async () => {
    const user = await signedIn(server, 'kvkplayer');
    const body = { name: 'X', startScanId: startScan, weights: WEIGHTS, brackets: BRACKETS };
    expect((await call(server, 'GET', '/kvk/seasons')).status).toBe(401);
    // a player lists only published seasons: none yet
    const listed = await call(server, 'GET', '/kvk/seasons', { token: user.token });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.seasons).toEqual([]);
    const refused = await call(server, 'GET', `/kvk/seasons/${seasonId}/standings`, { token: user.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(KVK_ERRORS.notPublished);
    expect((await call(server, 'GET', `/kvk/seasons/${seasonId}/standings.csv`, { token: user.token })).status).toBe(403);
    expect((await call(server, 'GET', `/kvk/seasons/${seasonId}/marks`, { token: user.token })).status).toBe(403);
    expect((await call(server, 'POST', '/kvk/seasons', { token: user.token, body })).status).toBe(403);
    expect((await call(server, 'POST', '/kvk/seasons', { token: council.token, body })).status).toBe(403);
    expect((await call(server, 'PUT', `/kvk/seasons/${seasonId}`, { token: council.token, body })).status).toBe(403);
    expect((await call(server, 'GET', '/kvk/me', { token: user.token })).status).toBe(200);
    expect((await call(server, 'GET', '/kvk/me')).status).toBe(401);
  });

  it("published: every signed-in player reads the season's standings, without marks' reasons or suggestions; unpublished, refused again", async () => {
    const user = await signedIn(server, 'kvkreader');
    const body = { name: 'KvK 3', startScanId: startScan, weights: WEIGHTS, brackets: BRACKETS, windows: [{ name: 'Pass 4', fromScanId: startScan, toScanId: middleScan }] };
    // a mark with a reason the players must not read, and a suggestion they must not see
    expect((await call(server, 'PUT', `/kvk/seasons/${seasonId}/marks/${id(6)}`, { token: council.token, body: { mark: 'exempt', reason: 'Sick leave, told in DM' } })).status).toBe(200);
    expect((await call(server, 'DELETE', `/kvk/seasons/${seasonId}/marks/${id(5)}`, { token: council.token })).status).toBe(200);
    const published = await call(server, 'PUT', `/kvk/seasons/${seasonId}`, { token: admin.token, body: { ...body, published: true } });
    expect(published.status, published.text).toBe(200);
    expect(published.body.season).toMatchObject({ published: true });
    const entry = await server.db.selectFrom('audit_log').select(['action', 'detail']).where('action', 'like', 'season.%').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(entry.action).toBe('season.edit');
    expect(JSON.parse(entry.detail as string)).toMatchObject({ changed: ['published'], published: true });

    const listed = await call(server, 'GET', '/kvk/seasons', { token: user.token });
    expect((listed.body.seasons as Season[]).map((s) => [s.id, s.published])).toEqual([[seasonId, true]]);
    const theirs = await standings('?pageSize=500', user.token);
    const leaders = await standings('?pageSize=500', council.token);
    // the same figures and statuses
    expect(theirs.standings.map((s) => [s.governorId, s.dkp, s.status])).toEqual(leaders.standings.map((s) => [s.governorId, s.dkp, s.status]));
    expect(row(theirs.standings, 6)).toMatchObject({ status: 'exempt', reason: null });
    expect(row(leaders.standings, 6)).toMatchObject({ status: 'exempt', reason: 'Sick leave, told in DM' });
    expect(row(leaders.standings, 5).suggestedZeroed).toBe(true);
    expect(row(theirs.standings, 5).suggestedZeroed).toBe(false);
    expect(leaders.counts.suggested).toBe(1);
    expect(theirs.counts.suggested).toBe(0);
    expect(theirs.suggested).toEqual([]);
    expect(JSON.stringify(theirs)).not.toContain('Sick leave');
    // read-only: marks, their reasons, the CSV and edits stay leadership's
    expect((await call(server, 'GET', `/kvk/seasons/${seasonId}/marks`, { token: user.token })).status).toBe(403);
    expect((await call(server, 'GET', `/kvk/seasons/${seasonId}/standings.csv`, { token: user.token })).status).toBe(403);
    expect((await call(server, 'PUT', `/kvk/seasons/${seasonId}/marks/${id(1)}`, { token: user.token, body: { mark: 'exempt', reason: 'x' } })).status).toBe(403);
    expect((await call(server, 'PUT', `/kvk/seasons/${seasonId}`, { token: user.token, body: { ...body, published: false } })).status).toBe(403);

    // an edit that leaves published out keeps it
    const renamed = await call(server, 'PUT', `/kvk/seasons/${seasonId}`, { token: admin.token, body: { ...body, name: 'KvK 3b' } });
    expect(renamed.body.season).toMatchObject({ name: 'KvK 3b', published: true });
    expect((await call(server, 'GET', `/kvk/seasons/${seasonId}/standings`, { token: user.token })).status).toBe(200);

    // unpublished: the players are refused again and no longer list it
    const hidden = await call(server, 'PUT', `/kvk/seasons/${seasonId}`, { token: admin.token, body: { ...body, published: false } });
    expect(hidden.body.season).toMatchObject({ name: 'KvK 3', published: false });
    expect((await call(server, 'GET', `/kvk/seasons/${seasonId}/standings`, { token: user.token })).status).toBe(403);
    expect((await call(server, 'GET', '/kvk/seasons', { token: user.token })).body.seasons).toEqual([]);

    // the marks as they were before this test
    expect((await call(server, 'DELETE', `/kvk/seasons/${seasonId}/marks/${id(6)}`, { token: council.token })).status).toBe(200);
    expect((await call(server, 'PUT', `/kvk/seasons/${seasonId}/marks/${id(5)}`, { token: council.token, body: { mark: 'zeroed', reason: 'Zeroed by K1234 on day 40' } })).status).toBe(200);
  });

  it("a player sees their own governor's progress while the season runs, and nothing once it is closed", async () => {
    const account = { ...newAccount('kvkme'), playerid: String(id(1)) };
    await register(server, account);
    const token = await login(server, account.email);
    let me = await call(server, 'GET', '/kvk/me', { token });
    expect(me.status, me.text).toBe(200);
    expect(me.body.season).toMatchObject({ id: seasonId, running: true });
    expect(me.body.governors).toEqual([expect.objectContaining({ governorId: id(1), dkp: 101_500, required: { kills: 10_000, deads: 5_000 }, progress: { kills: 100, deads: 50 }, status: 'not-met' })]);

    // closing the season: fixing its end scan (audited as season.close)
    const closed = await call(server, 'PUT', `/kvk/seasons/${seasonId}`, {
      token: admin.token,
      body: { name: 'KvK 3', startScanId: startScan, endScanId: endScan, weights: WEIGHTS, brackets: BRACKETS, windows: [{ name: 'Pass 4', fromScanId: startScan, toScanId: middleScan }] },
    });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body.season).toMatchObject({ running: false, endScanId: endScan, endScan: { id: endScan } });
    expect((await auditActions()).at(-1)).toBe('season.close');
    me = await call(server, 'GET', '/kvk/me', { token });
    expect(me.body).toMatchObject({ season: null, governors: [] });
    // the marks stay through an edit; the standings of a closed season stay the same
    const s = await standings('?pageSize=500');
    expect(row(s.standings, 5).status).toBe('zeroed');
  });

  it('an edit is audited with what changed; a scan a season uses cannot be deleted', async () => {
    const edited = await call(server, 'PUT', `/kvk/seasons/${seasonId}`, {
      token: admin.token,
      body: { name: 'KvK 3 (Kingsland)', startScanId: startScan, endScanId: endScan, weights: { ...WEIGHTS, deads: 20 }, brackets: BRACKETS },
    });
    expect(edited.status, edited.text).toBe(200);
    const entry = await server.db.selectFrom('audit_log').selectAll().where('action', '=', 'season.edit').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(entry.actor).toBe(admin.username);
    expect(JSON.parse(entry.detail).changed).toEqual(['name', 'weights', 'windows']);
    // the same season saved again: answered as it is, nothing written, no empty entry in the log
    const entries = (await auditActions()).length;
    const again = await call(server, 'PUT', `/kvk/seasons/${seasonId}`, {
      token: admin.token,
      body: { name: 'KvK 3 (Kingsland)', startScanId: startScan, endScanId: endScan, weights: { ...WEIGHTS, deads: 20 }, brackets: BRACKETS },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.season).toEqual(edited.body.season);
    expect(await auditActions()).toHaveLength(entries);
    // DKP follows the new weights at once (the cached standings are of the old season)
    expect(row((await standings('?pageSize=500')).standings, 1).dkp).toBe(6_000 * 4 + 4_000 * 10 + 2_500 * 20);
    const deleted = await call(server, 'DELETE', `/scans/${endScan}`, { token: admin.token });
    expect(deleted.status).toBe(409);
    expect(deleted.body.error).toBe(KVK_ERRORS.scanInUse);
    expect((await call(server, 'DELETE', `/scans/${middleScan}`, { token: admin.token })).status).toBe(200);
  });

  it('a running season follows the latest scan: a scan that arrives moves its end (the cached standings are not reused)', async () => {
    const created = await call(server, 'POST', '/kvk/seasons', { token: admin.token, body: { name: 'Running', startScanId: startScan, weights: WEIGHTS, brackets: BRACKETS } });
    expect(created.status, created.text).toBe(200);
    const running = (created.body.season as Season).id;
    const before = await call(server, 'GET', `/kvk/seasons/${running}/standings?pageSize=500`, { token: council.token });
    expect((before.body as unknown as StandingsAnswer).to?.id).toBe(endScan);
    expect(row((before.body as unknown as StandingsAnswer).standings, 6).gains.t4Kills).toBe(10);
    const later = await importScan([{ ...END[5], t4: END[5].t4 + 5_000 }], '2026-01-22');
    const after = (await call(server, 'GET', `/kvk/seasons/${running}/standings?pageSize=500`, { token: council.token })).body as unknown as StandingsAnswer;
    expect(after.to?.id).toBe(later);
    expect(row(after.standings, 6).gains.t4Kills).toBe(5_010);
    // only G6 is in the latest scan: the others are no longer in the end scan
    expect(row(after.standings, 1).inEndScan).toBe(false);
  });
});
