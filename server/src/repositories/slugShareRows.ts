import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Tables of links found by id or by slug and listed per creator, newest first. */
export type SlugShareTable = 'folder_shares' | 'upload_requests';

/** The columns those tables share: all the queries below touch. */
interface SlugShareColumns {
  id: string;
  slug: string;
  created_by: string;
  created_at: string;
}

/**
 * The queries folder shares and upload requests have in common. Kysely cannot type a query over a table chosen
 * at run time, so they run against the shared columns and each repository names its own row type (`Row`).
 */
export class SlugShareRows<Row> {
  private readonly db: Kysely<Record<SlugShareTable, SlugShareColumns>>;

  constructor(
    db: Kysely<Database>,
    private readonly table: SlugShareTable,
    private readonly normalise: (row: Row) => Row,
  ) {
    this.db = db as unknown as Kysely<Record<SlugShareTable, SlugShareColumns>>;
  }

  async insert(row: Row): Promise<void> {
    await this.db
      .insertInto(this.table)
      .values(row as unknown as SlugShareColumns)
      .execute();
  }

  findById(id: string): Promise<Row | undefined> {
    return this.findBy('id', id);
  }

  findBySlug(slug: string): Promise<Row | undefined> {
    return this.findBy('slug', slug);
  }

  async list(filter: { createdBy?: string; limit: number; offset: number }): Promise<{ rows: Row[]; total: number }> {
    let base = this.db.selectFrom(this.table);
    if (filter.createdBy !== undefined) base = base.where('created_by', '=', filter.createdBy);
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
    return { rows: rows.map((row) => this.normalise(row as unknown as Row)), total: Number(total?.n ?? 0) };
  }

  private async findBy(column: 'id' | 'slug', value: string): Promise<Row | undefined> {
    const row = await this.db.selectFrom(this.table).selectAll().where(column, '=', value).executeTakeFirst();
    return row && this.normalise(row as unknown as Row);
  }
}
