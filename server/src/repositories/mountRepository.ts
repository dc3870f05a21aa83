import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, MountsTable } from '../db/schema.js';

export type MountRow = Selectable<MountsTable>;

/** int columns may come back as strings from some drivers; the app works in numbers. */
function normalise(row: MountRow): MountRow {
  return {
    ...row,
    sort_order: Number(row.sort_order),
    cache_ttl: Number(row.cache_ttl),
    is_active: Number(row.is_active),
    web_proxy: Number(row.web_proxy),
    enable_sign: Number(row.enable_sign),
    sign_expires: row.sign_expires === null ? null : Number(row.sign_expires),
  };
}

export class MountRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every mount, in display order (sort_order, then path). */
  async list(): Promise<MountRow[]> {
    const rows = await this.db
      .selectFrom('mounts')
      .selectAll()
      .orderBy('sort_order', 'asc')
      .orderBy('path', 'asc')
      .orderBy('id')
      .execute();
    return rows.map(normalise);
  }

  async findById(id: string): Promise<MountRow | undefined> {
    const row = await this.db.selectFrom('mounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row && normalise(row);
  }

  async pathTaken(path: string, exceptId?: string): Promise<boolean> {
    let query = this.db.selectFrom('mounts').select('id').where('path', '=', path);
    if (exceptId) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async insert(row: MountRow): Promise<void> {
    await this.db.insertInto('mounts').values(row).execute();
  }

  async update(id: string, changes: Updateable<MountsTable>): Promise<boolean> {
    const result = await this.db.updateTable('mounts').set(changes).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('mounts').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
