import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ApiKeyRow } from './apiKeyRepository.js';
import type { FileRow } from './fileRepository.js';
import type { MountRow } from './mountRepository.js';
import type { PasteRow } from './pasteRepository.js';
import { upsertSetting, type SettingRow } from './settingsRepository.js';
import type { StorageConfigRow } from './storageConfigRepository.js';

/** Unique values the import looks up (table → column), from a fixed list, never from input. */
interface Lookups {
  pastes: 'id' | 'slug';
  files: 'id' | 'slug';
  api_keys: 'id' | 'name' | 'key_hash';
  storage_configs: 'id';
  mounts: 'id' | 'path';
}
export type LookupTable = keyof Lookups;
export type LookupColumn<T extends LookupTable> = Lookups[T];

/** The reads a CloudPaste import plans with. */
export interface CloudpasteImportLookup {
  /** Which of `values` the column already holds. */
  existing<T extends LookupTable>(table: T, column: LookupColumn<T>, values: string[]): Promise<Set<string>>;
  /** Storage configs here by id (type and root), for rows of a modules backup that name them. */
  configs(ids: string[]): Promise<Map<string, Pick<StorageConfigRow, 'id' | 'name' | 'storage_type' | 'root_path'>>>;
}

export interface CloudpasteImportRows {
  storage_configs: StorageConfigRow[];
  api_keys: ApiKeyRow[];
  pastes: PasteRow[];
  files: FileRow[];
  mounts: MountRow[];
  settings: SettingRow[];
  /** An imported config CloudPaste marked as the default: it becomes ours. */
  defaultConfigId: string | null;
}

export class CloudpasteImportRepository implements CloudpasteImportLookup {
  constructor(private readonly db: Kysely<Database>) {}

  async existing<T extends LookupTable>(table: T, column: LookupColumn<T>, values: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    const generic = this.db as unknown as Kysely<Record<string, Record<string, string>>>;
    for (let i = 0; i < values.length; i += 500) {
      const chunk = values.slice(i, i + 500);
      if (chunk.length === 0) continue;
      const rows = await generic
        .selectFrom(table as string)
        .select(column as string)
        .where(column as string, 'in', chunk)
        .execute();
      for (const row of rows) found.add(String(row[column]));
    }
    return found;
  }

  async configs(ids: string[]) {
    const out = new Map<string, Pick<StorageConfigRow, 'id' | 'name' | 'storage_type' | 'root_path'>>();
    if (ids.length === 0) return out;
    const rows = await this.db
      .selectFrom('storage_configs')
      .select(['id', 'name', 'storage_type', 'root_path'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) out.set(row.id, row);
    return out;
  }

  /** Writes every row in one transaction: all of them or none. */
  async write(rows: CloudpasteImportRows): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const generic = trx as unknown as Kysely<Record<string, object>>;
      const insert = async (table: LookupTable, values: object[]) => {
        for (let i = 0; i < values.length; i += 200) {
          await generic
            .insertInto(table)
            .values(values.slice(i, i + 200))
            .execute();
        }
      };
      await insert('storage_configs', rows.storage_configs);
      if (rows.defaultConfigId !== null) {
        await trx
          .updateTable('storage_configs')
          .set({ is_default: 0 })
          .where('id', '!=', rows.defaultConfigId)
          .where('is_default', '=', 1)
          .execute();
      }
      await insert('api_keys', rows.api_keys);
      await insert('pastes', rows.pastes);
      await insert('files', rows.files);
      await insert('mounts', rows.mounts);
      for (const row of rows.settings) await upsertSetting(trx, row);
    });
  }
}
