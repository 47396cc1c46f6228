import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_FILE_ERRORS, LINK_IMPORT_ERRORS, LINK_ROW_TEMPLATES, LINK_ROW_TEXTS, linkPreview } from '../../src/protocol/player-links';
import { fill } from '../../src/protocol/texts';
import { upload } from './back-office-helpers';
import { call, newAccount, register, signedIn, startTestServer, leadershipServer } from './helpers';
import { importScan } from './scan-files';

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let council: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer());
});
afterAll(() => server.close());

let next = 7_000_000;
/** A governor id no test account claimed. */
const governorId = () => (next += 13);

const preview = (text: string | Buffer, filename = 'links.csv', token = admin.token) =>
  upload(server, '/player-ids/import/preview', token, text, filename, filename.endsWith('.xlsx') ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv');
const apply = (token: string, who = admin.token) => call(server, 'POST', '/player-ids/import/apply', { token: who, body: { token } });
const linkOf = (id: number) => server.db.selectFrom('governor_links as l').innerJoin('users as u', 'u.id', 'l.user_id').select(['u.username', 'l.verified']).where('l.governor_id', '=', id).executeTakeFirst();

describe('farm links from a file', () => {
  it("previews each row's outcome, then links the linkable rows in one audited apply", async () => {
    const farmer = await register(server, newAccount('farmer'));
    const other = await register(server, newAccount('other'));
    const [seen, unseen, taken, already] = [governorId(), governorId(), governorId(), governorId()];
    await importScan(server, admin.token, Date.UTC(2026, 0, 5), [{ id: seen, name: 'Farm One' }, { id: taken, name: 'Not Yours' }]);
    expect((await call(server, 'PUT', `/player-ids/${taken}`, { token: admin.token, body: { username: other.username, verified: true } })).status).toBe(200);
    expect((await call(server, 'PUT', `/player-ids/${already}`, { token: admin.token, body: { username: farmer.username, verified: true } })).status).toBe(200);

    const csv = [
      'Governor ID;Account',
      `${seen};${farmer.username.toUpperCase()}`,
      `${unseen};${farmer.username}`,
      `${taken};${farmer.username}`,
      `${seen};${other.username}`,
      `${governorId()};nobody-${next}`,
      `12ab;${farmer.username}`,
      `${already};${farmer.username}`,
      '',
    ].join('\r\n');
    const answer = await preview(csv);
    expect(answer.status).toBe(200);
    expect(linkPreview.safeParse(answer.body).success).toBe(true);
    expect(answer.body).toMatchObject({ result: true, toLink: 2, unseen: 1, leftOut: 4 });
    expect(answer.body.rows).toEqual([
      { line: 2, governorId: seen, username: farmer.username, name: 'Farm One', outcome: 'link', text: null },
      { line: 3, governorId: unseen, username: farmer.username, name: null, outcome: 'unseen', text: LINK_ROW_TEXTS.unseen },
      { line: 4, governorId: taken, username: farmer.username, name: 'Not Yours', outcome: 'taken', text: fill(LINK_ROW_TEMPLATES.taken, { username: other.username }) },
      { line: 5, governorId: seen, username: other.username, name: 'Farm One', outcome: 'duplicate', text: fill(LINK_ROW_TEMPLATES.duplicate, { line: 2 }) },
      { line: 6, governorId: next, username: `nobody-${next}`, name: null, outcome: 'unknown-account', text: LINK_FILE_ERRORS.unknownAccount },
      { line: 7, governorId: null, username: farmer.username, name: null, outcome: 'invalid', text: LINK_ROW_TEXTS.badGovernorId },
      { line: 8, governorId: already, username: farmer.username, name: null, outcome: 'already', text: LINK_ROW_TEXTS.already },
    ]);
    // a preview links nothing
    expect(await linkOf(seen)).toBeUndefined();

    const applied = await apply(answer.body.token as string);
    expect(applied.status).toBe(200);
    expect(applied.body).toEqual({ result: true, linked: 2 });
    expect(await linkOf(seen)).toEqual({ username: farmer.username, verified: 1 });
    expect(await linkOf(unseen)).toEqual({ username: farmer.username, verified: 1 });
    expect(await linkOf(taken)).toMatchObject({ username: other.username });

    const audit = await call(server, 'GET', '/audit?action=player-id.import', { token: admin.token });
    expect(audit.body.entries).toMatchObject([{ actor: admin.username, action: 'player-id.import', target: '2 governors', detail: { governors: 2, accounts: 1, unseen: 1 } }]);

    // once
    const again = await apply(answer.body.token as string);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ result: false, error: LINK_FILE_ERRORS.tokenUsed });
  });

  it('reads an XLSX without a header, and refuses the whole apply when a governor was linked elsewhere since', async () => {
    const farmer = await register(server, newAccount('xfarmer'));
    const rival = await register(server, newAccount('rival'));
    const [a, b] = [governorId(), governorId()];
    const xlsx = await writeXlsxFile([
      [{ value: a }, { value: farmer.username }],
      [{ value: b }, { value: farmer.username }],
    ]).toBuffer();
    const answer = await preview(xlsx, 'links.xlsx');
    expect(answer.status).toBe(200);
    expect((answer.body.rows as { outcome: string; line: number }[]).map((r) => [r.line, r.outcome])).toEqual([
      [1, 'unseen'],
      [2, 'unseen'],
    ]);
    expect((await call(server, 'PUT', `/player-ids/${b}`, { token: admin.token, body: { username: rival.username } })).status).toBe(200);

    const refused = await apply(answer.body.token as string);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(fill(LINK_ROW_TEMPLATES.takenSince, { line: 2, governorId: b, username: rival.username }));
    // all or nothing
    expect(await linkOf(a)).toBeUndefined();
    expect(await linkOf(b)).toMatchObject({ username: rival.username });
  });

  it('refuses what it cannot read, a preview with nothing to link, and anyone but an admin', async () => {
    const header = await preview('Name,Power\nx,1\n');
    expect(header.status).toBe(400);
    expect(header.body).toEqual({ result: false, error: LINK_IMPORT_ERRORS.header });

    const nothing = await preview(`governor id,account\n${governorId()},nobody-at-all\n`);
    expect(nothing.status).toBe(200);
    expect(nothing.body).toMatchObject({ toLink: 0, leftOut: 1 });
    const refused = await apply(nothing.body.token as string);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ result: false, error: LINK_IMPORT_ERRORS.nothingToLink });

    expect((await preview(`${governorId()},${admin.username}\n`, 'links.csv', council.token)).status).toBe(403);
    // a token is its maker's only
    const mine = await preview(`${governorId()},${admin.username}\n`);
    expect((await apply(mine.body.token as string, council.token)).status).toBe(403);
    const secondAdmin = await signedIn(server, 'admin2');
    await call(server, 'POST', `/admin/users/${secondAdmin.username}/rank`, { token: admin.token, body: { rank: 'admin' } });
    const theirs = await apply(mine.body.token as string, secondAdmin.token);
    expect(theirs.status).toBe(400);
    expect(theirs.body).toEqual({ result: false, error: LINK_FILE_ERRORS.tokenUnknown });

    const missing = await call(server, 'POST', '/player-ids/import/apply', { token: admin.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ result: false, error: LINK_FILE_ERRORS.tokenRequired });
  });
});
