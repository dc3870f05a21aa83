import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { preparedInsert, runInsert } from './preparedInsert.js';

interface Item {
  id: string;
  n: number;
  note: string | null;
}
interface Db {
  items: Item;
}

const columns = { id: true, n: true, note: true } as const;

let opened: Kysely<Db> | undefined;
afterEach(async () => {
  await opened?.destroy();
  opened = undefined;
});

describe('preparedInsert', () => {
  it('writes the same SQL text every time, with each dialect’s placeholders', () => {
    const sqlite = preparedInsert<Item>('sqlite', 'items', columns);
    const first = sqlite.of({ id: 'a', n: 1, note: 'x' });
    const second = sqlite.of({ id: 'b', n: 2, note: null });
    expect(first.sql).toBe('insert into "items" ("id", "n", "note") values (?, ?, ?)');
    expect(second.sql).toBe(first.sql);
    expect(second.parameters).toEqual(['b', 2, null]);
    const postgres = preparedInsert<Item>('postgres', 'items', columns);
    const many = postgres.ofMany([
      { id: 'a', n: 1, note: null },
      { id: 'b', n: 2, note: 'y' },
    ]);
    expect(many.sql).toBe('insert into "items" ("id", "n", "note") values ($1, $2, $3), ($4, $5, $6)');
    expect(many.parameters).toEqual(['a', 1, null, 'b', 2, 'y']);
  });

  it('refuses a name that is not a plain identifier', () => {
    expect(() => preparedInsert<Item>('sqlite', 'items; drop table x', columns)).toThrow(/plain identifier/);
  });

  it('inserts rows SQLite reads back as written, undefined as NULL', async () => {
    const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    opened = db;
    await db.schema
      .createTable('items')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('n', 'integer')
      .addColumn('note', 'text')
      .execute();
    const insert = preparedInsert<Item>('sqlite', 'items', columns);
    await runInsert(db, insert, { id: 'a', n: 1, note: 'first' });
    await runInsert(db, insert, { id: 'b', n: 2, note: undefined as unknown as null });
    await db.executeQuery(
      insert.ofMany([
        { id: 'c', n: 3, note: null },
        { id: 'd', n: 4, note: 'last' },
      ]),
    );
    expect(await db.selectFrom('items').selectAll().orderBy('id').execute()).toEqual([
      { id: 'a', n: 1, note: 'first' },
      { id: 'b', n: 2, note: null },
      { id: 'c', n: 3, note: null },
      { id: 'd', n: 4, note: 'last' },
    ]);
    await expect(runInsert(db, insert, { id: 'a', n: 5, note: null })).rejects.toThrow(/UNIQUE/);
  });
});
