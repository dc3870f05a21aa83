import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './statementCache.js';

describe('withStatementCache', () => {
  it('reuses the prepared statement for the same SQL text', () => {
    const db = withStatementCache(new SQLite(':memory:'));
    expect(db.prepare('select 1 as n')).toBe(db.prepare('select 1 as n'));
    db.close();
  });

  it('drops the least recently used statement beyond its capacity', () => {
    const db = withStatementCache(new SQLite(':memory:'), 2);
    const a = db.prepare('select 1');
    db.prepare('select 2');
    db.prepare('select 1'); // a is now the most recent
    db.prepare('select 3'); // evicts "select 2"
    expect(db.prepare('select 1')).toBe(a);
    const second = db.prepare('select 2');
    expect(second.all([])).toEqual([{ 2: 2 }]);
    db.close();
  });

  it('keeps working after the schema changes under a cached statement', () => {
    const sqlite = new SQLite(':memory:');
    const db = withStatementCache(sqlite);
    sqlite.exec('create table t (a integer)');
    db.prepare('insert into t (a) values (?)').run([1]);
    sqlite.exec('alter table t add column b text');
    db.prepare('insert into t (a) values (?)').run([2]);
    expect(db.prepare('select a, b from t order by a').all([])).toEqual([
      { a: 1, b: null },
      { a: 2, b: null },
    ]);
    db.close();
  });
});
