import SQLite from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { withStatementCache } from '../../server/db/open';

describe('the prepared statement cache', () => {
  it('prepares a SQL text once, keeps the most recent ones, and never hands out a busy statement', () => {
    const sqlite = new SQLite(':memory:');
    const spy = vi.spyOn(sqlite, 'prepare');
    const db = withStatementCache(sqlite, 3);
    db.prepare('create table t (x integer)').run();
    const insert = db.prepare('insert into t values (?)');
    insert.run(1);
    expect(db.prepare('insert into t values (?)')).toBe(insert);
    db.prepare('insert into t values (?)').run(2);
    expect(db.prepare('select count(*) n from t').get()).toEqual({ n: 2 });

    // a fourth distinct text evicts the least recently used (the create), not the insert
    db.prepare('select x from t order by x');
    const calls = spy.mock.calls.length;
    db.prepare('insert into t values (?)');
    expect(spy.mock.calls.length).toBe(calls);

    // a statement still iterating is not reused
    const select = db.prepare('select x from t order by x');
    const rows = select.iterate();
    rows.next();
    const other = db.prepare('select x from t order by x');
    expect(other).not.toBe(select);
    expect(other.all()).toEqual([{ x: 1 }, { x: 2 }]);
    rows.return?.();
    // the rest of the database object works as before
    expect(db.pragma('journal_mode', { simple: true })).toBe('memory');
    expect(db.inTransaction).toBe(false);
    sqlite.close();
  });
});
