// A single-row INSERT whose SQL is written once, for rows written often (pastes, audit entries). Kysely's builder
// compiles every insert anew: parsing the values object, visiting its nodes and printing the SQL cost more than
// SQLite's own work for the row (docs/benchmarks.md, Paste creation). The same text each time also keeps the
// statement cache's lookup cheap and its hit certain.
import { CompiledQuery, type Kysely } from 'kysely';

export interface PreparedInsert<Row> {
  /** The statement with this row's values bound, for `db.executeQuery`. */
  of(row: Row): CompiledQuery;
  /** One statement inserting all these rows (PostgreSQL: one round trip; keep it under 65,535 parameters). */
  ofMany(rows: readonly Row[]): CompiledQuery;
}

/** Identifiers come from the code's own table and column names only: anything else is a programming error. */
function identifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain identifier: ${name}`);
  return `"${name}"`;
}

/**
 * `insert into "table" ("a", "b") values (?, ?)` for SQLite (`$1, $2` for PostgreSQL). `columns` names every column
 * of the row (the type checker refuses a missing or unknown one), so a column added to the table later cannot be
 * left out here unnoticed. A column the row leaves undefined is written as NULL.
 */
export function preparedInsert<Row extends object>(
  dialect: 'sqlite' | 'postgres',
  table: string,
  columnSet: Record<keyof Row & string, true>,
): PreparedInsert<Row> {
  const columns = Object.keys(columnSet) as (keyof Row & string)[];
  const head = `insert into ${identifier(table)} (${columns.map(identifier).join(', ')}) values `;
  const tuple = (row: number) =>
    `(${columns.map((_, i) => (dialect === 'sqlite' ? '?' : `$${row * columns.length + i + 1}`)).join(', ')})`;
  const single = head + tuple(0);
  const valuesOf = (row: Row) => columns.map((column) => (row[column] as unknown) ?? null);
  return {
    of: (row) => CompiledQuery.raw(single, valuesOf(row)),
    ofMany: (rows) =>
      CompiledQuery.raw(
        head + rows.map((_, i) => tuple(i)).join(', '),
        rows.flatMap((row) => valuesOf(row)),
      ),
  };
}

/** Runs one prepared insert through a Kysely handle (a transaction or the database). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: the statement names its own table
export async function runInsert<Row>(db: Kysely<any>, insert: PreparedInsert<Row>, row: Row): Promise<void> {
  await db.executeQuery(insert.of(row));
}
