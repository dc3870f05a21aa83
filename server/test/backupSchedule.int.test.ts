import type { BackupFile, BackupScheduleStatus, RestorePreview } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.js';
import { BackupScheduler, scheduledBackupTime, type BackupTargets } from '../src/services/backupScheduler.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';

/** An in-memory backup folder standing in for a storage config (the storage feature provides real ones). */
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
  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reports why it cannot run and refuses a run without a target', async () => {
    const status = await server.call<BackupScheduleStatus>('GET', '/api/admin/backup/schedule', { token });
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({
      enabled: false,
      interval_hours: 24,
      keep: 7,
      targets: [],
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
});
