import { readSheet } from 'read-excel-file/node';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_ERRORS } from '../../src/protocol/cards';
import { csvRecords } from './back-office-helpers';
import { call, leadershipServer, signedIn, startTestServer } from './helpers';
import { importScan } from './scan-files';

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let council: Awaited<ReturnType<typeof signedIn>>;
let scanId: number;

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer());
  ({ id: scanId } = await importScan(server, admin.token, Date.UTC(2026, 0, 5), [
    { id: 8_100_001, name: 'Ærin <&> "Tag"', alliance: 'K1', power: 52_000_000, killpoints: 9_000_000, t4Kills: 1_000 },
    { id: 8_100_002, name: '=1+2', alliance: 'K2', power: 41_000_000 },
  ]));
  const answer = await call(server, 'POST', '/points/transactions', { token: admin.token, body: { username: council.username, delta: 250, reason: '=HYPERLINK("x")' } });
  if (answer.status !== 200) throw new Error(answer.text);
});
afterAll(() => server.close());

async function download(path: string, token = council.token) {
  const response = await fetch(server.httpUrl + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get('content-type'), disposition: response.headers.get('content-disposition'), bytes: Buffer.from(await response.arrayBuffer()) };
}

/** One entry of a zip, as text. */
function entry(bytes: Buffer, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on('entry', (e: yauzl.Entry) => {
        if (e.fileName !== name) return zip.readEntry();
        zip.openReadStream(e, (err, stream) => {
          if (err) return reject(err);
          const parts: Buffer[] = [];
          stream.on('data', (p: Buffer) => parts.push(p)).on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
        });
      });
      zip.on('end', () => reject(new Error(`${name} is not in the zip`)));
      zip.readEntry();
    });
  });
}

describe('exports: CSV and XLSX, titled as the pages title their columns, in the reader’s language', () => {
  it('writes the governors as CSV and XLSX with the same rows; text stays text, numbers stay numbers', async () => {
    const csv = await download(`/governors.csv?scan=${scanId}&sort=power&order=desc`);
    expect(csv.status).toBe(200);
    const records = csvRecords(csv.bytes.toString('utf8'));
    expect(records[0].slice(0, 8)).toEqual(['Governor id', 'Governor', 'Alliance', 'Kingdom', 'Power', 'Kill points', 'Deaths', 'T1 kills']);

    const xlsx = await download(`/governors.xlsx?scan=${scanId}&sort=power&order=desc`);
    expect(xlsx.status).toBe(200);
    expect(xlsx.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.disposition).toBe('attachment; filename="governors.xlsx"');
    const sheet = await readSheet(xlsx.bytes);
    expect(sheet[0]).toEqual(records[0]);
    expect(sheet).toHaveLength(3);
    const power = records[0].indexOf('Power');
    expect(sheet[1].slice(0, 3)).toEqual([8_100_001, 'Ærin <&> "Tag"', 'K1']);
    expect(sheet[1][power]).toBe(52_000_000);
    // a cell the CSV guards with a quote is plain text in the workbook: an inline string is never a formula
    expect(records[2][1]).toBe("'=1+2");
    expect(sheet[2][1]).toBe('=1+2');
    // not scanned: empty in both
    expect(records[2][records[0].indexOf('T4 kills')]).toBe('');
    expect(sheet[2][records[0].indexOf('T4 kills')]).toBeNull();
    expect(await entry(xlsx.bytes, 'xl/worksheets/sheet1.xml')).not.toContain('<f>');
  });

  it('takes the language from lang, else from the account; an Arabic workbook reads right to left', async () => {
    const french = await readSheet((await download(`/governors.xlsx?scan=${scanId}&lang=fr`)).bytes);
    expect(french[0].slice(0, 3)).toEqual(['ID du gouverneur', 'Gouverneur', 'Alliance']);
    const compared = csvRecords((await download(`/governors.csv?scan=${scanId}&compare=${scanId}&lang=fr`)).bytes.toString('utf8'));
    expect(compared[0]).toContain('Puissance : variation');

    const arabic = await signedIn(server, 'arabic');
    await call(server, 'POST', `/admin/users/${arabic.username}/rank`, { token: admin.token, body: { rank: 'council' } });
    expect((await call(server, 'POST', '/account/locale', { token: arabic.token, body: { locale: 'ar' } })).status).toBe(200);
    const own = await download(`/governors.xlsx?scan=${scanId}`, arabic.token);
    expect((await readSheet(own.bytes))[0].slice(0, 2)).toEqual(['معرّف الحاكم', 'الحاكم']);
    expect(await entry(own.bytes, 'xl/worksheets/sheet1.xml')).toContain('rightToLeft="1"');
    // lang wins over the account's
    expect(csvRecords((await download(`/governors.csv?scan=${scanId}&lang=en`, arabic.token)).bytes.toString('utf8'))[0][0]).toBe('Governor id');

    const bad = await call(server, 'GET', `/governors.xlsx?lang=xx`, { token: council.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ result: false, error: CARD_ERRORS.badLang });
  });

  it('offers the ledger, the store history and the audit log as XLSX with the same columns as their CSV', async () => {
    for (const [path, token] of [
      ['/points/transactions', council.token],
      ['/store/history', council.token],
      ['/audit', admin.token],
    ] as const) {
      const csv = csvRecords((await download(`${path}.csv?lang=es`, token)).bytes.toString('utf8'));
      const xlsx = await download(`${path}.xlsx?lang=es`, token);
      expect(xlsx.status, path).toBe(200);
      const sheet = await readSheet(xlsx.bytes);
      expect(sheet[0], path).toEqual(csv[0]);
      expect(sheet.length, path).toBe(csv.length);
    }
    const ledger = await readSheet((await download('/points/transactions.xlsx?lang=es')).bytes);
    expect(ledger[0]).toEqual(['ID', 'Fecha', 'Jugador', 'Tipo', 'Puntos', 'Saldo después', 'Motivo', 'Por']);
    expect(ledger[1].slice(2, 7)).toEqual([council.username, 'grant', 250, 250, '=HYPERLINK("x")']);
    const audit = await readSheet((await download('/audit.xlsx?lang=en', admin.token)).bytes);
    expect(audit[0]).toEqual(['When', 'Who', 'Action', 'On what', 'Detail']);
    // a player may not export what they may not read
    const player = await signedIn(server, 'reader');
    expect((await download('/points/transactions.xlsx', player.token)).status).toBe(403);
  });

  it('offers each migrant list as CSV and XLSX, searched as the page searches it', async () => {
    const later = await importScan(server, admin.token, Date.UTC(2026, 0, 12), [
      { id: 8_100_001, name: 'Ærin <&> "Tag"', alliance: 'K1', power: 53_000_000 },
      { id: 8_100_003, name: 'Newcomer', alliance: 'K9', power: 60_000_000 },
      { id: 8_100_004, name: 'Other one', alliance: 'K1', power: 61_000_000 },
    ]);
    const scans = `from=${scanId}&to=${later.id}`;
    const arrived = await download(`/migrants/arrived.xlsx?${scans}&q=k9&lang=fr`);
    expect(arrived.disposition).toBe(`attachment; filename="arrived-${scanId}-${later.id}.xlsx"`);
    expect(await readSheet(arrived.bytes)).toEqual([
      ['ID du gouverneur', 'Gouverneur', 'Alliance', 'Puissance', 'Royaume'],
      [8_100_003, 'Newcomer', 'K9', 60_000_000, null],
    ]);
    const left = csvRecords((await download(`/migrants/left.csv?${scans}`)).bytes.toString('utf8'));
    expect(left).toEqual([
      ['Governor id', 'Governor', 'Alliance', 'Power', 'Kingdom', 'Likely reason'],
      ['8100002', "'=1+2", 'K2', '41000000', '', 'below-cutoff'],
    ]);
    const refused = await call(server, 'GET', `/migrants/left.xlsx?from=${later.id}&to=${scanId}`, { token: council.token });
    expect(refused.status).toBe(400);
  });
});
