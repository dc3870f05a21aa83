import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { PasteSortField } from '@clipnest/contract';
import { dialectOf } from '../db/database.js';
import { GroupedInserts } from '../db/groupedInserts.js';
import { preparedInsert, runInsert, type PreparedInsert } from '../db/preparedInsert.js';
import type { Database, PastesTable } from '../db/schema.js';

export type PasteRow = Selectable<PastesTable>;

/** Everything but the content: what the view path needs before deciding to count a view. */
export type PasteMeta = Omit<PasteRow, 'content'>;

/** A list row: content replaced by its first characters and its size in bytes. */
export type PasteSummaryRow = PasteMeta & { preview: string; size: number };

export const PREVIEW_CHARS = 200;

export interface PasteListFilter {
  /** Only pastes with this created_by (key holders); undefined for all (admin). */
  createdBy?: string;
  search?: string;
  sort: PasteSortField;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const META_COLUMNS = [
  'id',
  'slug',
  'type',
  'remark',
  'password_hash',
  'expires_at',
  'max_views',
  'views',
  'created_by',
  'created_at',
  'updated_at',
  'encryption',
] as const;

function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

export class PasteRepository {
  /** SQLite: new pastes that arrive together share one commit. */
  private readonly grouped?: GroupedInserts<Database, PasteRow>;
  private readonly insertRow: PreparedInsert<PasteRow>;

  constructor(private readonly db: Kysely<Database>) {
    const dialect = dialectOf(db);
    this.insertRow = preparedInsert<PasteRow>(dialect, 'pastes', {
      id: true,
      slug: true,
      content: true,
      type: true,
      remark: true,
      password_hash: true,
      expires_at: true,
      max_views: true,
      views: true,
      created_by: true,
      created_at: true,
      updated_at: true,
      encryption: true,
    });
    if (dialect === 'sqlite' && !db.isTransaction)
      this.grouped = new GroupedInserts(db, (trx, row) => runInsert(trx, this.insertRow, row));
  }

  async insert(row: PasteRow): Promise<void> {
    if (this.grouped) return this.grouped.insert(row);
    await runInsert(this.db, this.insertRow, row);
  }

  findById(id: string): Promise<PasteRow | undefined> {
    return this.db.selectFrom('pastes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findMetaBySlug(slug: string): Promise<PasteMeta | undefined> {
    return this.db.selectFrom('pastes').select(META_COLUMNS).where('slug', '=', slug).executeTakeFirst();
  }

  /**
   * A link preview's read (services/linkPreviewService.ts), by the slug index: the meta columns and the text's first
   * `chars` characters, and the text only of a paste anyone may read without a secret or a counted view (no
   * password, not end-to-end encrypted, no view limit): a protected paste's content never leaves the database
   * here. Counts nothing.
   */
  findPreviewBySlug(slug: string, chars: number): Promise<(PasteMeta & { excerpt: string }) | undefined> {
    return this.db
      .selectFrom('pastes')
      .select(META_COLUMNS)
      .select(
        sql<string>`case when password_hash is null and encryption is null and max_views = 0
          then substr(content, 1, ${chars}) else '' end`.as('excerpt'),
      )
      .where('slug', '=', slug)
      .executeTakeFirst();
  }

  /**
   * Counts one view and returns the paste, in ONE statement, only while views remain and it has not expired.
   * Concurrent callers serialise on the row (PostgreSQL re-checks the WHERE after the lock; SQLite has one
   * writer), so with max_views N exactly N calls get a row back. undefined: gone (or deleted meanwhile).
   */
  consumeView(id: string, nowIso: string): Promise<PasteRow | undefined> {
    return this.db
      .updateTable('pastes')
      .set({ views: sql<number>`views + 1` })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('max_views', '=', 0), eb('views', '<', eb.ref('max_views'))]))
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]))
      .returningAll()
      .executeTakeFirst();
  }

  /** An open (password-less), live paste by slug, read without counting: the hot path of unlimited pastes. */
  async findOpenBySlug(slug: string, nowIso: string): Promise<PasteRow | undefined> {
    // Plain SQL for the same reason as consumeOpenViewBySlug.
    const { rows } = await sql<PasteRow>`
      select * from pastes
       where slug = ${slug} and password_hash is null
         and (max_views = 0 or views < max_views)
         and (expires_at is null or expires_at > ${nowIso})`.execute(this.db);
    return rows[0];
  }

  /**
   * Adds buffered view counts of unlimited pastes, atomically, and answers the written rows' views after the
   * write (PendingViews.countedRead tells by them whether a read saw the batch). Instances flushing at once
   * lock the rows in id order, so they wait a moment for each other instead of deadlocking (which would cost
   * a second and the batch). PostgreSQL: ONE statement whatever the batch size. Views on this instance that
   * overlap the write wait for it, and each statement is a round trip through a busy event loop: a statement
   * per paste made the flush the slowest request of every second (docs/benchmarks.md "Scale-out").
   */
  async addViews(counts: ReadonlyMap<string, number>): Promise<ReadonlyMap<string, number>> {
    const sorted = [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (sorted.length === 0) return new Map();
    if (dialectOf(this.db) === 'postgres') {
      const ids = sorted.map(([id]) => id);
      const ns = sorted.map(([, n]) => n);
      // `locked` (sorted, then FOR UPDATE) runs whole as the one-time filter's InitPlan before the UPDATE
      // touches a row: every row lock is taken in id order first.
      const { rows } = await sql<{ id: string; views: number }>`
        with locked as materialized (
          select id from pastes where id = any(${ids}::text[]) order by id for update
        )
        update pastes set views = pastes.views + batch.n
          from unnest(${ids}::text[], ${ns}::int[]) as batch(id, n)
         where pastes.id = batch.id and (select count(*) from locked) >= 0
        returning pastes.id, pastes.views`.execute(this.db);
      return new Map(rows.map((row) => [row.id, Number(row.views)]));
    }
    // SQLite: one in-process writer, no round trips to save.
    return this.db.transaction().execute(async (trx) => {
      const after = new Map<string, number>();
      for (const [id, n] of sorted) {
        const row = await trx
          .updateTable('pastes')
          .set({ views: sql<number>`views + ${n}` })
          .where('id', '=', id)
          .returning('views')
          .executeTakeFirst();
        if (row) after.set(id, Number(row.views));
      }
      return after;
    });
  }

  /**
   * The hot path of a public view: counts a view of an open (password-less) paste found by slug, in the same
   * single guarded statement as {@link consumeView}. undefined: missing, protected, expired or used up.
   */
  async consumeOpenViewBySlug(slug: string, nowIso: string): Promise<PasteRow | undefined> {
    // Plain SQL rather than the builder: this runs on every public view, and skipping the builder's
    // compile step made this call measurably faster (docs/benchmarks.md, Figures moved out of the code).
    const { rows } = await sql<PasteRow>`
      update pastes set views = views + 1
       where slug = ${slug} and password_hash is null
         and (max_views = 0 or views < max_views)
         and (expires_at is null or expires_at > ${nowIso})
      returning *`.execute(this.db);
    return rows[0];
  }

  async list(filter: PasteListFilter): Promise<{ rows: PasteSummaryRow[]; total: number }> {
    let base = this.db.selectFrom('pastes');
    if (filter.createdBy !== undefined) base = base.where('created_by', '=', filter.createdBy);
    if (filter.search) {
      const pattern = likePattern(filter.search);
      base = base.where((eb) =>
        eb.or([
          ...(['slug', 'remark'] as const).map(
            (column) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`,
          ),
          // The ciphertext of an end-to-end encrypted paste is not searchable.
          sql<boolean>`(encryption is null and lower(content) like ${pattern} escape '\\')`,
        ]),
      );
    }
    const totalRow = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await base
      .select(META_COLUMNS)
      .select([
        sql<string>`substr(content, 1, ${PREVIEW_CHARS})`.as('preview'),
        sql<number>`octet_length(content)`.as('size'),
      ])
      .orderBy(filter.sort, filter.order)
      .orderBy('id', filter.order)
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
    return { rows: rows.map((r) => ({ ...r, size: Number(r.size) })), total: Number(totalRow?.n ?? 0) };
  }

  async update(id: string, changes: Updateable<PastesTable>): Promise<boolean> {
    const result = await this.db.updateTable('pastes').set(changes).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteMany(ids: string[], createdBy?: string): Promise<number> {
    let query = this.db.deleteFrom('pastes').where('id', 'in', ids);
    if (createdBy !== undefined) query = query.where('created_by', '=', createdBy);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes pastes past their expiry date or out of views. */
  async deleteExpired(nowIso: string, createdBy?: string): Promise<number> {
    let query = this.db
      .deleteFrom('pastes')
      .where((eb) =>
        eb.or([
          eb.and([eb('expires_at', 'is not', null), eb('expires_at', '<=', nowIso)]),
          eb.and([eb('max_views', '>', 0), eb('views', '>=', eb.ref('max_views'))]),
        ]),
      );
    if (createdBy !== undefined) query = query.where('created_by', '=', createdBy);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
