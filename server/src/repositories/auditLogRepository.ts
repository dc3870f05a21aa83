import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { AuditLogFilter } from '@clipnest/contract';
import { dialectOf } from '../db/database.js';
import { preparedInsert, runInsert, type PreparedInsert } from '../db/preparedInsert.js';
import type { AuditLogTable, Database } from '../db/schema.js';

export type AuditRow = AuditLogTable;

/** Rows per INSERT: well under SQLite's and PostgreSQL's limits on bound parameters (11 per row). */
const INSERT_CHUNK = 200;

function likePrefix(value: string): string {
  return `${value.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** The audit log: appended in batches, read by filters, removed only by age (the retention sweep). */
export class AuditLogRepository {
  private readonly insertRow: PreparedInsert<AuditRow>;
  private readonly sqlite: boolean;

  constructor(private readonly db: Kysely<Database>) {
    const dialect = dialectOf(db);
    this.sqlite = dialect === 'sqlite';
    this.insertRow = preparedInsert<AuditRow>(dialect, 'audit_log', {
      id: true,
      at: true,
      actor: true,
      actor_name: true,
      action: true,
      target: true,
      outcome: true,
      status: true,
      client: true,
      request_id: true,
      detail: true,
    });
  }

  /**
   * Appends a batch. SQLite: one transaction of single-row inserts (one statement, prepared once, whatever the batch
   * size); PostgreSQL: multi-row inserts, one round trip per chunk.
   */
  async insertMany(rows: AuditRow[]): Promise<void> {
    if (this.sqlite) {
      await this.db.transaction().execute(async (trx) => {
        for (const row of rows) await runInsert(trx, this.insertRow, row);
      });
      return;
    }
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await this.db.executeQuery(this.insertRow.ofMany(rows.slice(i, i + INSERT_CHUNK)));
    }
  }

  private filtered(filter: AuditLogFilter) {
    return this.db.selectFrom('audit_log').where((eb) => {
      const all: Expression<SqlBool>[] = [];
      if (filter.action) {
        // `paste` matches `paste` and `paste.*`.
        all.push(
          eb.or([
            eb('action', '=', filter.action),
            sql<SqlBool>`action like ${likePrefix(`${filter.action}.`)} escape '\\'`,
          ]),
        );
      }
      if (filter.actor) all.push(sql<SqlBool>`actor like ${likePrefix(filter.actor)} escape '\\'`);
      if (filter.from) all.push(eb('at', '>=', filter.from));
      if (filter.to) all.push(eb('at', '<=', filter.to));
      return eb.and(all);
    });
  }

  async list(filter: AuditLogFilter, limit: number, offset: number): Promise<{ rows: AuditRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.filtered(filter)
        .selectAll()
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.filtered(filter)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirst(),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  }

  /** One page of the filtered log after `after` (newest first, keyset: flat cost however deep the export goes). */
  async pageAfter(
    filter: AuditLogFilter,
    after: { at: string; id: string } | undefined,
    limit: number,
  ): Promise<AuditRow[]> {
    let query = this.filtered(filter).selectAll();
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('at', '<', after.at), eb.and([eb('at', '=', after.at), eb('id', '<', after.id)])]),
      );
    }
    return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** Removes up to `limit` rows older than `before`; answers how many went. */
  async deleteOlderThan(before: string, limit: number): Promise<number> {
    const result = await this.db
      .deleteFrom('audit_log')
      .where('id', 'in', (eb) =>
        eb.selectFrom('audit_log').select('id').where('at', '<', before).orderBy('at').limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
