import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicateFileText, SCAN_ERRORS, SCAN_MAX_BYTES, scanPreview, type ScanPreview } from '../../src/protocol/scans';
import { killpointsFromTiers, SCAN_ROW_TEXTS } from '../../src/protocol/scan-file';
import { csvRecords, upload } from './back-office-helpers';
import { call, register, newAccount, leadershipServer, login, type Answer } from './helpers';
import { failInserts } from './test-database';

let server: Awaited<ReturnType<typeof leadershipServer>>['server'];
let admin: Awaited<ReturnType<typeof leadershipServer>>['admin'];
let council: Awaited<ReturnType<typeof leadershipServer>>['council'];
let now = Date.UTC(2026, 0, 10, 12);

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer({ now: () => now }));
});
afterAll(() => server.close());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const preview = (bytes: string | Uint8Array, fileName: string, token = admin.token) => upload(server, '/scans/preview', token, bytes, fileName, fileName.endsWith('.xlsx') ? XLSX : 'text/csv');
const apply = (token: string, extra: Record<string, unknown> = {}, who = admin.token) => call(server, 'POST', '/scans/apply', { token: who, body: { token, ...extra } });
async function importFile(bytes: string | Uint8Array, fileName: string, extra: Record<string, unknown> = {}) {
  const answer = await preview(bytes, fileName);
  expect(answer.status, answer.text).toBe(200);
  const applied = await apply((answer.body.preview as { token: string }).token, extra);
  expect(applied.status, applied.text).toBe(200);
  return { preview: answer.body.preview as Record<string, unknown>, scan: applied.body.scan as { id: number; takenAt: number; rows: number; kind: string } };
}

/** A governor with consistent kill points; ids are unique per call so every test has its own governors. */
let nextId = 40_000_000;
function governor(over: Partial<Record<string, number | string>> = {}) {
  const t = { t1Kills: 1000, t2Kills: 500, t3Kills: 2000, t4Kills: 30_000, t5Kills: 4_000, ...over } as Record<string, number>;
  return {
    id: nextId++,
    name: 'Gov',
    alliance: 'ABC',
    power: 50_000_000,
    deads: 100_000,
    helps: 5_000,
    rssAssistance: 900_000_000,
    rssGathered: 2_000_000_000,
    ...t,
    killpoints: killpointsFromTiers(t as never),
    ...over,
  } as Record<string, number | string> & { id: number };
}

const V6_HEADER = ['ID', 'Name', 'Power', 'Killpoints', 'Acclaim', 'Highest Acclaim', 'Deads', 'T1 Kills', 'T2 Kills', 'T3 Kills', 'T4 Kills', 'T5 Kills', 'Total Kills', 'T45 Kills', 'Ranged', 'Rss Gathered', 'Rss Assistance', 'Helps', 'Alliance'];
function v6Csv(govs: ReturnType<typeof governor>[]) {
  const lines = govs.map((g) =>
    [g.id, g.name, g.power, g.killpoints, 10, 20, g.deads, g.t1Kills, g.t2Kills, g.t3Kills, g.t4Kills, g.t5Kills, Number(g.t1Kills) + Number(g.t2Kills) + Number(g.t3Kills) + Number(g.t4Kills) + Number(g.t5Kills), Number(g.t4Kills) + Number(g.t5Kills), 7, g.rssGathered, g.rssAssistance, g.helps, g.alliance].join(','),
  );
  return [V6_HEADER.join(','), ...lines].join('\n') + '\n';
}

describe('scan import: every header generation', () => {
  it('RokTracker v6 CSV: the date from the file name, every column found, totals and governors as the file holds them', async () => {
    const govs = [governor({ name: 'Alpha', alliance: 'K1' }), governor({ name: 'Beta', power: 70_000_000, alliance: 'K2' }), governor({ name: 'جمال', alliance: 'K1', power: 10 })];
    const answer = await preview(v6Csv(govs), 'TOP300-2025-12-29-3328-[gs1dp0ow].csv');
    expect(answer.status, answer.text).toBe(200);
    expect(scanPreview.safeParse(answer.body.preview).success).toBe(true);
    const p = answer.body.preview as ScanPreview;
    expect(p).toMatchObject({ fileName: 'TOP300-2025-12-29-3328-[gs1dp0ow].csv', takenAt: Date.UTC(2025, 11, 29), takenAtFrom: 'file-name', kind: 'kingdom', rows: 3, valid: 3, errors: [], warnings: [] });
    expect(p.columns.ignored).toEqual([]);
    expect(p.columns.found.map((c: { stat: string }) => c.stat)).toContain('highestAcclaim');
    expect(p.governors.new.map((g: { governorId: number }) => g.governorId)).toEqual(govs.map((g) => g.id));

    const applied = await apply(p.token);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.scan).toMatchObject({ takenAt: Date.UTC(2025, 11, 29), kind: 'kingdom', rows: 3, source: 'upload', uploadedBy: admin.username });

    const summary = await call(server, 'GET', `/kingdom/summary?scan=${(applied.body.scan as { id: number }).id}`, { token: council.token });
    expect(summary.status).toBe(200);
    expect(summary.body.totals).toMatchObject({
      governors: 3,
      power: govs.reduce((s, g) => s + Number(g.power), 0),
      killpoints: govs.reduce((s, g) => s + Number(g.killpoints), 0),
      t4Kills: 90_000,
    });

    const list = await call(server, 'GET', `/governors?scan=${(applied.body.scan as { id: number }).id}&sort=power&order=desc`, { token: council.token });
    expect(list.body.total).toBe(3);
    expect((list.body.governors as { name: string }[]).map((g) => g.name)).toEqual(['Beta', 'Alpha', 'جمال']);
    expect(list.body.governors).toContainEqual(expect.objectContaining({ governorId: govs[0].id, alliance: 'K1', acclaim: 10, highestAcclaim: 20, ranged: 7, t45Kills: 34_000 }));

    // the alliance filter: a tag in any case is that alliance exactly; part of a tag, every alliance containing it
    const byAlliance = async (alliance: string) =>
      ((await call(server, 'GET', `/governors?scan=${(applied.body.scan as { id: number }).id}&alliance=${encodeURIComponent(alliance)}&sort=name`, { token: council.token })).body.governors as { name: string }[]).map((g) => g.name);
    expect(await byAlliance('k1')).toEqual(['Alpha', 'جمال']);
    expect(await byAlliance(' K ')).toEqual(['Alpha', 'Beta', 'جمال']);
    expect(await byAlliance('2')).toEqual(['Beta']);
    expect(await byAlliance('%')).toEqual([]);
  });

  it('RokTracker v4 XLSX: "Summary" sheet first, the date from the sheet name, v4 headers', async () => {
    const g = governor({ name: 'Vee Four' });
    const header = ['Governor ID', 'Governor Name', 'Power', 'Kill Points', 'Deaths', 'T1', 'T2', 'T3', 'T4', 'T5', 'Kills', 'Kills (T4+)', 'Ranged Points', 'Alliance Tag'].map((value) => ({ value }));
    const row = [g.id, g.name, g.power, g.killpoints, g.deads, g.t1Kills, g.t2Kills, g.t3Kills, g.t4Kills, g.t5Kills, 37_500, 34_000, 3, 'V4'].map((value) => ({ value }));
    const bytes = await writeXlsxFile([
      { data: [[{ value: 'Kingdom 3328' }], [{ value: 'Total power' }, { value: 1 }]], sheet: 'Summary' },
      { data: [header, row], sheet: '2025-11-02' },
    ] as never).toBuffer();
    const answer = await preview(bytes, 'kingdom.xlsx');
    expect(answer.status, answer.text).toBe(200);
    const p = answer.body.preview as ScanPreview;
    expect(p).toMatchObject({ sheet: '2025-11-02', takenAt: Date.UTC(2025, 10, 2), takenAtFrom: 'sheet', kind: 'kingdom', valid: 1, errors: [], warnings: [] });
    expect(Object.fromEntries(p.columns.found.map((c: { header: string; stat: string }) => [c.header, c.stat]))).toMatchObject({
      'Governor ID': 'governorId',
      'Governor Name': 'name',
      'Kill Points': 'killpoints',
      Deaths: 'deads',
      T1: 't1Kills',
      T5: 't5Kills',
      Kills: 'totalKills',
      'Kills (T4+)': 't45Kills',
      'Ranged Points': 'ranged',
      'Alliance Tag': 'alliance',
    });
  });

  it('2023 files with "Resource Assistance", semicolons and a BOM; unknown columns are listed and ignored', async () => {
    const g = governor({ name: 'Older' });
    const csv = `\uFEFFGovernor ID;Name;Power;Kill Points;Dead;Tier 1 Kills;Tier 2 Kills;Tier 3 Kills;Tier 4 Kills;Tier 5 Kills;Resource Assistance;Helps;Alliance;Notes\n${g.id};${g.name};${g.power};${g.killpoints};${g.deads};${g.t1Kills};${g.t2Kills};${g.t3Kills};${g.t4Kills};${g.t5Kills};123456;77;OLD;hello\n`;
    const answer = await preview(csv, 'scan 2023-06-01.csv');
    expect(answer.status, answer.text).toBe(200);
    const p = answer.body.preview as ScanPreview;
    expect(p.columns.ignored).toEqual(['Notes']);
    expect(p.columns.found.find((c) => c.header === 'Resource Assistance')?.stat).toBe('rssAssistance');
    expect(p.warnings).toEqual([]);
  });

  it('a seed scan (five columns, JSON Lines): the stats it lacks are null, not 0', async () => {
    const a = governor();
    const jsonl = `${JSON.stringify({ ID: a.id, Name: 'Seedy', Power: 1234, Killpoints: 99, Alliance: 'SD' })}\n`;
    const { scan, preview: p } = await importFile(jsonl, 'seed-2025-10-10.jsonl');
    expect(p.kind).toBe('seed');
    const detail = await call(server, 'GET', `/governors/${a.id}`, { token: council.token });
    expect(detail.body.governor).toMatchObject({ name: 'Seedy', alliance: 'SD', history: [{ scanId: scan.id, power: 1234, killpoints: 99, deads: null, t4Kills: null, helps: null }] });
  });
});

describe('scan import: warnings, errors and comparisons', () => {
  it('warns of kill points that do not match the tiers, sentinels and cumulative stats that went down; names new, renamed and moved governors', async () => {
    const stay = governor({ name: 'Stayer', alliance: 'AAA' });
    const renamed = governor({ name: 'OldName', alliance: 'AAA' });
    const mover = governor({ name: 'Mover', alliance: 'AAA' });
    await importFile(v6Csv([stay, renamed, mover]), 'cmp-2024-01-01.csv');
    const later = [
      { ...stay, deads: Number(stay.deads) - 5 },
      { ...renamed, name: 'NewName' },
      { ...mover, alliance: 'BBB', killpoints: Number(mover.killpoints) + 1 },
      governor({ name: 'Newcomer', t5Kills: -2 }),
    ];
    const answer = await preview(v6Csv(later), 'cmp-2024-01-08.csv');
    expect(answer.status, answer.text).toBe(200);
    const p = answer.body.preview as ScanPreview;
    expect(p.governors.new).toEqual([expect.objectContaining({ governorId: later[3].id, name: 'Newcomer' })]);
    expect(p.governors.renamed).toEqual([{ governorId: renamed.id, name: 'NewName', alliance: 'AAA', previousName: 'OldName' }]);
    expect(p.governors.changedAlliance).toEqual([{ governorId: mover.id, name: 'Mover', alliance: 'BBB', previousAlliance: 'AAA' }]);
    const texts = p.warnings.map((w) => [w.governorId, w.text]);
    expect(texts).toContainEqual([stay.id, SCAN_ROW_TEXTS.wentDown('Deads', Number(stay.deads), Number(stay.deads) - 5)]);
    expect(texts).toContainEqual([mover.id, SCAN_ROW_TEXTS.killpointsMismatch(Number(mover.killpoints), Number(mover.killpoints) + 1)]);
    expect(texts).toContainEqual([later[3].id, SCAN_ROW_TEXTS.sentinel('T5 Kills', -2)]);
    expect(p.errors).toEqual([]);
  });

  it('rows it cannot use are named; apply refuses them unless asked to leave them out', async () => {
    const g = governor();
    const csv = `ID,Name,Power\n${g.id},Ok,100\nabc,Bad,5\n${g.id},Twice,6\n0,Zero,7\n`;
    const answer = await preview(csv, 'bad-rows-2024-02-02.csv');
    const p = answer.body.preview as ScanPreview;
    expect(p).toMatchObject({ rows: 4, valid: 1 });
    expect(p.errors).toEqual([
      { row: 3, text: SCAN_ROW_TEXTS.badGovernorId },
      { row: 4, governorId: g.id, text: SCAN_ROW_TEXTS.duplicate(2) },
      { row: 5, text: SCAN_ROW_TEXTS.badGovernorId },
    ]);
    const refused = await apply(p.token);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ result: false, error: SCAN_ERRORS.hasErrors });
    const applied = await apply(p.token, { skipInvalid: true });
    expect(applied.status).toBe(200);
    expect(applied.body.scan).toMatchObject({ rows: 1 });
  });

  it('the same file twice is refused, naming its scan; the uploader may set the time', async () => {
    const csv = v6Csv([governor()]);
    const { scan } = await importFile(csv, 'twice.csv', { takenAt: '2024-03-03T10:00:00Z' });
    expect(scan.takenAt).toBe(Date.UTC(2024, 2, 3, 10));
    const again = await preview(csv, 'twice-renamed.csv');
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ result: false, error: duplicateFileText(scan.id, '2024-03-03') });
  });

  it('a preview belongs to its uploader, applies once, and a second apply at the same moment is refused', async () => {
    const second = await register(server, newAccount('admin2'));
    const secondToken = await login(server, second.email);
    await call(server, 'POST', `/admin/users/${second.username}/rank`, { token: admin.token, body: { rank: 'admin' } });
    const answer = await preview(v6Csv([governor()]), 'owner-2024-04-04.csv');
    const token = (answer.body.preview as { token: string }).token;
    const stranger = await apply(token, {}, secondToken);
    expect(stranger.body).toEqual({ result: false, error: SCAN_ERRORS.tokenUnknown });
    const [a, b] = await Promise.all([apply(token), apply(token)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const scans = await server.db.selectFrom('scans').select('id').where('file_name', '=', 'owner-2024-04-04.csv').execute();
    expect(scans).toHaveLength(1);
  });
});

describe('scan import: bad files change nothing', () => {
  const cases: [string, string | Uint8Array, string, string][] = [
    ['not a spreadsheet', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]), 'image.png', SCAN_ERRORS.notSpreadsheet],
    ['no governor id column', 'Name,Power\nA,1\n', 'x.csv', SCAN_ERRORS.noGovernorId],
    ['a header and nothing else', 'ID,Name,Power\n', 'x.csv', SCAN_ERRORS.empty],
    ['not UTF-8', new Uint8Array([0x49, 0x44, 0x2c, 0x4e, 0x0a, 0x31, 0x2c, 0xe9, 0x0a]), 'x.csv', SCAN_ERRORS.encoding],
    ['a JSON line that is not an object', '{"ID":1}\n[1,2]\n', 'x.jsonl', `${SCAN_ERRORS.badJsonLine} (line 2)`],
  ];
  for (const [what, bytes, name, text] of cases) {
    it(what, async () => {
      const before = await server.db.selectFrom('scans').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const answer = await preview(bytes, name);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ result: false, error: text });
      const after = await server.db.selectFrom('scans').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    });
  }

  it('too big', async () => {
    const answer = await preview('ID,Name\n' + 'x'.repeat(SCAN_MAX_BYTES), 'big.csv');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error: SCAN_ERRORS.tooLarge });
  });

  it('a scan time that is not a time', async () => {
    const form = new FormData();
    form.append('takenAt', 'yesterday-ish');
    form.append('file', new Blob([v6Csv([governor()])]), 'x.csv');
    const response = await fetch(`${server.httpUrl}/scans/preview`, { method: 'POST', body: form, headers: { authorization: `Bearer ${admin.token}` } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ result: false, error: SCAN_ERRORS.badTakenAt });
  });

  it('an apply that fails half way leaves no part of the scan', async () => {
    const govs = Array.from({ length: 1200 }, () => governor());
    const answer = await preview(v6Csv(govs), 'crash-2024-05-05.csv');
    const token = (answer.body.preview as { token: string }).token;
    // the third batch of rows fails inside the transaction, as a crash or a full disk would
    const undo = await failInserts(server.db, 'scan_rows', 'disk full', `new.governor_id = ${govs[1100].id}`);
    try {
      const failed = await apply(token);
      expect(failed.status).toBe(500);
    } finally {
      await undo();
    }
    expect(await server.db.selectFrom('scans').selectAll().where('file_name', '=', 'crash-2024-05-05.csv').execute()).toEqual([]);
    expect(await server.db.selectFrom('scan_rows').select('governor_id').where('governor_id', '=', govs[0].id).execute()).toEqual([]);
    // and the same preview applies afterwards, whole
    const retried = await apply(token);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.scan).toMatchObject({ rows: 1200 });
  });
});

describe('reading scans', () => {
  it('lists scans newest first by when they were taken, compares two scans, exports CSV and deletes a scan', async () => {
    const g = governor({ name: 'Compare Me', power: 1000 });
    const first = await importFile(v6Csv([g]), 'read-2030-01-01.csv');
    const second = await importFile(v6Csv([{ ...g, power: 1500, t4Kills: Number(g.t4Kills) + 10, killpoints: Number(g.killpoints) + 100 }]), 'read-2030-01-08.csv');
    // uploaded out of order: the list is by takenAt
    const old = await importFile(v6Csv([governor()]), 'read-2029-12-01.csv');
    const list = await call(server, 'GET', '/scans', { token: council.token });
    const ids = (list.body.scans as { id: number }[]).map((s) => s.id);
    expect(ids.indexOf(second.scan.id)).toBeLessThan(ids.indexOf(first.scan.id));
    expect(ids.indexOf(first.scan.id)).toBeLessThan(ids.indexOf(old.scan.id));

    // the latest scan by default, compared with the one before it
    const summary = await call(server, 'GET', '/kingdom/summary', { token: council.token });
    expect(summary.body).toMatchObject({ scan: { id: second.scan.id }, compare: { id: first.scan.id }, totals: { governors: 1, power: 1500 }, change: { governors: 0, power: 500, t4Kills: 10 } });

    const compared = await call(server, 'GET', `/governors?scan=${second.scan.id}&compare=${first.scan.id}&q=compare`, { token: council.token });
    expect(compared.body.governors).toEqual([expect.objectContaining({ governorId: g.id, power: 1500, change: expect.objectContaining({ power: 500, killpoints: 100, t4Kills: 10, acclaim: 0 }) })]);

    const csv = await call(server, 'GET', `/governors.csv?scan=${second.scan.id}&compare=${first.scan.id}&q=${g.id}`, { token: council.token });
    const records = csvRecords(csv.text);
    expect(records[0].slice(0, 5)).toEqual(['Governor id', 'Governor', 'Alliance', 'Kingdom', 'Power']);
    expect(records[1].slice(0, 5)).toEqual([String(g.id), 'Compare Me', 'ABC', '', '1500']);
    expect(records[1][records[0].indexOf('Power: change')]).toBe('500');

    const deleted = await call(server, 'DELETE', `/scans/${second.scan.id}`, { token: admin.token });
    expect(deleted.body).toEqual({ result: true });
    expect(await server.db.selectFrom('scan_rows').select('governor_id').where('scan_id', '=', second.scan.id).execute()).toEqual([]);
    const gone = await call(server, 'DELETE', `/scans/${second.scan.id}`, { token: admin.token });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ result: false, error: SCAN_ERRORS.unknownScan });
  });

  it('refuses bad queries with their texts', async () => {
    const bad: [string, string][] = [
      ['/governors?sort=nonsense', SCAN_ERRORS.badSort],
      ['/governors?order=up', SCAN_ERRORS.badOrder],
      ['/governors?pageSize=501', SCAN_ERRORS.badPageSize],
      ['/governors?scan=x', SCAN_ERRORS.badScanId],
      ['/governors/abc', SCAN_ERRORS.badGovernorId],
      ['/scans?page=0', SCAN_ERRORS.badPage],
    ];
    for (const [url, text] of bad) {
      const answer = await call(server, 'GET', url, { token: council.token });
      expect(answer.status, url).toBe(400);
      expect(answer.body, url).toEqual({ result: false, error: text });
    }
    expect((await call(server, 'GET', '/governors?scan=999999', { token: council.token })).status).toBe(404);
    expect((await call(server, 'GET', '/governors/999999999', { token: council.token })).body).toEqual({ result: false, error: SCAN_ERRORS.unknownGovernor });
  });
});

describe('ranks', () => {
  it('admins import and delete; council and admin read; a player reads only the governor their account claims', async () => {
    const g = governor();
    await importFile(v6Csv([g]), 'ranks-2031-01-01.csv');
    const player = await register(server, { ...newAccount('scanplayer'), playerid: String(g.id) });
    const playerToken = await login(server, player.email);
    const anonymous: [string, string][] = [
      ['POST', '/scans/apply'],
      ['GET', '/scans'],
      ['DELETE', '/scans/1'],
      ['GET', '/kingdom/summary'],
      ['GET', '/governors'],
      ['GET', '/governors.csv'],
      ['GET', `/governors/${g.id}`],
    ];
    for (const [method, url] of anonymous) expect((await call(server, method, url, { body: method === 'POST' ? {} : undefined })).status, `${method} ${url}`).toBe(401);
    expect((await preview('ID\n1\n', 'x.csv', 'nonsense')).status).toBe(401);
    for (const [method, url] of anonymous.slice(0, 6)) {
      const answer: Answer = await call(server, method, url, { token: playerToken, body: method === 'POST' ? {} : undefined });
      expect(answer.status, `${method} ${url}`).toBe(403);
    }
    expect((await preview('ID\n1\n', 'x.csv', playerToken)).status).toBe(403);
    expect((await preview('ID\n1\n', 'x.csv', council.token)).status).toBe(403);
    expect((await call(server, 'POST', '/scans/apply', { token: council.token, body: { token: 'x' } })).status).toBe(403);
    expect((await call(server, 'DELETE', '/scans/1', { token: council.token })).status).toBe(403);

    expect((await call(server, 'GET', `/governors/${g.id}`, { token: playerToken })).status).toBe(200);
    const other = await call(server, 'GET', `/governors/${g.id + 1}`, { token: playerToken });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ result: false, error: SCAN_ERRORS.notYourGovernor });
    now += 1;
  });

  it('governors/mine: the caller\'s own governors, main first, farms an admin linked, named when a scan has seen them', async () => {
    const farm = governor();
    await importFile(v6Csv([farm]), 'mine-2031-02-01.csv');
    const player = await register(server, { ...newAccount('mine'), playerid: String(nextId++) });
    const token = await login(server, player.email);
    expect((await call(server, 'GET', '/governors/mine')).status).toBe(401);
    // the sign-up's claim, never scanned
    expect((await call(server, 'GET', '/governors/mine', { token })).body).toEqual({
      result: true,
      governors: [{ governorId: Number(player.playerid), name: null, main: true, verified: false }],
    });
    expect((await call(server, 'PUT', `/player-ids/${farm.id}`, { token: admin.token, body: { username: player.username, verified: true } })).status).toBe(200);
    const mine = await call(server, 'GET', '/governors/mine', { token });
    expect(mine.body.governors).toEqual([
      { governorId: Number(player.playerid), name: null, main: true, verified: false },
      { governorId: farm.id, name: farm.name, main: false, verified: true },
    ]);
    // and the linked farm's page is theirs to read
    expect((await call(server, 'GET', `/governors/${farm.id}`, { token })).status).toBe(200);
    // another account's list is its own
    expect((await call(server, 'GET', '/governors/mine', { token: council.token })).body.governors).not.toContainEqual(expect.objectContaining({ governorId: farm.id }));
    now += 1;
  });
});

describe('alliances, metrics, gains and player ids', () => {
  it('alliances of a scan with their sums, named by leadership; the kingdom and alliance series over every scan', async () => {
    const a = governor({ alliance: 'ZZ1', power: 100 });
    const b = governor({ alliance: 'ZZ1', power: 50 });
    const c = governor({ alliance: 'ZZ2', power: 10 });
    const loner = governor({ alliance: '', power: 7 });
    const first = await importFile(v6Csv([a, b, c, loner]), 'ally-2032-01-01.csv');
    const second = await importFile(v6Csv([{ ...a, power: 300 }, { ...b, alliance: 'ZZ2' }, c]), 'ally-2032-01-08.csv');

    const named = await call(server, 'PUT', '/alliances/ZZ1', { token: admin.token, body: { name: 'Zulu One', ours: true } });
    expect(named.body).toEqual({ result: true, alliance: { tag: 'ZZ1', name: 'Zulu One', ours: true } });
    expect((await call(server, 'PUT', '/alliances/ZZ1', { token: council.token, body: { ours: false } })).status).toBe(403);

    const list = await call(server, 'GET', `/alliances?scan=${first.scan.id}`, { token: council.token });
    expect(list.body.alliances).toEqual([
      { tag: 'ZZ1', name: 'Zulu One', ours: true, members: 2, power: 150, killpoints: Number(a.killpoints) * 2, deads: 200_000, t4Kills: 60_000, t5Kills: 8_000 },
      { tag: 'ZZ2', name: '', ours: false, members: 1, power: 10, killpoints: Number(c.killpoints), deads: 100_000, t4Kills: 30_000, t5Kills: 4_000 },
    ]);
    // the governors in no alliance are summed apart, not left out
    expect(list.body.unaffiliated).toEqual({ tag: '', name: '', ours: false, members: 1, power: 7, killpoints: Number(loner.killpoints), deads: 100_000, t4Kills: 30_000, t5Kills: 4_000 });
    const second_ = await call(server, 'GET', `/alliances?scan=${second.scan.id}`, { token: council.token });
    expect(second_.body.unaffiliated).toBeNull();

    const series = await call(server, 'GET', '/metrics/series?scope=alliance&key=ZZ2&stats=power,deads', { token: council.token });
    expect(series.body).toMatchObject({
      scope: 'alliance',
      key: 'ZZ2',
      stats: ['power', 'deads'],
      points: [
        { scanId: first.scan.id, members: 1, values: { power: 10, deads: 100_000 } },
        { scanId: second.scan.id, members: 2, values: { power: 60, deads: 200_000 } },
      ],
    });
    const kingdom = await call(server, 'GET', '/metrics/series?scope=kingdom&stats=power', { token: council.token });
    const points = kingdom.body.points as { scanId: number; values: { power: number } }[];
    expect(points.find((p) => p.scanId === second.scan.id)?.values.power).toBe(360);
    expect((await call(server, 'GET', '/metrics/series?scope=kingdom&stats=power,bogus', { token: council.token })).status).toBe(400);
    expect((await call(server, 'GET', '/metrics/series?scope=alliance', { token: council.token })).status).toBe(400);
  });

  it('top gains: the governors sorted by the change since the compared scan', async () => {
    const slow = governor({ name: 'Slow', power: 1000 });
    const fast = governor({ name: 'Fast', power: 900 });
    const first = await importFile(v6Csv([slow, fast]), 'gain-2033-01-01.csv');
    const second = await importFile(v6Csv([{ ...slow, power: 1100 }, { ...fast, power: 2000 }, governor({ name: 'Newbie', power: 5000 })]), 'gain-2033-01-08.csv');
    const gains = await call(server, 'GET', `/governors?scan=${second.scan.id}&compare=${first.scan.id}&sort=power&gain=1`, { token: council.token });
    expect((gains.body.governors as { name: string }[]).map((g) => g.name)).toEqual(['Fast', 'Slow', 'Newbie']);
    const refused = await call(server, 'GET', `/governors?sort=power&gain=1`, { token: council.token });
    expect(refused.body).toEqual({ result: false, error: SCAN_ERRORS.badGain });
  });

  it("a sign-up claims its governor; an admin verifies, links a farm and unlinks; a player reads its linked governors' series", async () => {
    const main = governor({ name: 'MainGov' });
    const farm = governor({ name: 'FarmGov' });
    await importFile(v6Csv([main, farm]), 'links-2034-01-01.csv');
    const player = await register(server, { ...newAccount('linker'), playerid: String(main.id) });
    const playerToken = await login(server, player.email);

    const claimed = await call(server, 'GET', `/player-ids?q=${player.username}`, { token: admin.token });
    expect(claimed.body.links).toEqual([{ governorId: main.id, username: player.username, verified: false, main: true, name: 'MainGov' }]);

    expect((await call(server, 'GET', `/metrics/series?scope=governor&key=${farm.id}`, { token: playerToken })).status).toBe(403);
    const linked = await call(server, 'PUT', `/player-ids/${farm.id}`, { token: admin.token, body: { username: player.username, verified: true } });
    expect(linked.body).toEqual({ result: true, link: { governorId: farm.id, username: player.username, verified: true, main: false, name: 'FarmGov' } });
    const verified = await call(server, 'PUT', `/player-ids/${main.id}`, { token: admin.token, body: { username: player.username, verified: true } });
    expect(verified.body.link).toMatchObject({ verified: true, main: true });
    const farmSeries = await call(server, 'GET', `/metrics/series?scope=governor&key=${farm.id}&stats=power`, { token: playerToken });
    expect(farmSeries.status).toBe(200);
    expect((await call(server, 'GET', `/governors/${farm.id}`, { token: playerToken })).body.governor).toMatchObject({ account: { username: player.username } });
    expect((await call(server, 'GET', '/metrics/series?scope=kingdom', { token: playerToken })).status).toBe(403);

    expect((await call(server, 'DELETE', `/player-ids/${farm.id}`, { token: admin.token })).body).toEqual({ result: true });
    expect((await call(server, 'GET', `/governors/${farm.id}`, { token: playerToken })).status).toBe(403);
    expect((await call(server, 'DELETE', `/player-ids/${farm.id}`, { token: admin.token })).status).toBe(404);
    expect((await call(server, 'PUT', `/player-ids/${farm.id}`, { token: admin.token, body: { username: 'nobody-here-at-all' } })).status).toBe(404);
    expect((await call(server, 'GET', '/player-ids', { token: council.token })).status).toBe(403);
  });
});
