import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_MAX_BYTES, POINTS_ERRORS } from '../../src/protocol/points';
import { STORE_ERRORS, UPLOAD_MAX_BYTES } from '../../src/protocol/store';
import { HTTP_ERRORS } from '../../server/http/errors';
import { readUploadedFile } from '../../server/http/uploads';
import { MAX_PENDING_PER_USER } from '../../server/points/bulk';
import { readCsv, readXlsx, XLSX_LIMITS } from '../../server/points/bulk-file';
import { IMAGES, upload } from './back-office-helpers';
import { call, leadershipServer, newAccount, register, startTestServer, type Answer } from './helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: { token: string; username: string };
let council: { token: string; username: string };

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer());
});
afterAll(() => server.close());

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const preview = (bytes: string | Buffer, filename = 'awards.csv', token = council.token) =>
  upload(server, '/points/bulk/preview', token, bytes, filename, filename.endsWith('.xlsx') ? XLSX_TYPE : 'text/csv');

/** A zip of deflated entries whose directory states `claimed` as every entry's inflated size (a lie for big ones). */
function zipWithClaimedSizes(entries: { name: string; data: Buffer }[], claimed: number): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const packed = zlib.deflateRawSync(data, { level: 9 });
    const nameBytes = Buffer.from(name);
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(claimed, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(8, 10);
    record.writeUInt32LE(crc, 16);
    record.writeUInt32LE(packed.length, 20);
    record.writeUInt32LE(claimed, 24);
    record.writeUInt16LE(nameBytes.length, 28);
    record.writeUInt32LE(offset, 42);
    parts.push(local, nameBytes, packed);
    central.push(record, nameBytes);
    offset += 30 + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/** A workbook whose one sheet is ~100 MB of repeated rows, deflated to a few hundred KB, its directory claiming 1 KB a file. */
function bombXlsx(): Buffer {
  const row = '<row><c t="inlineStr"><is><t>1</t></is></c><c><v>1</v></c></row>';
  const rows = Buffer.alloc(100 * 1024 * 1024, row);
  const sheet = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'), rows, Buffer.from('</sheetData></worksheet>')]);
  const xml = (s: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>${s}`);
  return zipWithClaimedSizes(
    [
      { name: '[Content_Types].xml', data: xml('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>') },
      { name: 'xl/workbook.xml', data: xml('<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>') },
      { name: 'xl/_rels/workbook.xml.rels', data: xml('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>') },
      { name: 'xl/worksheets/sheet1.xml', data: sheet },
    ],
    1024,
  );
}

/** A POST whose multipart body stops in the middle of the file (its Content-Length matches what is sent). */
function cutMultipart(url: string, token: string): Promise<Answer> {
  const boundary = 'kingdomboundary';
  const body = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nusername,amount,reason\r\nsomeone,10,half a fi`);
  return new Promise((resolve, reject) => {
    const request = http.request(
      server.httpUrl + url,
      { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length, authorization: `Bearer ${token}` } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: new Headers(), body: JSON.parse(text) as Record<string, unknown>, text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('uploads are read whole or refused', () => {
  it('refuses a CSV cut at the size limit instead of previewing its shortened last row (2 MB + 6 bytes)', async () => {
    const who = await register(server, newAccount('cut'));
    const head = `username,reason,amount\n${who.username},first,5\n`;
    const last = `${who.username},bonus,1000000\n`;
    // blank lines are skipped: they only bring the file to the limit, so a cut at 2 MB leaves "…,10"
    const csv = head + '\n'.repeat(BULK_MAX_BYTES + 6 - head.length - last.length) + last;
    expect(Buffer.byteLength(csv)).toBe(BULK_MAX_BYTES + 6);
    const answer = await preview(csv);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error: POINTS_ERRORS.bulkTooLarge });
    // the same file one byte within the limit is read to its end
    const whole = head + '\n'.repeat(BULK_MAX_BYTES - head.length - last.length) + last;
    const fits = await preview(whole);
    expect(fits.status).toBe(200);
    expect((fits.body.rows as { amount: number }[]).map((r) => r.amount)).toEqual([5, 1_000_000]);
  });

  it('checks the part\'s truncated flag after the last chunk too (the plugin only looks between chunks)', async () => {
    // the state @fastify/multipart leaves when busboy cuts the file after the reader took its last chunk
    const limit = 16;
    const request = {
      isMultipart: () => true,
      async *parts() {
        yield { type: 'file', filename: 'a.csv', file: { truncated: true }, toBuffer: async () => Buffer.from('alice,1000000,ok'.slice(0, limit)) };
      },
    };
    const texts = { missing: 'missing', tooLarge: 'too large' };
    await expect(readUploadedFile(request as never, limit, texts)).rejects.toMatchObject({ kind: 'invalid', message: 'too large' });
    const whole = {
      ...request,
      async *parts() {
        yield { type: 'file', filename: 'a.csv', file: { truncated: false }, toBuffer: async () => Buffer.from('alice,10,ok') };
      },
    };
    expect((await readUploadedFile(whole as never, limit, texts)).bytes.toString()).toBe('alice,10,ok');
  });

  it('refuses an image over the limit and stores nothing of it', async () => {
    const uploads = path.join(server.dir, 'data', 'uploads');
    const before = fs.readdirSync(uploads);
    for (const extra of [1, 6, 70_000]) {
      const big = Buffer.concat([IMAGES.png, Buffer.alloc(UPLOAD_MAX_BYTES + extra - IMAGES.png.length, 7)]);
      const answer = await upload(server, '/store/uploads', council.token, big, 'big.png', 'image/png');
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ result: false, error: STORE_ERRORS.uploadTooLarge });
    }
    expect(fs.readdirSync(uploads)).toEqual(before);
  });

  it('answers a multipart body cut short with a 400, on both upload routes', async () => {
    for (const url of ['/points/bulk/preview', '/store/uploads']) {
      const answer = await cutMultipart(url, council.token);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ result: false, error: HTTP_ERRORS.uploadIncomplete });
    }
    // and the server goes on serving
    expect((await preview(`${admin.username},1,ok\n`)).status).toBe(200);
  });

  it('refuses an XLSX bomb whose directory lies, having inflated no more than its limit', async () => {
    const bomb = bombXlsx();
    expect(bomb.length).toBeLessThan(BULK_MAX_BYTES);
    let inflated = 0;
    await expect(readXlsx(bomb, (n) => (inflated = n))).rejects.toMatchObject({ kind: 'invalid', message: HTTP_ERRORS.unpackedTooLarge });
    expect(inflated).toBeGreaterThan(XLSX_LIMITS.maxTotalBytes);
    // stopped within one zlib chunk of the limit, far from the ~100 MB the sheet holds
    expect(inflated).toBeLessThanOrEqual(XLSX_LIMITS.maxTotalBytes + 64 * 1024);

    // told what was too large: the unpacked contents, not the file it sent (which is well under the limit)
    const answer = await preview(bomb, 'bomb.xlsx');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error: HTTP_ERRORS.unpackedTooLarge });
    // a scan file too, past the scans' own (larger) limit
    const scan = await upload(server, '/scans/preview', admin.token, bomb, 'bomb.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(scan.status).toBe(400);
    expect(scan.body).toEqual({ result: false, error: HTTP_ERRORS.unpackedTooLarge });
  });

  it('still reads an honest workbook of 10,000 rows within the limit', async () => {
    const rows: unknown[][] = [[{ value: 'Username' }, { value: 'Amount' }, { value: 'Reason' }]];
    for (let i = 0; i < 10_000; i++) rows.push([{ value: `nobody${i}` }, { value: 1_000_000 }, { value: `${'r'.repeat(190)}${i}` }]);
    const bytes = await writeXlsxFile(rows as never).toBuffer();
    let inflated = 0;
    const read = await readXlsx(bytes, (n) => (inflated = n));
    expect(read).toHaveLength(10_001);
    expect(read[10_000]).toEqual({ line: 10_001, cells: ['nobody9999', 1_000_000, `${'r'.repeat(190)}9999`] });
    expect(inflated).toBeLessThan(XLSX_LIMITS.maxTotalBytes / 4);
  });

  it('parses a large CSV a chunk at a time, letting the event loop run between chunks', async () => {
    const line = 'someone,12345,a reason of some length for this award\n';
    const csv = Buffer.from(`username,amount,reason\n${line.repeat(Math.floor((BULK_MAX_BYTES - 30) / line.length))}`);
    let turns = 0;
    let beating = true;
    const beat = () => {
      turns += 1;
      if (beating) setImmediate(beat);
    };
    setImmediate(beat);
    const rows = await readCsv(csv);
    beating = false;
    expect(rows.length).toBe(Math.floor((BULK_MAX_BYTES - 30) / line.length) + 1);
    expect(rows.at(-1)).toEqual({ line: rows.length, cells: ['someone', '12345', 'a reason of some length for this award'] });
    // one turn at least per 64 KB chunk: the parse never held the loop for the whole file
    expect(turns).toBeGreaterThanOrEqual(Math.floor(csv.length / (64 * 1024)));
  });

  it('keeps multi-byte characters whole across chunk edges', async () => {
    const reason = 'é'.repeat(40_000); // 80,000 bytes: crosses a 64 KB edge inside a character
    const rows = await readCsv(Buffer.from(`\uFEFFalice,1,${reason}\n`));
    expect(rows).toEqual([{ line: 1, cells: ['alice', '1', reason] }]);
  });

  it("keeps each account's previews: another's many previews never push one out", async () => {
    const earlier = await preview(`${council.username},3,mine\n`, 'awards.csv', admin.token);
    expect(earlier.status).toBe(200);
    for (let i = 0; i < MAX_PENDING_PER_USER + 60; i++) expect((await preview(`${admin.username},1,n${i}\n`)).status).toBe(200);
    const applied = await call(server, 'POST', '/points/bulk/apply', { token: admin.token, body: { token: earlier.body.token } });
    expect(applied.body).toEqual({ result: true, applied: 1 });
  });

  it("drops an account's own oldest preview past its limit", async () => {
    const first = await preview(`${admin.username},1,first\n`);
    for (let i = 0; i < MAX_PENDING_PER_USER; i++) await preview(`${admin.username},1,n${i}\n`);
    const applied = await call(server, 'POST', '/points/bulk/apply', { token: council.token, body: { token: first.body.token } });
    expect(applied.status).toBe(400);
    expect(applied.body).toEqual({ result: false, error: POINTS_ERRORS.bulkTokenUnknown });
  });
});

describe('JSON bodies', () => {
  it('refuses a body that is not valid UTF-8 instead of storing replacement characters', async () => {
    const account = newAccount('utf');
    const json = Buffer.concat([Buffer.from(`{"email":"${account.email}","password":"${account.password}","playerid":"${account.playerid}","username":"ab`), Buffer.from([0xff, 0xfe]), Buffer.from('c"}')]);
    const response = await fetch(`${server.httpUrl}/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ status: 'error', error: HTTP_ERRORS.invalidUtf8 });
    expect(await server.db.selectFrom('users').select('id').where('email', '=', account.email).executeTakeFirst()).toBeUndefined();
  });
});
