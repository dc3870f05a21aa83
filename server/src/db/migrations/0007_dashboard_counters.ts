import type { Kysely, Migration } from 'kysely';
import {
  createCounterTables,
  dialectOf,
  dropCounterTables,
  trackDailyCreated,
  trackRowCount,
  trackStorageUsage,
} from '../counters.js';
import { tableColumns } from '../introspect.js';

/**
 * Trigger-maintained counters for the dashboard and the upload quota (see db/counters.ts), filled
 * from the rows already there. `mounts` is counted here only if its migration already ran; a mounts
 * migration that runs later must call `trackRowCount(db, 'mounts')` itself.
 */
export const dashboardCounters: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- mounts may or may not exist
  async up(db: Kysely<any>) {
    await createCounterTables(db);
    const existing = await tableColumns(db, dialectOf(db));
    for (const table of ['pastes', 'files', 'api_keys', 'storage_configs', 'mounts']) {
      if (existing.has(table)) await trackRowCount(db, table);
    }
    await trackDailyCreated(db, 'pastes');
    await trackDailyCreated(db, 'files');
    await trackStorageUsage(db);
  },
  async down(db: Kysely<unknown>) {
    await dropCounterTables(db);
  },
};
