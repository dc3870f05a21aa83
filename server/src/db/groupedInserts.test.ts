import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupedInserts } from './groupedInserts.js';

interface Db {
  items: { id: string; n: number };
}

// A row with n <= 0 is refused by a CHECK (an error other than a unique violation).
const sqlPositive = sql`n > 0`;

const open = async () => {
  const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
  await db.schema
    .createTable('items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('n', 'integer', (c) => c.check(sqlPositive))
    .execute();
  const inserts = new GroupedInserts<Db, Db['items']>(db, (trx, row) => trx.insertInto('items').values(row).execute());
  return { db, inserts };
};

let opened: Kysely<Db> | undefined;
afterEach(async () => {
  await opened?.destroy();
  opened = undefined;
});

describe('GroupedInserts', () => {
  it('writes rows that arrive together, each caller getting its own outcome', async () => {
    const { db, inserts } = await open();
    opened = db;
    const results = await Promise.allSettled([
      inserts.insert({ id: 'a', n: 1 }),
      inserts.insert({ id: 'b', n: 2 }),
      inserts.insert({ id: 'a', n: 3 }),
      inserts.insert({ id: 'c', n: 4 }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const rows = await db.selectFrom('items').selectAll().orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
      { id: 'c', n: 4 },
    ]);
  });

  it('fails the whole batch, writing none of it, on an error other than a unique violation', async () => {
    const { db, inserts } = await open();
    opened = db;
    const results = await Promise.allSettled([inserts.insert({ id: 'a', n: 1 }), inserts.insert({ id: 'b', n: -1 })]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await db.selectFrom('items').selectAll().execute()).toEqual([]);
    // The next rows are written as usual.
    await inserts.insert({ id: 'c', n: 1 });
    expect(await db.selectFrom('items').select('id').execute()).toEqual([{ id: 'c' }]);
  });

  it('writes more rows than one transaction takes', async () => {
    const { db, inserts } = await open();
    opened = db;
    await Promise.all(Array.from({ length: 600 }, (_, i) => inserts.insert({ id: `r${i}`, n: i + 1 })));
    const count = await db
      .selectFrom('items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    expect(Number(count?.n)).toBe(600);
  });
});
