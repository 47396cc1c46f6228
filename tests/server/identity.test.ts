import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql, type Migration } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { BULK_ROW_ERRORS } from '../../src/protocol/points';
import { MAX_TIME_MS } from '../../src/protocol/store';
import { openDatabase, DB_FILE } from '../../server/db/open';
import { onPostgres } from './test-database';
import * as m0001 from '../../server/db/migrations/0001_users_sessions';
import * as m0002 from '../../server/db/migrations/0002_points_ledger';
import * as m0003 from '../../server/db/migrations/0003_auction';
import * as m0004 from '../../server/db/migrations/0004_back_office';
import { upload } from './back-office-helpers';
import { call, leadershipServer, login, newAccount, register, startTestServer } from './helpers';
import { uniqueNumber } from './seed';

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: { token: string; username: string };
let council: { token: string; username: string };

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer());
});
afterAll(() => server.close());

const signUp = (body: Record<string, unknown>) => call(server, 'POST', '/auth/register', { body });

describe('a governor id belongs to one account', () => {
  it('refuses a second account with the same governor id, plainly', async () => {
    const first = await register(server, { ...newAccount('gov'), playerid: '31415926' });
    const second = await signUp({ ...newAccount('gov'), playerid: '31415926' });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ status: 'error', error: AUTH_ERRORS.playerIdTaken });
    const holders = await server.db.selectFrom('users').select('username').where('playerid', '=', '31415926').execute();
    expect(holders).toEqual([{ username: first.username }]);
  });

  it('reads leading zeros away (the same governor, refused as taken) and refuses governor 0', async () => {
    await register(server, { ...newAccount('gov'), playerid: '31415927' });
    const zeros = await signUp({ ...newAccount('gov'), playerid: '0031415927' });
    expect(zeros.status).toBe(409);
    expect(zeros.body).toEqual({ status: 'error', error: AUTH_ERRORS.playerIdTaken });
    for (const playerid of ['0', '000']) {
      const zero = await signUp({ ...newAccount('gov'), playerid });
      expect(zero.status).toBe(400);
      expect(zero.body).toEqual({ status: 'error', error: AUTH_ERRORS.playerIdDigits });
    }
    const padded = await register(server, { ...newAccount('gov'), playerid: '0061' });
    expect((await server.db.selectFrom('users').select('playerid').where('username', '=', padded.username).executeTakeFirstOrThrow()).playerid).toBe('61');
  });

  it('lets only one of two sign-ups racing for one governor id through', async () => {
    const answers = await Promise.all([0, 1, 2, 3].map(() => signUp({ ...newAccount('race'), playerid: '27182818' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    const holders = await server.db.selectFrom('users').select('id').where('playerid', '=', '27182818').execute();
    expect(holders).toHaveLength(1);
  });

  it('refuses a username of digits only: it would be taken for an unregistered governor id in a bulk award', async () => {
    const answer = await signUp({ ...newAccount(), username: '90210' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 'error', error: AUTH_ERRORS.usernameDigits });
    // so a headerless bulk row naming a governor id no one has claimed stays unknown, not someone's name
    const preview = await upload(server, '/points/bulk/preview', council.token, '90210,100,KvK\n', 'a.csv', 'text/csv');
    expect((preview.body.rows as { error: string | null }[])[0].error).toBe(BULK_ROW_ERRORS.unknownPlayer);
  });
});

describe('usernames', () => {
  it.each([
    ['server', AUTH_ERRORS.usernameReserved],
    ['Server', AUTH_ERRORS.usernameReserved],
    ['ѕerver', AUTH_ERRORS.usernameReserved], // Cyrillic dze
    ['Ѕеrvеr', AUTH_ERRORS.usernameReserved], // Cyrillic capital dze and ie
    ['Ｓｅｒｖｅｒ', AUTH_ERRORS.usernameReserved], // full width
    ['s.e.r.v.e.r', AUTH_ERRORS.usernameReserved],
    ['sérvér', AUTH_ERRORS.usernameReserved],
    ['SYSTEM', AUTH_ERRORS.usernameReserved],
    ['ѕуѕtеm', AUTH_ERRORS.usernameReserved],
    ['Adm1n', AUTH_ERRORS.usernameReserved],
    ['αdmin', AUTH_ERRORS.usernameReserved], // Greek alpha
    ['se\u200Brver', AUTH_ERRORS.usernameCharacters], // zero-width space
    ['bob\u200D', AUTH_ERRORS.usernameCharacters], // zero-width joiner
    ['\u202Enimda', AUTH_ERRORS.usernameCharacters], // right-to-left override
    ['al\u2066ice', AUTH_ERRORS.usernameCharacters], // direction isolate
    ['a\u3164b', AUTH_ERRORS.usernameCharacters], // Hangul filler (a blank letter)
    ['tab\there', AUTH_ERRORS.usernameCharacters],
    ['a\u0301\u0302\u0303\u0304', AUTH_ERRORS.usernameCharacters], // stacked marks
  ])('refuses %j', async (username, error) => {
    const answer = await signUp({ ...newAccount(), username });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 'error', error });
  });

  it('refuses a look-alike of an existing name (Cyrillic а for Latin a)', async () => {
    const alice = await register(server, { ...newAccount(), username: `alice${uniqueNumber()}` });
    const fake = alice.username.replace('a', '\u0430');
    expect(fake).not.toBe(alice.username);
    const answer = await signUp({ ...newAccount(), username: fake });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ status: 'error', error: AUTH_ERRORS.usernameTaken });
  });

  it('stores the NFKC form, so the same-looking name is one name', async () => {
    const account = await register(server, { ...newAccount(), username: 'Ｋｎｉｇｈｔ\uFB01' }); // full-width letters and the fi ligature
    const row = await server.db.selectFrom('users').select('username').where('email', '=', account.email).executeTakeFirstOrThrow();
    expect(row.username).toBe('Knightfi');
    const again = await signUp({ ...newAccount(), username: 'Knightfi' });
    expect(again.body).toEqual({ status: 'error', error: AUTH_ERRORS.usernameTaken });
  });

  it('still takes names in other scripts, accents and spaces', async () => {
    for (const username of ['José Núñez', '李小龍', 'محمد', 'Ελένη', 'Сергей', 'Dark Knight']) {
      const answer = await signUp({ ...newAccount(), username });
      expect(answer.body, username).toEqual({ status: 'success' });
    }
  });
});

describe('the last admin', () => {
  it('cannot be demoted, by itself or anyone; with a second admin it can', async () => {
    const self = await call(server, 'POST', `/admin/users/${admin.username}/rank`, { token: admin.token, body: { rank: 'user' } });
    expect(self.status).toBe(409);
    expect(self.body).toEqual({ result: false, error: AUTH_ERRORS.lastAdmin });
    const rank = async (username: string) => (await server.db.selectFrom('users').select('rank').where('username', '=', username).executeTakeFirstOrThrow()).rank;
    expect(await rank(admin.username)).toBe('admin');

    const other = await register(server, newAccount('second'));
    expect((await call(server, 'POST', `/admin/users/${other.username}/rank`, { token: admin.token, body: { rank: 'admin' } })).status).toBe(200);
    const otherToken = await login(server, other.email);
    // two admins demoting each other at once: one of them stays admin
    const both = await Promise.all([
      call(server, 'POST', `/admin/users/${admin.username}/rank`, { token: otherToken, body: { rank: 'council' } }),
      call(server, 'POST', `/admin/users/${other.username}/rank`, { token: admin.token, body: { rank: 'council' } }),
    ]);
    // one goes through; the other is refused (409 as the last admin, or 403 when its sender was demoted first)
    expect(both.filter((a) => a.status === 200)).toHaveLength(1);
    expect(both.find((a) => a.status !== 200)?.status).toBeOneOf([403, 409]);
    const admins = await server.db.selectFrom('users').select('username').where('rank', '=', 'admin').execute();
    expect(admins).toHaveLength(1);
  });
});

// a SQLite file from before these rules (PostgreSQL support came after them: no such database exists there)
describe.skipIf(onPostgres)('migration 0005 on a database from before these rules', () => {
  it('migrates (a partial index leaves the shared ids out), then refuses both a shared id and any new duplicate', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-legacy-'));
    try {
      const old = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(path.join(dir, DB_FILE)) }) });
      const migrations: Record<string, Migration> = { '0001_users_sessions': m0001, '0002_points_ledger': m0002, '0003_auction': m0003, '0004_back_office': m0004 };
      const migrated = await new Migrator({ db: old, provider: { getMigrations: async () => migrations } }).migrateToLatest();
      expect(migrated.error).toBeUndefined();
      await sql`insert into users (email, username, playerid, password_hash, created_at) values
        ('a@x.test', 'a', '555', 'x', 0), ('b@x.test', 'b', '555', 'x', 0), ('c@x.test', 'c', '777', 'x', 0)`.execute(old);
      // and an item the old server took with a start of MAX_SAFE_INTEGER: its endsAt was unsafe, every list broke on it
      await sql`insert into items (name, start_price, min_increment, starts_at, duration_s, ends_at, extend_window_s, max_extensions, state, amount, created_at)
        values ('Far', 1, 1, 9007199254740991, 60, 9007199254740991 + 60000, 0, 0, 'scheduled', 1, 0), ('Near', 1, 1, 2000000000000, 60, 2000000060000, 0, 0, 'scheduled', 1, 0)`.execute(old);
      await old.destroy();

      const db = await openDatabase(dir);
      try {
        const shared = await db.selectFrom('users').select('username').where('playerid', '=', '555').orderBy('username').execute();
        expect(shared).toEqual([{ username: 'a' }, { username: 'b' }]); // left as they were
        const items = await db.selectFrom('items').select(['name', 'state', 'starts_at', 'ends_at']).orderBy('id').execute();
        expect(items).toEqual([
          { name: 'Far', state: 'cancelled', starts_at: MAX_TIME_MS, ends_at: MAX_TIME_MS + 60_000 },
          { name: 'Near', state: 'scheduled', starts_at: 2_000_000_000_000, ends_at: 2_000_000_060_000 },
        ]);
        const insert = (email: string, playerid: string) =>
          sql`insert into users (email, username, playerid, password_hash, created_at) values (${email}, ${email}, ${playerid}, 'x', 0)`.execute(db);
        await expect(insert('d@x.test', '777')).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
        await insert('e@x.test', '888');
        await expect(insert('f@x.test', '888')).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
      } finally {
        await db.destroy();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
