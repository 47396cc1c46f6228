import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redateOverlapsText, SCAN_ERRORS, type ScanPreview } from '../../src/protocol/scans';
import { SCAN_ROW_TEXTS } from '../../src/protocol/scan-file';
import { takenAtFromFile } from '../../server/scans/parse';
import { inflateZip, storedZip } from '../../server/points/unzip';
import { upload } from './back-office-helpers';
import { call, leadershipServer, newAccount, register } from './helpers';
import { scanCsv, type FileGovernor } from './scan-files';

/** When a scan was taken, read from its file; and a preview that follows its date when it is changed. */

let server: Awaited<ReturnType<typeof leadershipServer>>['server'];
let admin: Awaited<ReturnType<typeof leadershipServer>>['admin'];
let council: Awaited<ReturnType<typeof leadershipServer>>['council'];
const now = Date.UTC(2026, 5, 1, 9, 30);

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer({ now: () => now }));
});
afterAll(() => server.close());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const preview = (bytes: string | Uint8Array, fileName: string) => upload(server, '/scans/preview', admin.token, bytes, fileName, fileName.endsWith('.xlsx') ? XLSX : 'text/csv');
const compare = (token: string, takenAt: unknown, who = admin.token) => call(server, 'POST', '/scans/preview/compare', { token: who, body: { token, takenAt } });
const apply = (token: string, extra: Record<string, unknown> = {}) => call(server, 'POST', '/scans/apply', { token: admin.token, body: { token, ...extra } });
async function previewed(bytes: string | Uint8Array, fileName: string): Promise<ScanPreview> {
  const answer = await preview(bytes, fileName);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.preview as ScanPreview;
}

let nextId = 71_000_000;
const governors = (n: number, over: (i: number) => Partial<FileGovernor> = () => ({})): FileGovernor[] =>
  Array.from({ length: n }, (_, i) => ({ id: nextId++, name: `Gov ${i}`, alliance: 'DT', power: 10_000_000 + i, killpoints: 1_000_000, deads: 5_000, t4Kills: 2_000, t5Kills: 100, helps: 10, ...over(i) }));

/** An XLSX with one sheet named `sheet`, whose docProps/core.xml says it was created at `created` (as Excel and the scanners write it). */
async function workbook(rows: FileGovernor[], sheet: string, created: string | null): Promise<Buffer> {
  const header = ['ID', 'Name', 'Alliance', 'Power', 'Killpoints'].map((value) => ({ value }));
  const data = [header, ...rows.map((g) => [g.id, g.name, g.alliance, g.power, g.killpoints].map((value) => ({ value })))];
  const plain = await writeXlsxFile([{ data, sheet }] as never).toBuffer();
  if (created === null) return plain;
  const entries = await inflateZip(plain, () => true, { maxTotalBytes: 1 << 24, maxEntries: 100 });
  const core =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ' +
    'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    `<dc:creator>RokTracker</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">${created}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">2030-01-01T00:00:00Z</dcterms:modified></cp:coreProperties>`;
  return storedZip([...entries, { name: 'docProps/core.xml', data: Buffer.from(core) }]);
}

describe('the scan date read from the file', () => {
  it('reads a date or an epoch-seconds timestamp in the name, never a snowflake id or a number outside 2017..2100', () => {
    expect(takenAtFromFile('kingdom_scan_703413897184673792_1768226060_7495.xlsx', null, null)).toEqual({ takenAt: 1768226060_000, from: 'file-name' });
    expect(new Date(1768226060_000).toISOString().slice(0, 10)).toBe('2026-01-12');
    // the snowflake alone, ten digits of it, a time in milliseconds, seconds before 2017 or after 2100: none is a date
    expect(takenAtFromFile('kingdom_scan_703413897184673792_7495.xlsx', null, null)).toBeNull();
    expect(takenAtFromFile('scan_1768226060123.csv', null, null)).toBeNull();
    expect(takenAtFromFile('scan_1400000000.csv', null, null)).toBeNull();
    expect(takenAtFromFile('scan_9999999999.csv', null, null)).toBeNull();
    expect(takenAtFromFile('TOP300-2025-12-29-3328-[gs1dp0ow].csv', 'Sheet1', Date.UTC(2024, 0, 1))).toEqual({ takenAt: Date.UTC(2025, 11, 29), from: 'file-name' });
    expect(takenAtFromFile('scan 2025-12-29 21-30.csv', null, null)).toEqual({ takenAt: Date.UTC(2025, 11, 29, 21, 30), from: 'file-name' });
    // the name first, then the sheet, then the workbook's creation
    expect(takenAtFromFile('kingdom_scan_after_first_24_hours.xlsx', '2025-11-02', Date.UTC(2024, 0, 1))).toEqual({ takenAt: Date.UTC(2025, 10, 2), from: 'sheet' });
    expect(takenAtFromFile('kingdom_scan_after_first_24_hours.xlsx', 'Sheet1', Date.UTC(2024, 0, 1))).toEqual({ takenAt: Date.UTC(2024, 0, 1), from: 'workbook' });
    expect(takenAtFromFile('kingdom_scan_after_first_24_hours.xlsx', 'Sheet1', null)).toBeNull();
  });

  it('an XLSX with no date in its name nor its sheet is dated by its creation time; the time in the name wins over it', async () => {
    const created = await previewed(await workbook(governors(2), 'Sheet1', '2025-09-14T18:42:07Z'), 'kingdom_scan_after_first_24_hours.xlsx');
    expect(created).toMatchObject({ takenAt: Date.UTC(2025, 8, 14, 18, 42, 7), takenAtFrom: 'workbook', sheet: 'Sheet1' });

    const named = await previewed(await workbook(governors(2), 'Sheet1', '2025-09-14T18:42:07Z'), 'kingdom_scan_703413897184673792_1768226060_7495.xlsx');
    expect(named).toMatchObject({ takenAt: 1768226060_000, takenAtFrom: 'file-name' });

    const sheet = await previewed(await workbook(governors(2), '2025-10-03', '2025-09-14T18:42:07Z'), 'kingdom.xlsx');
    expect(sheet).toMatchObject({ takenAt: Date.UTC(2025, 9, 3), takenAtFrom: 'sheet' });

    // a creation time with no zone is UTC; one that is no date at all is not used
    expect(await previewed(await workbook(governors(1), 'Sheet1', '2025-09-14T18:42:07'), 'a.xlsx')).toMatchObject({ takenAt: Date.UTC(2025, 8, 14, 18, 42, 7), takenAtFrom: 'workbook' });
    expect(await previewed(await workbook(governors(1), 'Sheet1', 'last Tuesday'), 'b.xlsx')).toMatchObject({ takenAt: now, takenAtFrom: 'upload' });
    expect(await previewed(await workbook(governors(1), 'Sheet1', null), 'c.xlsx')).toMatchObject({ takenAt: now, takenAtFrom: 'upload' });
    expect(await previewed(scanCsv(governors(1)), 'kingdom_scan_after_first_24_hours.csv')).toMatchObject({ takenAt: now, takenAtFrom: 'upload' });
  });

  it('the creation time is what the scan is stored with, and what orders it', async () => {
    const p = await previewed(await workbook(governors(3), 'Sheet1', '2018-04-04T04:04:04Z'), 'old_kingdom_scan.xlsx');
    const applied = await apply(p.token);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.scan).toMatchObject({ takenAt: Date.UTC(2018, 3, 4, 4, 4, 4) });
  });
});

describe('the preview follows its date', () => {
  it('an older file previewed after a newer scan is compared with the scan before its date: no false "went down" warnings', async () => {
    const baseline = governors(30, (i) => ({ name: `Base ${i}`, killpoints: 1_000_000, deads: 5_000 }));
    const older = baseline.map((g, i) => ({ ...g, name: i === 0 ? 'Renamed Early' : g.name, killpoints: 2_000_000, deads: 6_000 }));
    const newer = older.map((g) => ({ ...g, name: g.name, killpoints: 3_000_000, deads: 7_000 }));
    const base = await previewed(scanCsv(baseline), 'dates-2019-03-01.csv');
    expect((await apply(base.token)).status).toBe(200);
    const latest = await previewed(scanCsv(newer), 'dates-2019-03-20.csv');
    expect((await apply(latest.token)).status).toBe(200);

    // the older file dated later than it was taken: compared with the newer scan, every governor "went down"
    const wrong = await previewed(scanCsv(older), 'dates-2019-03-25.csv');
    expect(wrong.previousScan?.takenAt).toBe(Date.UTC(2019, 2, 20));
    expect(wrong.warnings.filter((w) => w.text === SCAN_ROW_TEXTS.wentDown('Killpoints', 3_000_000, 2_000_000))).toHaveLength(30);
    expect(wrong.governors.renamed).toEqual([]);

    // its date changed in the preview: compared again with the scan before the new date
    const answer = await compare(wrong.token, '2019-03-10T12:00:00Z');
    expect(answer.status, answer.text).toBe(200);
    const right = answer.body.preview as ScanPreview;
    expect(right).toMatchObject({ token: wrong.token, takenAt: Date.UTC(2019, 2, 10, 12), takenAtFrom: 'given', rows: 30, valid: 30 });
    expect(right.previousScan?.takenAt).toBe(Date.UTC(2019, 2, 1));
    expect(right.warnings).toEqual([]);
    expect(right.governors.renamed).toEqual([expect.objectContaining({ governorId: baseline[0].id, name: 'Renamed Early', previousName: 'Base 0' })]);
    expect(right.governors.new).toEqual([]);

    // before every scan: nothing to compare with, so every governor is new
    const first = (await compare(wrong.token, Date.UTC(2018, 0, 1))).body.preview as ScanPreview;
    expect(first.previousScan).toBeNull();
    expect(first.governors.new).toHaveLength(30);

    // the apply keeps the date the preview was last compared at
    await compare(wrong.token, Date.UTC(2019, 2, 10, 12));
    const applied = await apply(wrong.token);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.scan).toMatchObject({ takenAt: Date.UTC(2019, 2, 10, 12) });

    // a file named with its true date is compared right from the first answer
    const named = await previewed(scanCsv(older.map((g) => ({ ...g, helps: 11 }))), `dates_${Date.UTC(2019, 2, 15) / 1000}_x.csv`);
    expect(named.previousScan?.takenAt).toBe(Date.UTC(2019, 2, 10, 12));
    expect(named.warnings).toEqual([]);
  });

  it('refuses a time that is not one, a preview that is unknown, another account\'s or already applied', async () => {
    const p = await previewed(scanCsv(governors(1)), 'dates-2019-05-05.csv');
    expect((await compare(p.token, 'soon')).body).toEqual({ result: false, error: SCAN_ERRORS.badTakenAt });
    expect((await compare(p.token, Date.UTC(2016, 0, 1))).body).toEqual({ result: false, error: SCAN_ERRORS.badTakenAt });
    expect((await compare(p.token, undefined)).status).toBe(400);
    expect((await compare('nope', Date.UTC(2019, 0, 1))).body).toEqual({ result: false, error: SCAN_ERRORS.tokenUnknown });
    expect((await call(server, 'POST', '/scans/preview/compare', { token: undefined, body: { token: p.token, takenAt: Date.UTC(2019, 0, 1) } })).status).toBe(401);
    expect((await apply(p.token)).status).toBe(200);
    const used = await compare(p.token, Date.UTC(2019, 0, 1));
    expect(used.status).toBe(409);
    expect(used.body).toEqual({ result: false, error: SCAN_ERRORS.tokenUsed });
  });
});

describe('a scan\'s date corrected after import', () => {
  const redate = (scanId: number, body: Record<string, unknown>, who = admin.token) => call(server, 'PATCH', `/scans/${scanId}`, { token: who, body });
  async function imported(govs: FileGovernor[], takenAt: number): Promise<number> {
    const p = await previewed(scanCsv(govs), `redate-${nextId}.csv`);
    const applied = await apply(p.token, { takenAt });
    expect(applied.status, applied.text).toBe(200);
    return (applied.body.scan as { id: number }).id;
  }

  it('moves the scan in time: the latest, the scan before and the list follow at once; audited; bad input changes nothing', async () => {
    const govs = governors(3);
    const early = await imported(govs, Date.UTC(2030, 0, 1));
    const late = await imported(govs.map((g) => ({ ...g, killpoints: 2_000_000 })), Date.UTC(2030, 0, 10));
    const latest = async () => ((await call(server, 'GET', '/kingdom/summary', { token: council.token })).body as { scan: { id: number }; compare: { id: number } | null });
    expect(await latest()).toMatchObject({ scan: { id: late }, compare: { id: early } });

    // the "late" scan was really taken before the other
    const moved = await redate(late, { takenAt: '2029-12-20T08:00:00Z' });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.scan).toMatchObject({ id: late, takenAt: Date.UTC(2029, 11, 20, 8) });
    expect(await latest()).toMatchObject({ scan: { id: early }, compare: { id: late } });
    const list = (await call(server, 'GET', '/scans', { token: council.token })).body.scans as { id: number }[];
    expect(list.findIndex((x) => x.id === early)).toBeLessThan(list.findIndex((x) => x.id === late));
    const migrants = await call(server, 'GET', '/migrants', { token: council.token });
    expect(migrants.body).toMatchObject({ from: { id: late }, to: { id: early } });

    const audit = await call(server, 'GET', '/audit?action=scan.redate', { token: admin.token });
    expect(audit.body.entries).toContainEqual(expect.objectContaining({ action: 'scan.redate', target: `#${late}`, detail: expect.objectContaining({ wasTakenAt: Date.UTC(2030, 0, 10), takenAt: Date.UTC(2029, 11, 20, 8) }) }));

    // the same date again changes nothing and writes no audit entry
    expect((await redate(late, { takenAt: Date.UTC(2029, 11, 20, 8) })).status).toBe(200);
    expect(((await call(server, 'GET', '/audit?action=scan.redate', { token: admin.token })).body.entries as unknown[]).length).toBe((audit.body.entries as unknown[]).length);

    expect((await redate(late, { takenAt: 'soon' })).body).toEqual({ result: false, error: SCAN_ERRORS.badTakenAt });
    expect((await redate(late, { takenAt: Date.UTC(2101, 0, 1) })).body).toEqual({ result: false, error: SCAN_ERRORS.badTakenAt });
    expect((await redate(late, {})).status).toBe(400);
    expect((await redate(late, { takenAt: Date.UTC(2030, 0, 1), confirm: 'yes' })).body).toEqual({ result: false, error: SCAN_ERRORS.badConfirm });
    expect((await redate(999_999, { takenAt: Date.UTC(2030, 0, 1) })).body).toEqual({ result: false, error: SCAN_ERRORS.unknownScan });
    expect((await call(server, 'PATCH', '/scans/abc', { token: admin.token, body: { takenAt: Date.UTC(2030, 0, 1) } })).body).toEqual({ result: false, error: SCAN_ERRORS.badScanId });
    expect((await redate(late, { takenAt: Date.UTC(2030, 0, 1) }, council.token)).status).toBe(403);
    expect((await call(server, 'PATCH', `/scans/${late}`, { token: undefined, body: { takenAt: Date.UTC(2030, 0, 1) } })).status).toBe(401);
    expect((await findTakenAt(late))).toBe(Date.UTC(2029, 11, 20, 8));
  });

  it('a date that would make paid automatic points overlap is refused with the runs named, and saved only when confirmed', async () => {
    const claimed = nextId++;
    await register(server, { ...newAccount('redate'), playerid: String(claimed) });
    const govs = (kp: number) => [{ id: claimed, name: 'Payee', alliance: 'DT', killpoints: kp }];
    const a = await imported(govs(1_000_000), Date.UTC(2040, 0, 1));
    const b = await imported(govs(3_000_000), Date.UTC(2040, 0, 8));
    const c = await imported(govs(5_000_000), Date.UTC(2040, 0, 15));
    const created = await call(server, 'POST', '/points/rules', { token: council.token, body: { name: 'KP weekly', stat: 'killpoints', per: 1_000_000, points: 1 } });
    expect(created.status, created.text).toBe(200);
    const ruleId = (created.body.rule as { id: number }).id;
    const runIds: number[] = [];
    for (const [from, to] of [[a, b], [b, c]]) {
      const p = await call(server, 'POST', `/points/rules/${ruleId}/preview`, { token: council.token, body: { fromScanId: from, toScanId: to } });
      expect(p.status, p.text).toBe(200);
      const run = await call(server, 'POST', `/points/rules/${ruleId}/apply`, { token: council.token, body: { token: (p.body.preview as { token: string }).token } });
      expect(run.status, run.text).toBe(200);
      runIds.push((run.body.run as { id: number }).id);
    }

    // b moved a little, still between a and c: the two runs stay apart
    expect((await redate(b, { takenAt: Date.UTC(2040, 0, 9) })).status).toBe(200);
    // b moved after c: the run a→b would count the week c→… the run b→c paid, and b→c runs backwards
    const refused = await redate(b, { takenAt: Date.UTC(2040, 0, 20) });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ result: false, error: redateOverlapsText(runIds, ['KP weekly']) });
    expect(await findTakenAt(b)).toBe(Date.UTC(2040, 0, 9));

    const confirmed = await redate(b, { takenAt: Date.UTC(2040, 0, 20), confirm: true });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(await findTakenAt(b)).toBe(Date.UTC(2040, 0, 20));
    const audit = await call(server, 'GET', '/audit?action=scan.redate', { token: admin.token });
    expect(audit.body.entries).toContainEqual(expect.objectContaining({ target: `#${b}`, detail: expect.objectContaining({ overlappingRuns: runIds }) }));
    // the paid runs keep the times they paid for
    const runs = await server.db.selectFrom('points_runs').select(['id', 'from_taken_at', 'to_taken_at']).where('rule_id', '=', ruleId).orderBy('id').execute();
    expect(runs.map((r) => [r.from_taken_at, r.to_taken_at])).toEqual([[Date.UTC(2040, 0, 1), Date.UTC(2040, 0, 8)], [Date.UTC(2040, 0, 8), Date.UTC(2040, 0, 15)]]);
    // back where it was: no new overlap, saved without a word
    expect((await redate(b, { takenAt: Date.UTC(2040, 0, 8) })).status).toBe(200);
  });

  async function findTakenAt(id: number): Promise<number> {
    return (await server.db.selectFrom('scans').select('taken_at').where('id', '=', id).executeTakeFirstOrThrow()).taken_at;
  }
});
