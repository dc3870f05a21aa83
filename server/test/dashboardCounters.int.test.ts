import { BACKUP_MODULES, DASHBOARD_TABLES, type ApiKeyView, type PasteCreated } from '@clipnest/contract';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../src/db/database.js';
import { tableColumns } from '../src/db/introspect.js';
import type { Database } from '../src/db/schema.js';
import { compareCounters } from './support/counters.js';
import { builtinLocalConfig, insertFile, insertPaste, insertStorageConfig } from './support/featureRows.js';
import { upload } from './support/fileShares.js';
import { createPaste } from './support/pastes.js';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { scratchDatabase } from './support/scratchDatabase.js';

const HOUR = 3600_000;

async function expectCountersExact(db: Kysely<Database>): Promise<void> {
  const { counters, truth } = await compareCounters(db);
  expect(counters).toEqual(truth);
}

describe.each(dbTargets)('dashboard counters on %s', (target) => {
  it('are filled from the rows already there by the migration, and dropped cleanly by its down', async () => {
    const { handle, drop } = await scratchDatabase(target);
    try {
      await migrateTo(handle, '0006_upload_sessions');
      await insertStorageConfig(handle.db, [{ id: 's1' }, { id: 's2' }]);
      await insertPaste(handle.db, [
        { id: 'p1', created_at: '2026-01-01T10:00:00.000Z' },
        { id: 'p2', created_at: '2026-01-01T23:59:59.999Z' },
        { id: 'p3', created_at: '2026-01-02T00:00:00.000Z' },
      ]);
      await insertFile(handle.db, [
        { id: 'f1', storage_config_id: 's1', size: 5_000_000_000, created_at: '2026-01-03T00:00:00.000Z' },
        { id: 'f2', storage_config_id: 's1', size: 7 },
        { id: 'f3', storage_config_id: 's2', size: 0 },
      ]);

      await migrateToLatest(handle);
      await expectCountersExact(handle.db);
      const rows = await handle.db.selectFrom('row_counts').selectAll().orderBy('table_name').execute();
      expect(rows.map((r) => [r.table_name, Number(r.n)])).toEqual([
        ['api_keys', 0],
        ['files', 3],
        ['folder_shares', 0],
        ['mounts', 0],
        ['pastes', 3],
        ['storage_configs', 2],
        ['upload_requests', 0],
      ]);
      const usage = await handle.db
        .selectFrom('storage_usage')
        .selectAll()
        .where('storage_config_id', '=', 's1')
        .execute();
      expect(usage.map((u) => [Number(u.bytes), Number(u.files)])).toEqual([[5_000_000_007, 2]]);

      // Down removes the triggers with the tables: writes keep working; up again recounts. (migrateTo, not
      // migrateDown: later migrations sit on top of 0007 and go down with it.)
      await migrateTo(handle, '0006_upload_sessions');
      const tables = await tableColumns(handle.db, handle.dialect);
      expect(['row_counts', 'daily_created', 'storage_usage'].filter((t) => tables.has(t))).toEqual([]);
      await insertPaste(handle.db, { id: 'p4' });
      await handle.db.deleteFrom('files').where('id', '=', 'f3').execute();
      await migrateToLatest(handle);
      await expectCountersExact(handle.db);
    } finally {
      await drop();
    }
  });

  describe('on a running server', () => {
    let server: TestServer;
    let token: string;
    let db: Kysely<Database>;
    let localId: string;

    beforeAll(async () => {
      server = await startTestServer(target);
      token = await server.login();
      db = server.built.database.db;
      localId = (await builtinLocalConfig(db)).id;
    });
    afterAll(async () => {
      await server?.close();
    });

    it('count every table the dashboard shows once it exists', async () => {
      const tables = await tableColumns(db, server.built.database.dialect);
      const tracked = new Set(
        (await db.selectFrom('row_counts').select('table_name').execute()).map((r) => r.table_name),
      );
      // A feature table without its counter would silently show 0: its migration must install its row_counts triggers.
      expect(DASHBOARD_TABLES.filter((t) => tables.has(t) && !tracked.has(t))).toEqual([]);
      await expectCountersExact(db);
    });

    it('follow paste inserts, deletes, batch deletes and clear-expired', async () => {
      const made: PasteCreated[] = [];
      for (let i = 0; i < 6; i++) {
        made.push(await createPaste(server, { token }, { content: `paste ${i}`, ...(i < 2 ? { expires_in: 1 } : {}) }));
      }
      await expectCountersExact(db);
      expect((await server.call('DELETE', `/api/pastes/${made[5]!.id}`, { token })).status).toBe(200);
      await expectCountersExact(db);
      const batch = await server.call('DELETE', '/api/pastes/batch-delete', {
        token,
        body: { ids: [made[3]!.id, made[4]!.id, 'no-such-id'] },
      });
      expect(batch.status).toBe(200);
      await expectCountersExact(db);
      server.clock.advance(HOUR + 1000);
      try {
        const cleared = await server.call<{ deleted: number }>('POST', '/api/pastes/clear-expired', {
          token,
          body: { clearExpired: true },
        });
        expect(cleared.body.data?.deleted).toBe(2);
      } finally {
        server.clock.advance(-(HOUR + 1000));
      }
      await expectCountersExact(db);
      const count = await db.selectFrom('row_counts').select('n').where('table_name', '=', 'pastes').executeTakeFirst();
      expect(Number(count?.n)).toBe(1);
    });

    it('follow files: uploads, batch deletes, size, config and created_at updates', async () => {
      for (const name of ['a.txt', 'b.txt', 'c.txt']) {
        const res = await upload(server, `content of ${name}`, { token, filename: name });
        expect(res.status).toBe(201);
      }
      await insertStorageConfig(db, [{ id: 'cfg-aaaa' }, { id: 'cfg-bbbb' }]);
      await insertFile(db, [
        { id: 'file-fa1', storage_config_id: 'cfg-aaaa', size: 100, created_at: '2026-02-01T00:00:00.000Z' },
        { id: 'file-fa2', storage_config_id: 'cfg-aaaa', size: 200, created_at: '2026-02-01T12:00:00.000Z' },
        { id: 'file-fb1', storage_config_id: 'cfg-bbbb', size: 300, created_at: '2026-02-02T00:00:00.000Z' },
      ]);
      await expectCountersExact(db);

      const uploaded = await db.selectFrom('files').select('id').where('storage_config_id', '=', localId).execute();
      const del = await server.call('DELETE', '/api/files/batch-delete', {
        token,
        body: { ids: [uploaded[0]!.id, 'file-fb1'], delete_mode: 'both' },
      });
      expect(del.status).toBe(200);
      await expectCountersExact(db);

      await db.updateTable('files').set({ size: 150 }).where('id', '=', 'file-fa1').execute();
      await expectCountersExact(db);
      await db.updateTable('files').set({ storage_config_id: 'cfg-bbbb' }).where('id', '=', 'file-fa2').execute();
      await expectCountersExact(db);
      // Several rows in one statement, size and config at once; then a day change; then a no-op update.
      await db
        .updateTable('files')
        .set({ storage_config_id: 'cfg-aaaa', size: sql<number>`size + 1` })
        .where('id', 'in', ['file-fa1', 'file-fa2'])
        .execute();
      await db
        .updateTable('files')
        .set({ created_at: '2026-03-01T00:00:00.000Z' })
        .where('id', '=', 'file-fa1')
        .execute();
      await db.updateTable('pastes').set({ created_at: '2025-12-31T00:00:00.000Z' }).execute();
      await db
        .updateTable('files')
        .set({ views: sql<number>`views + 1` })
        .execute();
      await expectCountersExact(db);
      const usage = await server.built.services.storageConfigs.usedBytes('cfg-aaaa');
      expect(usage).toBe(151 + 201);
    });

    it('follow API keys and storage configs', async () => {
      const made = await server.call<ApiKeyView>('POST', '/api/admin/api-keys', { token, body: { name: 'counted' } });
      expect(made.status).toBe(201);
      await expectCountersExact(db);
      expect((await server.call('DELETE', `/api/admin/api-keys/${made.body.data!.id}`, { token })).status).toBe(200);
      await insertStorageConfig(db, { id: 'cfg-unused' });
      await expectCountersExact(db);
      expect((await server.call('DELETE', '/api/s3-configs/cfg-unused', { token })).status).toBe(200);
      await expectCountersExact(db);
    });

    it.runIf(target === 'postgres')(
      'are reset by a TRUNCATE (PostgreSQL fires no delete triggers for it)',
      async () => {
        await insertPaste(db, [{ id: 'to-truncate-1' }, { id: 'to-truncate-2' }]);
        await insertStorageConfig(db, { id: 'cfg-truncate' });
        await insertFile(db, { id: 'file-ft1', storage_config_id: 'cfg-truncate', size: 42 });
        const saved = {
          pastes: await db.selectFrom('pastes').selectAll().execute(),
          files: await db.selectFrom('files').selectAll().execute(),
        };
        await sql`truncate pastes, files`.execute(db);
        await expectCountersExact(db);
        await db.insertInto('pastes').values(saved.pastes).execute();
        await db.insertInto('files').values(saved.files).execute();
        await expectCountersExact(db);
      },
    );

    it('are right after a restore over a wiped database, an overwrite restore and a merge restore', async () => {
      const backups = server.built.services.backups;
      const file = JSON.parse(JSON.stringify(await backups.create(BACKUP_MODULES))) as unknown;
      const before = await compareCounters(db);

      // Wipe every backed-up table (children first), as a move to a new machine starts.
      const wide = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      for (const table of ['pastes', 'files', 'storage_configs', 'api_keys', 'settings', 'admin_tokens', 'admins']) {
        await wide.deleteFrom(table).execute();
      }
      await expectCountersExact(db);
      expect(Object.values((await compareCounters(db)).counters.rows).every((n) => n === 0)).toBe(true);

      await backups.restore(file, 'overwrite');
      await expectCountersExact(db);
      expect((await compareCounters(db)).counters).toEqual(before.counters);

      // Overwrite over a changed install: extra rows go, the backup's rows come back.
      await insertPaste(db, [{ id: 'extra1' }, { id: 'extra2' }]);
      await insertFile(db, { id: 'extra-file', storage_config_id: 'cfg-bbbb', size: 999 });
      await backups.restore(file, 'overwrite');
      await expectCountersExact(db);
      expect((await compareCounters(db)).counters).toEqual(before.counters);

      // Merge: rows already there are skipped (not counted twice), missing ones come back.
      await db.deleteFrom('files').where('id', '=', 'file-fa1').execute();
      await insertPaste(db, { id: 'kept-by-merge', created_at: '2026-04-01T00:00:00.000Z' });
      await backups.restore(file, 'merge');
      await expectCountersExact(db);
      const pastes = await db
        .selectFrom('row_counts')
        .select('n')
        .where('table_name', '=', 'pastes')
        .executeTakeFirst();
      expect(Number(pastes?.n)).toBe(before.counters.rows.pastes! + 1);
      token = await server.login();
    });
  });
});
