// Migration 0012 (storage_configs.root_path): existing configs keep every value and stay what they were.
import { describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../src/db/database.js';
import { insertStorageConfig } from './support/featureRows.js';
import { dbTargets } from './support/harness.js';
import { scratchDatabase } from './support/scratchDatabase.js';

describe.each(dbTargets)('migration 0012_local_storage_roots on %s', (target) => {
  it('adds root_path without touching existing rows; the built-in local config stays built-in', async () => {
    const { handle, drop } = await scratchDatabase(target);
    try {
      await migrateTo(handle, '0007_dashboard_counters');
      await insertStorageConfig(handle.db, [
        { id: 'local', name: 'Local storage', storage_type: 'local', endpoint: '', bucket: '', is_default: 1 },
        { id: 's3', name: 'bucket', secret_encrypted: 'v1:abc', total_capacity: 5_000_000_000, default_folder: 'x/y' },
      ]);
      const before = await handle.db.selectFrom('storage_configs').selectAll().orderBy('id').execute();
      await migrateToLatest(handle);
      const after = await handle.db.selectFrom('storage_configs').selectAll().orderBy('id').execute();
      const norm = (rows: Array<Record<string, unknown>>) =>
        rows.map((r) => ({ ...r, total_capacity: r.total_capacity === null ? null : Number(r.total_capacity) }));
      expect(norm(after)).toEqual(norm(before).map((r) => ({ ...r, root_path: '', options_json: '{}' })));
      // down drops the column again, keeping the rows
      await migrateTo(handle, '0007_dashboard_counters');
      const down = await handle.db.selectFrom('storage_configs').selectAll().orderBy('id').execute();
      expect(norm(down)).toEqual(norm(before));
    } finally {
      await drop();
    }
  });
});
