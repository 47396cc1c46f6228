import { sql } from 'kysely';
import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_MAX_BYTES, BULK_MAX_ROWS, BULK_ROW_ERRORS, bulkPreview, POINTS_ERRORS } from '../../src/protocol/points';
import { upload } from './back-office-helpers';
import { bidCreated, bidder, counts, createItem, expectBooksBalance, grant, ManualClock, sendBid, userRow } from './auction-helpers';
import { authedSocket, call, newAccount, register, signedIn, startTestServer, leadershipServer } from './helpers';
import { uniqueNumber } from './seed';

const clock = new ManualClock();
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let council: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer({ now: clock.now }));
});
afterAll(() => server.close());

let idCounter = 0;
/** A player with a governor id of their own. */
async function player(prefix = 'bk') {
  idCounter += 1;
  return register(server, { ...newAccount(prefix), playerid: String(5_000_000 + idCounter * 7) });
}

const preview = (text: string | Buffer, filename = 'awards.csv', token = council.token) =>
  upload(server, '/points/bulk/preview', token, text, filename, filename.endsWith('.xlsx') ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv');
const apply = (token: string, who = council.token) => call(server, 'POST', '/points/bulk/apply', { token: who, body: { token } });
const balanceOf = async (username: string) =>
  (await server.db.selectFrom('users').select('balance').where('username', '=', username).executeTakeFirstOrThrow()).balance;

describe('bulk award preview', () => {
  it('reads a CSV with a header, by governor id or username, and applies it all at once; each player hears of it', async () => {
    const a = await player();
    const b = await player();
    const bToken = (await call(server, 'POST', '/auth/login', { body: { email: b.email, password: b.password } })).body.token as { access_token: string };
    const socket = await authedSocket(server.userUrl, bToken.access_token);
    socket.send({ type: 'GET_STATUS' });
    await socket.nextOf('STATUS');

    const csv = `Governor ID,Username,Amount,Reason\r\n${a.playerid},,500,KvK top 10\r\n,${b.username.toUpperCase()},250,"Helps, lots"\r\n\r\n${a.playerid},,-100,Correction\r\n`;
    const answer = await preview(csv);
    expect(answer.status).toBe(200);
    expect(bulkPreview.safeParse(answer.body).success).toBe(true);
    expect(answer.body).toMatchObject({
      result: true,
      valid: 3,
      invalid: 0,
      rows: [
        { line: 2, username: a.username, playerid: a.playerid, amount: 500, reason: 'KvK top 10', error: null },
        { line: 3, username: b.username, playerid: b.playerid, amount: 250, reason: 'Helps, lots', error: null },
        { line: 5, username: a.username, playerid: a.playerid, amount: -100, reason: 'Correction', error: null },
      ],
    });
    // nothing applied by the preview
    expect(await balanceOf(a.username)).toBe(0);

    const applied = await apply(answer.body.token as string);
    expect(applied.status).toBe(200);
    expect(applied.body).toEqual({ result: true, applied: 3 });
    expect(await balanceOf(a.username)).toBe(400);
    expect(await balanceOf(b.username)).toBe(250);
    expect(await socket.nextOf('VIRTUAL_BALANCE_UPDATE')).toEqual({ type: 'VIRTUAL_BALANCE_UPDATE', data: { balance: 250, reserved: 0, available: 250 } });
    socket.close();

    const ledger = await call(server, 'GET', `/points/transactions?username=${a.username}`, { token: admin.token });
    expect(ledger.body).toMatchObject({
      total: 2,
      transactions: [
        { kind: 'deduct', delta: -100, reason: 'Correction', actor: council.username },
        { kind: 'grant', delta: 500, reason: 'KvK top 10', actor: council.username },
      ],
    });

    // a token applies once
    const again = await apply(answer.body.token as string);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ result: false, error: POINTS_ERRORS.bulkTokenUsed });
    expect(await balanceOf(a.username)).toBe(400);
    await expectBooksBalance(server.db);
  });

  it('names the earlier applies of the same file (same bytes), so it is not paid twice by mistake', async () => {
    const a = await player();
    const csv = `player,amount,reason\r\n${a.username},40,Weekly helps ${a.username}\r\n`;
    const first = await preview(csv);
    expect(first.body.earlier).toEqual([]);
    clock.advance(1_000);
    expect((await apply(first.body.token as string)).status).toBe(200);
    const appliedAt = clock.now();
    // the same file again, under another name: the preview says when, by whom, what it paid
    const again = await preview(csv, 'awards-copy.csv');
    expect(again.status).toBe(200);
    expect(bulkPreview.safeParse(again.body).success).toBe(true);
    expect(again.body.earlier).toEqual([{ at: appliedAt, by: council.username, rows: 1, total: 40 }]);
    // a file that differs by a byte has no earlier apply
    expect((await preview(`${csv}\r\n`)).body.earlier).toEqual([]);
    // applying it again is a person's decision: it pays again, and both applies are named after
    expect((await apply(again.body.token as string)).status).toBe(200);
    expect(await balanceOf(a.username)).toBe(80);
    expect(((await preview(csv)).body.earlier as unknown[]).length).toBe(2);
  });

  it('reads a header row in any of the app’s languages, as its pages name the columns', async () => {
    const a = await player();
    for (const header of ['Joueur;Montant;Motif', 'ID de gouverneur;Montant;Motif', 'Jugador;Cantidad;Motivo', 'Giocatore;Quantità;Motivo', 'اللاعب;المقدار;السبب', 'معرّف الحاكم;النقاط;السبب', '总督 ID;数量;原因', '玩家;积分;理由']) {
      const answer = await preview(`${header}\r\n${a.playerid};12;KvK\r\n`);
      expect(answer.status, header).toBe(200);
      expect(answer.body, header).toMatchObject({ valid: 1, invalid: 0, rows: [{ line: 2, username: a.username, amount: 12, reason: 'KvK', error: null }] });
    }
  });

  it('reads a file without a header (id or username first) and semicolon-separated files', async () => {
    const a = await player();
    const b = await player();
    const answer = await preview(`${a.playerid};10;one\n${b.username};20;two\n`);
    expect(answer.body).toMatchObject({
      valid: 2,
      rows: [
        { line: 1, username: a.username, amount: 10, reason: 'one', error: null },
        { line: 2, username: b.username, amount: 20, reason: 'two', error: null },
      ],
    });
  });

  it('reads an XLSX workbook (by its content, whatever the name)', async () => {
    const a = await player();
    const b = await player();
    const data = [
      [{ value: 'Player ID' }, { value: 'Amount' }, { value: 'Reason' }],
      [{ value: Number(a.playerid) }, { value: 1200 }, { value: 'Season 3' }],
      [null, null, null],
      [{ value: Number(b.playerid) }, { value: 2.5 }, { value: 'half' }],
    ];
    const bytes = await writeXlsxFile(data as never).toBuffer();
    const answer = await preview(bytes, 'awards.dat');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      valid: 1,
      invalid: 1,
      rows: [
        { line: 2, username: a.username, playerid: a.playerid, amount: 1200, reason: 'Season 3', error: null },
        { line: 4, username: b.username, amount: null, error: BULK_ROW_ERRORS.amount },
      ],
    });
  });

  it('gives every bad row its error, and then nothing is applied', async () => {
    const a = await player();
    // two accounts on one governor id: only a database from before ids were unique has them (0005 leaves them out of its index)
    await sql`drop index users_playerid_unique`.execute(server.db);
    const twinA = await register(server, { ...newAccount('twin'), playerid: '424242' });
    const twinB = await register(server, { ...newAccount('twin'), playerid: '424243' });
    await server.db.updateTable('users').set({ playerid: '424242' }).where('username', '=', twinB.username).execute();
    await sql`create unique index users_playerid_unique on users (playerid) where playerid not in ('424242')`.execute(server.db);
    const csv = [
      'governor id,username,amount,reason',
      `${a.playerid},,100,good`, // 2
      `${a.playerid},${a.username},100,both`, // 3
      ',,100,neither', // 4
      '999999999,,100,unknown id', // 5
      ',no-such-player,100,unknown name', // 6
      `,${a.username},0,zero`, // 7
      `,${a.username},1.5,fraction`, // 8
      `,${a.username},ten,words`, // 9
      `,${a.username},5000000000,huge`, // 10
      `,${a.username},100,`, // 11
      `,${a.username},100,${'r'.repeat(201)}`, // 12
      '424242,,100,twins', // 13
      ',no-one,x,', // 14: every error at once
    ].join('\n');
    const before = await counts(server.db);
    const answer = await preview(csv);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ valid: 1, invalid: 12 });
    const errors = (answer.body.rows as { line: number; error: string | null }[]).map((r) => [r.line, r.error]);
    expect(errors).toEqual([
      [2, null],
      [3, BULK_ROW_ERRORS.bothIds],
      [4, BULK_ROW_ERRORS.noPlayer],
      [5, BULK_ROW_ERRORS.unknownPlayerId],
      [6, BULK_ROW_ERRORS.unknownUsername],
      [7, BULK_ROW_ERRORS.amount],
      [8, BULK_ROW_ERRORS.amount],
      [9, BULK_ROW_ERRORS.amount],
      [10, BULK_ROW_ERRORS.amountTooLarge],
      [11, BULK_ROW_ERRORS.reasonRequired],
      [12, BULK_ROW_ERRORS.reasonTooLong],
      [13, BULK_ROW_ERRORS.ambiguousPlayerId],
      [14, `${BULK_ROW_ERRORS.unknownUsername} ${BULK_ROW_ERRORS.amount} ${BULK_ROW_ERRORS.reasonRequired}`],
    ]);
    const refused = await apply(answer.body.token as string);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ result: false, error: POINTS_ERRORS.bulkHasErrors });
    expect(await counts(server.db)).toEqual(before);
    expect(await balanceOf(a.username)).toBe(0);
    for (const twin of [twinA, twinB]) expect(await balanceOf(twin.username)).toBe(0);
  });

  it('a column holds governor ids or usernames whatever its header ("governor id", "username", "player"), and each row says which it matched', async () => {
    const a = await player();
    const b = await player();
    // a username that is all digits (only a database from before sign-up refused them has one), and another player's governor id that is the same digits
    const digitsName = `7${uniqueNumber()}`;
    const digits = await register(server, { ...newAccount('dg') });
    await server.db.updateTable('users').set({ username: digitsName }).where('username', '=', digits.username).execute();
    digits.username = digitsName;
    const owner = await register(server, { ...newAccount('ow'), playerid: digits.username });
    const rows = (body: Record<string, unknown>) => (body.rows as { username: string | null; matchedBy: string | null; error: string | null }[]).map((r) => [r.username, r.matchedBy, r.error]);

    const underId = await preview(`Governor ID,Amount,Reason\n${a.playerid},10,by id\n${b.username},20,by name\n${digits.username},5,digits\nnobody-here,1,x\n`);
    expect(underId.status).toBe(200);
    expect(rows(underId.body)).toEqual([
      [a.username, 'playerid', null],
      [b.username, 'username', null],
      [owner.username, 'playerid', null], // the header says governor id: that is tried first
      ['nobody-here', null, BULK_ROW_ERRORS.unknownUsername],
    ]);

    const underName = await preview(`username;amount;reason\n${a.playerid};10;by id\n${digits.username};5;digits\n`);
    expect(rows(underName.body)).toEqual([
      [a.username, 'playerid', null],
      [digits.username, 'username', null], // the header says username: that is tried first
    ]);

    const underPlayer = await preview(`Player,Points,Reason\n${a.playerid},10,by id\n${b.username.toUpperCase()},20,by name\n`);
    expect(underPlayer.status).toBe(200);
    expect(underPlayer.body).toMatchObject({ valid: 2, invalid: 0 });
    expect(rows(underPlayer.body)).toEqual([
      [a.username, 'playerid', null],
      [b.username, 'username', null],
    ]);
    expect((await apply(underPlayer.body.token as string)).body).toEqual({ result: true, applied: 2 });
    expect(await balanceOf(b.username)).toBe(20);

    // without a header, too
    const bare = await preview(`${b.username},1,x\n${a.playerid},1,y\n`);
    expect(rows(bare.body)).toEqual([
      [b.username, 'username', null],
      [a.username, 'playerid', null],
    ]);
  });

  it('pays a governor id to the account it is linked to, as automatic points do: a farm, and a main an admin moved to another account', async () => {
    const a = await player();
    const b = await player();
    const farm = String(6_000_000 + uniqueNumber());
    const link = (governorId: string, username: string) => call(server, 'PUT', `/player-ids/${governorId}`, { token: admin.token, body: { username, verified: true } });
    expect((await link(farm, a.username)).status).toBe(200);
    // a's sign-up id, linked by an admin to b (a's claim was someone else's governor)
    expect((await link(a.playerid, b.username)).status).toBe(200);
    const answer = await preview(`governor id,amount,reason
${farm},30,farm award
${a.playerid},40,main award
`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ valid: 2, invalid: 0 });
    expect((answer.body.rows as { username: string; playerid: string; matchedBy: string }[]).map((r) => [r.username, r.playerid, r.matchedBy])).toEqual([
      [a.username, farm, 'playerid'],
      [b.username, a.playerid, 'playerid'],
    ]);
    expect((await apply(answer.body.token as string)).body).toEqual({ result: true, applied: 2 });
    expect([await balanceOf(a.username), await balanceOf(b.username)]).toEqual([30, 40]);
  });

  it('says "more than the balance" for a deduction larger than the balance, and "below the reserved points" only when bids hold them', async () => {
    const a = await player();
    await grant(server, admin.token, a.username, 100);
    const answer = await preview(`username,amount,reason\n${a.username},-60,ok\n${a.username},-60,too much\n`);
    expect((answer.body.rows as { error: string | null }[]).map((r) => r.error)).toEqual([null, BULK_ROW_ERRORS.moreThanBalance]);
  });

  it('flags a row that would take a balance below what is reserved, counting the rows before it', async () => {
    const item = await createItem(server, admin.token, { duration: 600 });
    const p = await bidder(server, admin.token, 1_000, 'res');
    sendBid(p.auction, item.itemId, 700);
    await bidCreated(p.auction, item.itemId, 700, p.username);
    const answer = await preview(`username,amount,reason\n${p.username},-200,ok\n${p.username},-200,too far\n${p.username},500,back up\n`);
    expect((answer.body.rows as { error: string | null }[]).map((r) => r.error)).toEqual([null, BULK_ROW_ERRORS.belowReserved, null]);
    p.auction.close();
    p.user.close();
  });

  it('fails the whole apply when a balance would now go below what is reserved (a bid came in after the preview)', async () => {
    const item = await createItem(server, admin.token, { duration: 600 });
    const rich = await player();
    const p = await bidder(server, admin.token, 1_000, 'late');
    const answer = await preview(`username,amount,reason\n${rich.username},300,first row is fine\n${p.username},-800,season fee\n`);
    expect(answer.body).toMatchObject({ valid: 2, invalid: 0 });
    // now the player leads with 500 of their 1,000: -800 would leave 200 < 500 reserved
    sendBid(p.auction, item.itemId, 500);
    await bidCreated(p.auction, item.itemId, 500, p.username);
    const before = await counts(server.db);

    const refused = await apply(answer.body.token as string);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ result: false, error: `Line 3 (${p.username}): ${POINTS_ERRORS.belowReserved} Nothing was applied.` });
    expect(await counts(server.db)).toEqual(before);
    expect(await balanceOf(rich.username)).toBe(0);
    expect(await userRow(server.db, p.id)).toMatchObject({ balance: 1_000, reserved: 500 });
    await expectBooksBalance(server.db);

    // once the player is outbid the same preview applies (a failed apply does not use the token up)
    const other = await bidder(server, admin.token, 2_000, 'outbid');
    sendBid(other.auction, item.itemId, 600);
    await bidCreated(other.auction, item.itemId, 600, other.username);
    expect((await apply(answer.body.token as string)).body).toEqual({ result: true, applied: 2 });
    expect(await userRow(server.db, p.id)).toMatchObject({ balance: 200, reserved: 0 });
    await expectBooksBalance(server.db);
    for (const s of [p, other]) {
      s.auction.close();
      s.user.close();
    }
  });

  it('a preview belongs to whoever made it and expires after 10 minutes', async () => {
    const a = await player();
    const first = await preview(`${a.username},5,mine`);
    const stolen = await apply(first.body.token as string, admin.token);
    expect(stolen.status).toBe(400);
    expect(stolen.body).toEqual({ result: false, error: POINTS_ERRORS.bulkTokenUnknown });
    clock.advance(10 * 60_000 + 1);
    const late = await apply(first.body.token as string);
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ result: false, error: POINTS_ERRORS.bulkTokenUnknown });
    expect(await balanceOf(a.username)).toBe(0);
    const unknown = await apply('no-such-token');
    expect(unknown.body).toEqual({ result: false, error: POINTS_ERRORS.bulkTokenUnknown });
    const missing = await call(server, 'POST', '/points/bulk/apply', { token: council.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ result: false, error: POINTS_ERRORS.bulkTokenRequired });
  });

  it('two applies of the same preview at once book it once', async () => {
    const a = await player();
    const answer = await preview(`${a.username},5,once`);
    const results = await Promise.all([apply(answer.body.token as string), apply(answer.body.token as string), apply(answer.body.token as string)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await balanceOf(a.username)).toBe(5);
  });

  it.each([
    ['an empty file', '', 'a.csv', POINTS_ERRORS.bulkNoFile],
    ['only blank lines', '\n\n  \n', 'a.csv', POINTS_ERRORS.bulkEmpty],
    ['only a header', 'username,amount,reason\n', 'a.csv', POINTS_ERRORS.bulkEmpty],
    ['a header without a player column', 'who,amount,reason\nx,1,y\n', 'a.csv', POINTS_ERRORS.bulkHeader],
    ['an old .xls', Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(100)]), 'a.xls', POINTS_ERRORS.bulkType],
    ['a binary file', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), 'a.csv', POINTS_ERRORS.bulkType],
    ['a broken zip', Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(100, 7)]), 'a.xlsx', POINTS_ERRORS.bulkUnreadable],
    ['a CSV not in UTF-8', Buffer.from('username,amount,reason\nJos\xe9,1,x\n', 'latin1'), 'a.csv', POINTS_ERRORS.bulkEncoding],
  ])('refuses %s with a clear 400', async (_name, content, filename, error) => {
    const answer = await preview(content, filename);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error });
  });

  it(`refuses more than ${BULK_MAX_ROWS.toLocaleString('en')} rows and files over 2 MB`, async () => {
    const rows = Array.from({ length: BULK_MAX_ROWS + 1 }, (_, i) => `u${i},1,r`).join('\n');
    const tooMany = await preview(rows);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ result: false, error: POINTS_ERRORS.bulkTooManyRows });
    const exactly = await preview(Array.from({ length: BULK_MAX_ROWS }, (_, i) => `u${i},1,r`).join('\n'));
    expect(exactly.status).toBe(200);
    expect(exactly.body).toMatchObject({ valid: 0, invalid: BULK_MAX_ROWS });

    const big = await preview('x'.repeat(BULK_MAX_BYTES + 1));
    expect(big.status).toBe(400);
    expect(big.body).toEqual({ result: false, error: POINTS_ERRORS.bulkTooLarge });
  });

  it('refuses a request that is not multipart, or has no file', async () => {
    const json = await call(server, 'POST', '/points/bulk/preview', { token: council.token, body: { file: 'a,b,c' } });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ result: false, error: POINTS_ERRORS.bulkNoFile });
    const form = new FormData();
    form.append('note', 'no file here');
    const response = await fetch(`${server.httpUrl}/points/bulk/preview`, { method: 'POST', body: form, headers: { authorization: `Bearer ${council.token}` } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ result: false, error: POINTS_ERRORS.bulkNoFile });
  });

  it('a grant made meanwhile by hand still counts in the apply (balances are read at apply time)', async () => {
    const a = await player();
    const answer = await preview(`${a.username},-50,fee`);
    expect(answer.body).toMatchObject({ invalid: 1, rows: [{ error: BULK_ROW_ERRORS.moreThanBalance }] });
    await grant(server, admin.token, a.username, 100);
    const again = await preview(`${a.username},-50,fee`);
    expect((await apply(again.body.token as string)).body).toEqual({ result: true, applied: 1 });
    expect(await balanceOf(a.username)).toBe(50);
    await expectBooksBalance(server.db);
  });
});
