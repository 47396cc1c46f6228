import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_ERRORS, SCAN_ROW_TEXTS, type ScanPreview } from '../../src/protocol/scans';
import { takenAtFromFile } from '../../server/scans/parse';
import { inflateZip, storedZip } from '../../server/points/unzip';
import { upload } from './back-office-helpers';
import { call, leadershipServer } from './helpers';
import { scanCsv, type FileGovernor } from './scan-files';

/** When a scan was taken, read from its file; and a preview that follows its date when it is changed. */

let server: Awaited<ReturnType<typeof leadershipServer>>['server'];
let admin: Awaited<ReturnType<typeof leadershipServer>>['admin'];
const now = Date.UTC(2026, 5, 1, 9, 30);

beforeAll(async () => {
  ({ server, admin } = await leadershipServer({ now: () => now }));
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
