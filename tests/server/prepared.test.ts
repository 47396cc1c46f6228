import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepared } from '../../server/db/prepared';
import { writeTransaction } from '../../server/db/write';
import { startTestServer } from './helpers';
import { randomSuffix, uniqueNumber } from './seed';

describe('a query built once (server/db/prepared.ts)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  async function newUser(balance: number): Promise<{ id: number; username: string }> {
    const username = `prep_${randomSuffix(8)}`;
    return server.db
      .insertInto('users')
      .values({ email: `${username}@example.com`, username, playerid: String(uniqueNumber()), password_hash: 'x', rank: 'user', balance, created_at: Date.now() })
      .returning(['id', 'username'])
      .executeTakeFirstOrThrow();
  }

  it('builds once, binds new arguments on every run, keeps its fixed values, and reads, counts and writes like the builder', async () => {
    let builds = 0;
    const byBalance = prepared((db, a: { min: number; name: string }) => {
      builds += 1;
      return db.selectFrom('users').select(['username', 'balance']).where('balance', '>=', a.min).where('rank', '=', 'user').where('username', '=', a.name);
    });
    const give = prepared((db, a: { id: number; by: number }) =>
      db
        .updateTable('users')
        .set((eb) => ({ balance: eb('balance', '+', a.by) }))
        .where('id', '=', a.id),
    );
    const rich = await newUser(500);
    const poor = await newUser(5);

    expect(await byBalance.all(server.db, { min: 100, name: rich.username })).toEqual([{ username: rich.username, balance: 500 }]);
    expect(await byBalance.first(server.db, { min: 100, name: poor.username })).toBeUndefined();
    expect(await byBalance.only(server.db, { min: 1, name: poor.username })).toEqual({ username: poor.username, balance: 5 });
    await expect(byBalance.only(server.db, { min: 1_000, name: rich.username })).rejects.toThrow(/no row/);

    // inside a write transaction too, and a write's count of rows it changed
    const changed = await writeTransaction(server.db, async (trx) => {
      const one = await give.run(trx, { id: poor.id, by: 95 });
      const none = await give.run(trx, { id: -1, by: 95 });
      return [one.numAffectedRows, none.numAffectedRows];
    });
    expect(changed).toEqual([1n, 0n]);
    expect(await byBalance.only(server.db, { min: 100, name: poor.username })).toEqual({ username: poor.username, balance: 100 });
    // one database, one dialect: built once, however many runs
    expect(builds).toBe(1);
  });

  it('refuses an argument that does not become a bound value, and a run without one of its arguments', async () => {
    const shaped = prepared((db, a: { column: string }) => db.selectFrom('users').select(sql.raw<string>(String(a.column)).as('x')));
    await expect(shaped.all(server.db, { column: 'username' })).rejects.toThrow(/column did not become a bound parameter/);
    const unread = prepared((db, a: { id: number }) => {
      void a.id;
      return db.selectFrom('users').select('id');
    });
    await expect(unread.all(server.db, { id: 1 })).rejects.toThrow(/id did not become a bound parameter/);

    const byId = prepared((db, a: { id: number }) => db.selectFrom('users').select('id').where('id', '=', a.id));
    await expect(byId.all(server.db, {} as { id: number })).rejects.toThrow(/no value for id/);
    // a null is a value
    expect(await byId.all(server.db, { id: null as unknown as number })).toEqual([]);
  });
});
