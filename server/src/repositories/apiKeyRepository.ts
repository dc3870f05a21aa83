import type { Kysely, Selectable, Updateable } from 'kysely';
import type { ApiKeysTable, Database } from '../db/schema.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export class ApiKeyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<ApiKeyRow[]> {
    return this.db.selectFrom('api_keys').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
  }

  findById(id: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  }

  async nameTaken(name: string, exceptId?: string): Promise<boolean> {
    let query = this.db.selectFrom('api_keys').select('id').where('name', '=', name);
    if (exceptId) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async insert(row: ApiKeyRow): Promise<void> {
    await this.db.insertInto('api_keys').values(row).execute();
  }

  async update(id: string, changes: Updateable<ApiKeysTable>): Promise<boolean> {
    const result = await this.db.updateTable('api_keys').set(changes).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async touchLastUsed(id: string, nowIso: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used: nowIso }).where('id', '=', id).execute();
  }
}
