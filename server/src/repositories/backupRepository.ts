import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../db/database.js';
import { tableColumns } from '../db/introspect.js';
import type { Database } from '../db/schema.js';

export type Row = Record<string, string | number | null>;

/** Table-generic reads and writes for backup and restore. Table names come from a fixed list, never from input. */
export class BackupRepository {
  private readonly db: Kysely<Record<string, Row>>;

  constructor(
    db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {
    this.db = db as unknown as Kysely<Record<string, Row>>;
  }

  columns(): Promise<Map<string, string[]>> {
    return tableColumns(this.db, this.dialect);
  }

  async count(table: string): Promise<number> {
    const row = await this.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  dump(table: string, orderBy: string): Promise<Row[]> {
    return this.db.selectFrom(table).selectAll().orderBy(orderBy).execute();
  }

  async existingKeys(table: string, key: string, values: (string | number)[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < values.length; i += 500) {
      const rows = await this.db
        .selectFrom(table)
        .select(key)
        .where(key, 'in', values.slice(i, i + 500))
        .execute();
      for (const row of rows) found.add(String(row[key]));
    }
    return found;
  }

  /** Runs `work` in one transaction: everything is restored or nothing is. */
  transaction<T>(work: (writer: BackupWriter) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new BackupWriter(trx)));
  }
}

export class BackupWriter {
  constructor(private readonly trx: Transaction<Record<string, Row>>) {}

  async clear(table: string): Promise<void> {
    await this.trx.deleteFrom(table).execute();
  }

  /** Inserts rows in batches; with `skipExisting` a row that clashes with a key or unique value is skipped. */
  async insert(table: string, rows: Row[], skipExisting: boolean): Promise<number> {
    if (rows.length === 0) return 0;
    const width = Object.keys(rows[0] ?? {}).length || 1;
    const batch = Math.max(1, Math.floor(8000 / width));
    let inserted = 0;
    for (let i = 0; i < rows.length; i += batch) {
      const query = this.trx.insertInto(table).values(rows.slice(i, i + batch));
      const result = await (skipExisting ? query.onConflict((oc) => oc.doNothing()) : query).executeTakeFirst();
      inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    return inserted;
  }
}
