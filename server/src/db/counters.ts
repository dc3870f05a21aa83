import type { Kysely } from 'kysely';

/*
 * Derived counters the dashboard and the upload quota read instead of COUNT(*) / SUM(size) over big tables, kept
 * right by database triggers (so every writer counts: services, restore, raw SQL): `row_counts`, `daily_created`
 * and `storage_usage`. Migration `0007_dashboard_counters` defines them and their triggers; a table counted later
 * installs its own triggers in the migration that creates it (`0010_mounts`).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the counter tables of any database
type AnyDb = Kysely<any>;

/**
 * Inside a transaction: locks the `storage_usage` row of a config until the transaction ends (creating it
 * at 0 when missing) and answers its bytes. An upsert takes the row lock on both databases (PostgreSQL:
 * a row lock, held across instances; SQLite: the write lock), so writers of the same config that check
 * their size against the capacity here take turns, and the insert that follows is counted before the next
 * one reads.
 */
export async function lockStorageUsage(db: AnyDb, configId: string): Promise<number> {
  const row = await db
    .insertInto('storage_usage')
    .values({ storage_config_id: configId, bytes: 0, files: 0 })
    .onConflict((oc) => oc.column('storage_config_id').doUpdateSet((eb) => ({ bytes: eb.ref('storage_usage.bytes') })))
    .returning('bytes')
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}
