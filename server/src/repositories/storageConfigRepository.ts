import { type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, StorageConfigsTable } from '../db/schema.js';

export type StorageConfigRow = Selectable<StorageConfigsTable>;

/** int8 columns come back as strings from some drivers; the app works in numbers. */
function normalise(row: StorageConfigRow): StorageConfigRow {
  return {
    ...row,
    total_capacity: row.total_capacity === null ? null : Number(row.total_capacity),
    signature_expires_in: Number(row.signature_expires_in),
    path_style: Number(row.path_style),
    is_default: Number(row.is_default),
  };
}

export class StorageConfigRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(limit: number, offset: number): Promise<StorageConfigRow[]> {
    const rows = await this.db
      .selectFrom('storage_configs')
      .selectAll()
      .orderBy('is_default', 'desc')
      .orderBy('created_at', 'asc')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map(normalise);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('storage_configs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async findById(id: string): Promise<StorageConfigRow | undefined> {
    const row = await this.db.selectFrom('storage_configs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && normalise(row);
  }

  async findDefault(): Promise<StorageConfigRow | undefined> {
    const row = await this.db
      .selectFrom('storage_configs')
      .selectAll()
      .where('is_default', '=', 1)
      .orderBy('updated_at', 'desc')
      .executeTakeFirst();
    return row && normalise(row);
  }

  /** The built-in local config: type local without a root of its own. */
  async findBuiltinLocal(): Promise<StorageConfigRow | undefined> {
    const row = await this.db
      .selectFrom('storage_configs')
      .selectAll()
      .where('storage_type', '=', 'local')
      .where('root_path', '=', '')
      .orderBy('created_at', 'asc')
      .executeTakeFirst();
    return row && normalise(row);
  }

  async nameTaken(name: string, exceptId?: string): Promise<boolean> {
    let query = this.db.selectFrom('storage_configs').select('id').where('name', '=', name);
    if (exceptId) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async insert(row: StorageConfigRow): Promise<void> {
    await this.db.insertInto('storage_configs').values(row).execute();
  }

  async update(id: string, changes: Updateable<StorageConfigsTable>): Promise<boolean> {
    const result = await this.db.updateTable('storage_configs').set(changes).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Makes `id` the only default, in one transaction. */
  async setDefault(id: string, nowIso: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const exists = await trx.selectFrom('storage_configs').select('id').where('id', '=', id).executeTakeFirst();
      if (!exists) return false;
      await trx.updateTable('storage_configs').set({ is_default: 0 }).where('is_default', '=', 1).execute();
      await trx
        .updateTable('storage_configs')
        .set({ is_default: 1, updated_at: nowIso })
        .where('id', '=', id)
        .execute();
      return true;
    });
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('storage_configs').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Bytes used by file shares per config, from the trigger-maintained counter (db/counters.ts). */
  async usedBytes(ids: string[]): Promise<Map<string, number>> {
    const result = new Map<string, number>();
    if (ids.length === 0) return result;
    const rows = await this.db
      .selectFrom('storage_usage')
      .select(['storage_config_id', 'bytes'])
      .where('storage_config_id', 'in', ids)
      .execute();
    for (const row of rows) result.set(row.storage_config_id, Number(row.bytes));
    return result;
  }

  async countFiles(id: string): Promise<number> {
    const row = await this.db
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('storage_config_id', '=', id)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Mounts using this config. */
  async countMounts(id: string): Promise<number> {
    const row = await this.db
      .selectFrom('mounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('storage_config_id', '=', id)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Those of `ids` that some mount uses. */
  async mountedIds(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('mounts')
      .select('storage_config_id')
      .distinct()
      .where('storage_config_id', 'in', ids)
      .execute();
    return new Set(rows.map((r) => r.storage_config_id));
  }

  /** Paths of the mounts using this config (for the message refusing its deletion), in path order. */
  async mountPaths(id: string, limit = 20): Promise<string[]> {
    const rows = await this.db
      .selectFrom('mounts')
      .select('path')
      .where('storage_config_id', '=', id)
      .orderBy('path')
      .limit(limit)
      .execute();
    return rows.map((r) => r.path);
  }
}
