// Issue 34 point 3: one storage endpoint guard for every way a storage config enters (API, CloudPaste
// import, backup restore and its preview) and at connect time, literal addresses included (Node connects
// to a literal without calling the guarded `lookup`). Before, an imported or restored S3 row with a
// refused endpoint was stored (the API refused the same with 400) and the server contacted it on the next
// test or sweep. The test uses the guard's own rules (STORAGE_ENDPOINTS_ALLOW_PRIVATE=false refuses
// loopback) and a listener on 127.0.0.1 that counts every connection it gets: it must get none.
import type { BackupFile } from '@clipnest/contract';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, snapshotAll } from '../support/backups.js';
import { fixture, importCloudpaste, reseal } from '../support/cloudpaste.js';
import { insertMount, insertStorageConfig } from '../support/featureRows.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from '../support/harness.js';

type Rows = Record<string, string | number | null>[];

describe.each(dbTargets)('the storage endpoint guard at every door, on %s', (target) => {
  let server: TestServer;
  let token: string;
  let listener: Server;
  let port = 0;
  let connections = 0;

  beforeAll(async () => {
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
    port = (listener.address() as { port: number }).port;
    server = await startTestServer(target, { STORAGE_ENDPOINTS_ALLOW_PRIVATE: 'false' });
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => listener?.close(() => resolve()));
  });

  /** Spellings of the listener's address the URL parser turns into 127.0.0.1 or ::1. */
  const spellings = () => [
    `http://127.0.0.1:${port}`,
    `http://2130706433:${port}`,
    `http://0x7f.0.0.1:${port}`,
    `http://127.1:${port}`,
    `http://[::ffff:127.0.0.1]:${port}`,
  ];

  it('the API refuses the endpoint (the rule the other doors must share)', async () => {
    for (const endpoint of spellings()) {
      const res = await server.call('POST', '/api/s3-configs', {
        token,
        body: {
          name: `loopback ${endpoint}`,
          provider: 'other',
          endpoint,
          bucket: 'b',
          region: 'us-east-1',
          access_key_id: 'k',
          secret_access_key: 's',
          path_style: true,
        },
      });
      expect(res.status, endpoint).toBe(400);
      expect(res.body.message, endpoint).toMatch(/endpoint refused: .*a loopback address/);
    }
  });

  it('a CloudPaste import with that endpoint is refused, naming the row; nothing is written', async () => {
    const before = await snapshotAll(server);
    for (const endpoint of spellings()) {
      const backup = fixture('full-backup.json');
      const s3 = backup.data.storage_configs!.filter((row) => row.storage_type === 'S3');
      const config = JSON.parse(String(s3[0]!.config_json)) as Record<string, unknown>;
      config.endpoint_url = endpoint;
      s3[0]!.config_json = JSON.stringify(config);
      backup.metadata.backup_type = 'modules';
      backup.data = { storage_configs: s3 };
      for (const dry_run of [true, false]) {
        const res = await importCloudpaste(server, token, { backup: reseal(backup), dry_run });
        expect(res.status, endpoint).toBe(400);
        expectEnvelope(res.body, 400);
        expect(res.body.message, endpoint).toMatch(
          /table storage_configs, row 1 \("d3ae1865-aae4-4418-a6bd-5b90ce2c8073"\): config_json\.endpoint_url: refused: .*a loopback address/,
        );
      }
    }
    expect(await snapshotAll(server)).toEqual(before);
    expect(connections).toBe(0);
  });

  it('restore and its preview refuse a storage config with that endpoint; nothing is written', async () => {
    // A row written before the guard existed (or by hand): the backup carries it.
    await insertStorageConfig(server, {
      id: 'old-loopback-config',
      name: 'old loopback',
      endpoint: `http://127.0.0.1:${port}`,
    });
    const file: BackupFile = (
      await download(server, token, { backup_type: 'modules', selected_modules: ['storage_config'] })
    ).file;
    const before = await snapshotAll(server);
    for (const endpoint of spellings()) {
      const rows = (file.tables.storage_configs?.rows ?? []) as Rows;
      const changed = rows.map((row) => (row.id === 'old-loopback-config' ? { ...row, endpoint } : row));
      const backup = { ...file, tables: { storage_configs: { rows: changed } } };
      for (const action of ['preview', 'restore'] as const) {
        for (const mode of ['merge', 'overwrite'] as const) {
          const res = await server.call('POST', `/api/admin/backup/${action}`, { token, body: { backup, mode } });
          expect(res.status, `${action} ${mode} ${endpoint}: ${res.body.message}`).toBe(400);
          expectEnvelope(res.body, 400);
          expect(res.body.message).toMatch(
            /module storage_config, table storage_configs, row \d+ \("old-loopback-config"\): endpoint: refused: .*a loopback address/,
          );
        }
      }
    }
    expect(await snapshotAll(server)).toEqual(before);
    expect(connections).toBe(0);
  });

  it('a stored row with that endpoint is never contacted: not by its test, nor through a mount', async () => {
    await insertStorageConfig(server, [
      { id: 'literal-loopback', name: 'literal', endpoint: `http://127.0.0.1:${port}` },
      { id: 'decimal-loopback', name: 'decimal', endpoint: `http://2130706433:${port}` },
      { id: 'named-loopback-1', name: 'named', endpoint: `http://localhost:${port}` },
    ]);
    for (const id of ['literal-loopback', 'decimal-loopback', 'named-loopback-1']) {
      const res = await server.call<{ success: boolean; steps: { message: string }[] }>(
        'POST',
        `/api/s3-configs/${id}/test`,
        { token },
      );
      expect(res.status, id).toBe(200);
      expect(res.body.data?.success, id).toBe(false);
      expect(res.body.data?.steps[0]?.message, id).toMatch(/storage endpoint refused/);
    }
    await insertMount(server, { id: 'loopback-mount', path: '/loopback', storage_config_id: 'literal-loopback' });
    server.built.services.vfs.mountsChanged();
    const list = await server.call('GET', '/api/fs/list?path=/loopback', { token });
    expect(list.status).toBeGreaterThanOrEqual(400);
    expect(list.status).toBeLessThan(600);
    expect(connections).toBe(0);
  });
});
