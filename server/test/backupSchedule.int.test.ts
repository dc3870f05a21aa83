import type { BackupFile, BackupScheduleStatus, RestorePreview } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.js';
import {
  BackupScheduler,
  scheduledBackupTime,
  type BackupTargets,
} from '../src/services/admin/backup/backupScheduler.js';
import { BACKUP_FOLDER } from '../src/services/admin/backup/storageBackupTargets.js';
import { builtinLocalConfig, insertPaste } from './support/featureRows.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';

/** An in-memory backup folder standing in for a storage config (lets a test make the target fail). */
function memoryTargets() {
  const files = new Map<string, string>();
  let failWrites = false;
  const targets: BackupTargets = {
    available: async () => [{ id: 's1', name: 'Main S3' }],
    open: async (id) =>
      id !== 's1'
        ? null
        : {
            list: async () => [...files.keys(), 'notes.txt'],
            write: async (name, body) => {
              if (failWrites) throw new Error('bucket is read-only');
              files.set(name, body);
            },
            remove: async (name) => {
              files.delete(name);
            },
          },
  };
  return { files, targets, fail: (on: boolean) => (failWrites = on) };
}

describe('scheduled backup names', () => {
  it('parses only scheduled backup names', () => {
    expect(scheduledBackupTime('clipnest-backup-scheduled-20261123-021500.json')?.toISOString()).toBe(
      '2026-11-23T02:15:00.000Z',
    );
    expect(scheduledBackupTime('clipnest-backup-full-20261123-021500.json')).toBeNull();
    expect(scheduledBackupTime('clipnest-backup-scheduled-20261399-021500.json')).toBeNull();
  });
});

describe.each(dbTargets)('scheduled backups on %s', (target) => {
  let server: TestServer;
  let token: string;
  let localId: string;
  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    localId = (await builtinLocalConfig(server)).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reports why it cannot run and refuses a run without a chosen target', async () => {
    const status = await server.call<BackupScheduleStatus>('GET', '/api/admin/backup/schedule', { token });
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({
      enabled: false,
      interval_hours: 24,
      keep: 7,
      // A fresh install can write to its built-in local storage, but none is chosen yet.
      targets: [{ id: localId, name: 'Local storage' }],
      files: [],
      next_run_at: null,
      problem: 'choose a storage config for scheduled backups',
    });
    const run = await server.call('POST', '/api/admin/backup/schedule/run', { token });
    expect(run.status).toBe(400);
    expectEnvelope(run.body, 400);
    expect(run.body.message).toMatch(/choose a storage config/);
    expect((await server.call('GET', '/api/admin/backup/schedule')).status).toBe(401);
    expect((await server.call('POST', '/api/admin/backup/schedule/run')).status).toBe(401);
  });

  it('validates the schedule settings', async () => {
    for (const body of [
      { backup_schedule_interval_hours: 0 },
      { backup_schedule_interval_hours: 1.5 },
      { backup_schedule_keep: 0 },
      { backup_schedule_keep: 1000 },
      { backup_schedule_enabled: 'yes' },
    ]) {
      const res = await server.call('PUT', '/api/admin/settings/group/1', { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('writes a full backup when due and keeps the newest N', async () => {
    const memory = memoryTargets();
    const scheduler = new BackupScheduler({
      backups: server.built.services.backups,
      settings: server.built.services.settings,
      targets: memory.targets,
      clock: server.clock,
      logger: createLogger('error'),
    });
    expect(await scheduler.tick()).toBeNull(); // disabled
    const saved = await server.call('PUT', '/api/admin/settings/group/1', {
      token,
      body: {
        backup_schedule_enabled: true,
        backup_schedule_storage_config_id: 's1',
        backup_schedule_interval_hours: 24,
        backup_schedule_keep: 2,
      },
    });
    expect(saved.status).toBe(200);

    const first = await scheduler.tick();
    expect(first).toMatch(/^clipnest-backup-scheduled-\d{8}-\d{6}\.json$/);
    expect(await scheduler.tick()).toBeNull(); // not due yet
    let status = await scheduler.status();
    expect(status.problem).toBeNull();
    expect(status.files).toEqual([first]);
    expect(new Date(status.next_run_at!).getTime() - scheduledBackupTime(first!)!.getTime()).toBe(24 * 3600_000);

    const written = [first];
    for (let i = 0; i < 3; i++) {
      server.clock.advance(24 * 3600_000 + 1000);
      written.push(await scheduler.tick());
    }
    expect(written.every(Boolean)).toBe(true);
    expect([...memory.files.keys()].sort()).toEqual(written.slice(-2).sort());

    // The written file is a backup this install accepts.
    const file = JSON.parse(memory.files.get(written.at(-1)!)!) as BackupFile;
    expect(file.modules).toHaveLength(7);
    const preview = await server.call<RestorePreview>('POST', '/api/admin/backup/preview', {
      token,
      body: { mode: 'merge', backup: file },
    });
    expect(preview.status).toBe(200);

    // A failing target: the error is reported, nothing else changes.
    memory.fail(true);
    server.clock.advance(24 * 3600_000 + 1000);
    await expect(scheduler.tick()).rejects.toThrow(/bucket is read-only/);
    status = await scheduler.status();
    expect(status.last_run).toMatchObject({ file: null, error: 'bucket is read-only' });
    expect(memory.files.size).toBe(2);
    server.clock.advance(-(4 * (24 * 3600_000 + 1000)));
  });

  it('writes to the built-in local storage: the file restores and keep-N prunes old ones', async () => {
    const scheduler = server.built.services.backupScheduler;
    const local = await builtinLocalConfig(server);
    const driver = server.built.services.storageConfigs.driverOf(local);
    const readText = async (name: string) =>
      new Response((await driver.read(`${BACKUP_FOLDER}/${name}`)).stream).text();
    const folder = async () =>
      (await driver.list(BACKUP_FOLDER)).entries
        .filter((e) => !e.isDir)
        .map((e) => e.name)
        .sort();
    await insertPaste(server, { id: 'sched-p1', slug: 'sched-one', content: 'kept in the backup' });
    const saved = await server.call('PUT', '/api/admin/settings/group/1', {
      token,
      body: {
        backup_schedule_enabled: true,
        backup_schedule_storage_config_id: local.id,
        backup_schedule_interval_hours: 24,
        backup_schedule_keep: 2,
      },
    });
    expect(saved.status).toBe(200);
    let status = await server.call<BackupScheduleStatus>('GET', '/api/admin/backup/schedule', { token });
    expect(status.body.data).toMatchObject({ problem: null, files: [], storage_config_id: local.id });

    // The first run through the API; a file that is not a scheduled backup is left alone by pruning.
    const run = await server.call<BackupScheduleStatus>('POST', '/api/admin/backup/schedule/run', { token });
    expect(run.status).toBe(200);
    expectEnvelope(run.body, 200);
    const first = run.body.data!.files[0]!;
    expect(first).toMatch(/^clipnest-backup-scheduled-\d{8}-\d{6}\.json$/);
    expect(run.body.data!.last_run).toMatchObject({ file: first, error: null });
    await driver.write(
      `${BACKUP_FOLDER}/notes.txt`,
      new Blob(['not a backup']).stream() as unknown as ReadableStream<Uint8Array>,
      { size: 12 },
    );
    expect(await scheduler.tick()).toBeNull(); // not due yet

    const written = [first];
    const step = 24 * 3600_000 + 1000;
    for (let i = 0; i < 3; i++) {
      server.clock.advance(step);
      written.push((await scheduler.tick())!);
    }
    try {
      expect(written.every(Boolean)).toBe(true);
      expect(new Set(written).size).toBe(4);
      // keep 2: the two newest backups stay, the older ones are gone, other files untouched
      expect(await folder()).toEqual([...written.slice(-2), 'notes.txt'].sort());
      status = await server.call<BackupScheduleStatus>('GET', '/api/admin/backup/schedule', { token });
      expect(status.body.data?.files).toEqual(written.slice(-2).reverse());

      // The newest file is a full backup the restore preview accepts, feature tables included.
      const file = JSON.parse(await readText(written.at(-1)!)) as BackupFile;
      expect(file).toMatchObject({ format: 'clipnest-backup', version: 1 });
      expect(file.modules).toHaveLength(7);
      expect(file.tables.pastes?.rows.map((r) => r.id)).toContain('sched-p1');
      expect(file.tables.storage_configs?.rows.map((r) => r.id)).toContain(local.id);
      const preview = await server.call<RestorePreview>('POST', '/api/admin/backup/preview', {
        token,
        body: { mode: 'overwrite', backup: file },
      });
      expect(preview.status).toBe(200);
      expectEnvelope(preview.body, 200);
      expect(preview.body.data?.encryption_key_matches).toBe(true);
      expect(preview.body.data?.tables.find((t) => t.table === 'pastes')).toMatchObject({ incoming: 1, existing: 1 });
    } finally {
      server.clock.advance(-3 * step);
    }
  });
});
