import type { Kysely, Selectable } from 'kysely';
import type { Database, SettingsTable } from '../db/schema.js';

export type SettingRow = Selectable<SettingsTable>;

/** Inserts a setting or replaces the one with its key (`db` may be a transaction). */
export async function upsertSetting(db: Kysely<Database>, row: SettingRow): Promise<void> {
  await db
    .insertInto('settings')
    .values(row)
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ value: row.value, group_id: row.group_id, updated_at: row.updated_at }),
    )
    .execute();
}

export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  all(): Promise<SettingRow[]> {
    return this.db.selectFrom('settings').selectAll().execute();
  }

  /** Writes every row in one transaction: a group is saved whole or not at all. */
  async upsertMany(rows: SettingRow[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const row of rows) await upsertSetting(trx, row);
    });
  }
}
