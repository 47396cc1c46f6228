import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { HTTP_ERRORS } from '../../src/protocol/http';
import { SCAN_TEMPLATES } from '../../src/protocol/scans';
import { fill } from '../../src/protocol/texts';
import { readUploadedFile } from '../../server/http/uploads';
import { upload } from './back-office-helpers';
import { call, leadershipServer, newAccount, type Answer } from './helpers';

/**
 * One text rule for every request and every stored name, the same on SQLite and PostgreSQL: a NUL
 * anywhere is a 400 with a sentence (PostgreSQL cannot store one: it answered 500), and the names
 * leadership gives things refuse controls, lone surrogates and text-direction overrides as usernames do.
 */

let ctx: Awaited<ReturnType<typeof leadershipServer>>;
beforeAll(async () => {
  ctx = await leadershipServer();
});
afterAll(() => ctx.server.close());

const NUL = '\u0000';
const refusedFor = (error: string) => ({ status: 400, error });
const seen = (answer: Answer) => ({ status: answer.status, error: answer.body.error });

describe('a NUL in any text is a 400 with a sentence, on both databases', () => {
  it('in a body, signed in or not (sign-in and sign-up included)', async () => {
    const account = newAccount('nul');
    const cases: [string, string, unknown, string | undefined][] = [
      ['POST', '/auth/login', { email: `a${NUL}@k.test`, password: 'Passw0rd!' }, undefined],
      ['POST', '/auth/register', { ...account, email: `x${NUL}${account.email}` }, undefined],
      ['POST', '/auth/register', { ...account, password: `Passw0rd!${NUL}` }, undefined],
      ['POST', '/points/transactions', { username: ctx.council.username, delta: 5, reason: `thanks${NUL}` }, ctx.admin.token],
      ['POST', '/store/items', { itemName: 'Gem', description: `a${NUL}b`, start_price: 1, minIncrement: 1, duration: 3600, extendWindow: 0, maxExtensions: 0 }, ctx.admin.token],
      ['POST', '/kingdom/groups', { name: `g${NUL}` }, ctx.admin.token],
      ['POST', '/bots/1/commands', { command: 'status', args: [`x${NUL}`] }, ctx.admin.token],
      ['POST', '/account/password', { oldPassword: `Passw0rd!${NUL}`, newPassword: 'Passw0rd!2' }, ctx.council.token],
      // a key, not only a value
      ['POST', '/auth/login', { email: 'a@k.test', password: 'Passw0rd!', [`x${NUL}`]: 1 }, undefined],
    ];
    for (const [method, url, body, token] of cases) {
      const answer = await call(ctx.server, method, url, { body, token });
      expect(seen(answer), `${method} ${url}`).toEqual(refusedFor(HTTP_ERRORS.nulCharacter));
    }
  });

  it('in a query string and in a path', async () => {
    for (const url of ['/governors?q=%00', '/audit?actor=a%00', '/points/transactions?username=%00', '/admin/users/a%00b/rank']) {
      const method = url.endsWith('/rank') ? 'POST' : 'GET';
      const answer = await call(ctx.server, method, url, { token: ctx.admin.token, ...(method === 'POST' ? { body: { rank: 'council' } } : {}) });
      expect(seen(answer), url).toEqual(refusedFor(HTTP_ERRORS.nulCharacter));
    }
    // PUT /alliances/%00 made an alliance whose tag is a NUL
    const alliance = await call(ctx.server, 'PUT', '/alliances/%00', { token: ctx.admin.token, body: { name: 'Nobody', ours: true } });
    expect(seen(alliance)).toEqual(refusedFor(HTTP_ERRORS.nulCharacter));
  });

  it("refuses a scan with a NUL in a governor's name at the preview, naming the line (a bot's JSON Lines scan applied with a 500)", async () => {
    const lines = [{ ID: 51000001, Name: 'Clean', Power: 10, Killpoints: 1, Alliance: 'AA' }, { ID: 51000002, Name: `Bad${NUL}Name`, Power: 20, Killpoints: 2, Alliance: 'AA' }];
    const jsonl = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
    const answer = await upload(ctx.server, '/scans/preview', ctx.admin.token, jsonl, 'nul-2025-01-01.jsonl', 'application/jsonl');
    expect(seen(answer)).toEqual(refusedFor(fill(SCAN_TEMPLATES.nulAt, { line: 2 })));
    // in an alliance tag of a CSV, past the first 8 KB the reader sniffs for binary files
    const csv = `ID,Name,Alliance,Power\n${Array.from({ length: 400 }, (_, i) => `${52000000 + i},Governor number ${i} with a long name,AA,1000`).join('\n')}\n52999999,Last,A${NUL}A,5\n`;
    expect(csv.indexOf(NUL)).toBeGreaterThan(8192);
    const csvAnswer = await upload(ctx.server, '/scans/preview', ctx.admin.token, csv, 'nul.csv', 'text/csv');
    expect(seen(csvAnswer)).toEqual(refusedFor(fill(SCAN_TEMPLATES.nulAt, { line: 402 })));
    expect(await ctx.server.db.selectFrom('scans').select('id').execute()).toEqual([]);
  });

  it('in a multipart field or file name', async () => {
    const form = new FormData();
    form.append('takenAt', `2025-01-01${NUL}`);
    form.append('file', new Blob(['ID,Name\n51000003,A\n']), 'x.csv');
    const response = await fetch(`${ctx.server.httpUrl}/scans/preview`, { method: 'POST', body: form, headers: { authorization: `Bearer ${ctx.admin.token}` } });
    expect({ status: response.status, error: ((await response.json()) as { error: unknown }).error }).toEqual(refusedFor(HTTP_ERRORS.nulCharacter));
    const named = await upload(ctx.server, '/scans/preview', ctx.admin.token, 'ID,Name\n51000004,A\n', `a${NUL}.csv`, 'text/csv');
    expect(seen(named)).toEqual(refusedFor(HTTP_ERRORS.nulCharacter));
  });
});

describe('every stored name follows the text rule usernames follow', () => {
  const hidden = {
    'a lone surrogate': 'Name \uD800',
    'a right-to-left override': 'Name \u202Egnp.exe',
    'a control character': 'Name \u0007',
    'a line separator': 'Name\u2028two',
    'a direction isolate': '\u2066Name\u2069',
  };
  const named = (name: string): [string, string, Record<string, unknown>][] => [
    ['POST', '/points/rules', { name, stat: 'killpoints', per: 1000, points: 1 }],
    ['POST', '/kvk/seasons', { name, startScanId: 1 }],
    ['PUT', '/kvk/seasons/1/marks/51000001', { mark: 'exempt', reason: name }],
    ['POST', '/kingdoms', { number: 1999, name }],
    ['POST', '/kingdoms', { number: 1998, name: 'Fine', camp: name }],
    ['PUT', '/alliances/AB', { name, ours: true }],
    ['POST', '/bots', { name }],
    ['POST', '/kingdom/groups', { name }],
    ['POST', '/kingdom/settings', { kingdomName: name }],
    ['POST', '/store/items', { itemName: name, start_price: 1, minIncrement: 1, duration: 3600, extendWindow: 0, maxExtensions: 0 }],
    ['POST', '/points/transactions', { username: 'anyone', delta: 5, reason: name }],
  ];
  for (const [what, name] of Object.entries(hidden)) {
    it(`refuses ${what} in every name (400 with a sentence)`, async () => {
      for (const [method, url, body] of named(name)) {
        const answer = await call(ctx.server, method, url, { body, token: ctx.admin.token });
        expect(seen(answer), `${method} ${url}`).toEqual(refusedFor(HTTP_ERRORS.hiddenCharacters));
      }
      // a URL cannot carry a lone surrogate (its UTF-8 does not exist); the others reach the path tag
      if (what === 'a lone surrogate') return;
      const tag = await call(ctx.server, 'PUT', `/alliances/${encodeURIComponent(name)}`, { token: ctx.admin.token, body: { name: 'Fine', ours: true } });
      expect(seen(tag), 'the path tag of PUT /alliances/:tag').toEqual(refusedFor(HTTP_ERRORS.hiddenCharacters));
    });
  }

  it('keeps names of every script, joiners and emoji sequences included', async () => {
    for (const name of ['Ⅴ الملوك', 'تیم‌ما', '👨‍👩‍👧 Family', 'Rí Khánh ✦']) {
      const answer = await call(ctx.server, 'POST', '/points/rules', { token: ctx.admin.token, body: { name, stat: 'killpoints', per: 1000, points: 1 } });
      expect(answer.status, answer.text).toBe(200);
    }
    const usernames = await call(ctx.server, 'POST', '/auth/register', { body: { ...newAccount('x'), username: 'A\u202Eb' } });
    expect(seen(usernames)).toEqual({ status: 400, error: AUTH_ERRORS.usernameCharacters });
  });
});

/** A multipart body written by hand: `takenAt` after the file, the whole sent at once or a part per write. */
function multipart(parts: string[], token: string, boundary: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const length = parts.reduce((n, p) => n + Buffer.byteLength(p), 0);
    const request = http.request(
      `${ctx.server.httpUrl}/scans/preview`,
      { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length, authorization: `Bearer ${token}` } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: new Headers(), body: JSON.parse(text) as Record<string, unknown>, text }));
      },
    );
    request.on('error', reject);
    // each part its own write, flushed before the next is handed over
    const writeFrom = (i: number) => {
      if (i === parts.length) return request.end();
      request.write(parts[i], () => writeFrom(i + 1));
    };
    writeFrom(0);
  });
}

describe('a multipart field after the file', () => {
  it('is read wherever it comes, however the upload is cut into writes', async () => {
    const boundary = 'fieldafterfile';
    const file = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="later.csv"\r\nContent-Type: text/csv\r\n\r\nID,Name\r\n51000009,Later\r\n`;
    const field = `\r\n--${boundary}\r\nContent-Disposition: form-data; name="takenAt"\r\n\r\n2024-02-03T04:05:06Z\r\n--${boundary}--\r\n`;
    const takenAt = Date.UTC(2024, 1, 3, 4, 5, 6);
    for (const parts of [[file + field], [file, field], [file + field.slice(0, 4), field.slice(4)]]) {
      const answer = await multipart(parts, ctx.admin.token, boundary);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.preview, `${parts.length} writes`).toMatchObject({ takenAt, takenAtFrom: 'given' });
    }
  });

  it('is read when the file has ended before the field arrives (the reader goes on to the end of the form)', async () => {
    // @fastify/multipart's state when the file's last chunk came before the field: the file part is
    // whole, the field not parsed yet; a reader that stops at the file never sees it
    const file = { type: 'file', fieldname: 'file', filename: 'later.csv', file: { truncated: false }, toBuffer: async () => Buffer.from('ID,Name\n1,A\n'), fields: {} };
    const request = {
      isMultipart: () => true,
      file: async () => file,
      async *parts() {
        yield file;
        yield { type: 'field', fieldname: 'takenAt', value: '2024-02-03T04:05:06Z' };
      },
    };
    const read = await readUploadedFile(request as never, 1024, { missing: 'missing', tooLarge: 'too large' });
    expect(read.fields).toEqual({ takenAt: '2024-02-03T04:05:06Z' });
  });
});
