// Issue 34 point 4: every row a CloudPaste import or a backup restore writes passes the rules the API
// writes the same rows with (one rule set: the contract's id, key and mount schemas). An imported key
// with id `k` used to get full permissions and answer 404 to every read, change and revocation; restored
// mounts at '', '/', '/api' or '/local/team/' could not be deleted, and a '/' mount served files by
// stripping the first segment. Now such a row is refused by name (400, nothing written), and a key value
// weaker than the API allows is not imported (named in the report).
import type { BackupFile, CloudpasteImportReport } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, snapshotAll } from '../support/backups.js';
import { fixture, importCloudpaste, reseal, type CpBackup } from '../support/cloudpaste.js';
import { insertMount } from '../support/featureRows.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from '../support/harness.js';
import { mountableLocalConfig } from '../support/mounts.js';
import { SecretCipher } from '../../src/security/cipher.js';

const NOW = '2026-01-02 03:04:05';
const KEY = 'issue-34-point-4-encryption-key';

/** A CloudPaste modules backup holding only these API keys. */
function keysBackup(keys: Record<string, unknown>[]): CpBackup {
  const backup = fixture('modules-backup.json');
  backup.metadata.selected_modules = ['key_management'];
  backup.metadata.included_modules = ['key_management'];
  backup.data = { api_keys: keys };
  return reseal(backup);
}

function cpKey(id: string, key: string, name = `key ${id}`): Record<string, unknown> {
  return {
    id,
    name,
    key,
    permissions: 2 | 256 | 512 | 4096,
    role: 'GENERAL',
    basic_path: '/',
    is_enable: 1,
    is_guest: 0,
    expires_at: null,
    created_at: NOW,
    updated_at: NOW,
  };
}

type Rows = Record<string, string | number | null>[];

describe.each(dbTargets)('imported and restored rows are rows the API can manage, on %s', (target) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(target, { ENCRYPTION_KEY: KEY });
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a CloudPaste key with an id the API cannot address is refused by name; nothing is written', async () => {
    const before = await snapshotAll(server);
    for (const id of ['k', 'has space in it', 'x'.repeat(65), 'a/b/c/d/e']) {
      const res = await importCloudpaste(server, token, {
        backup: keysBackup([cpKey('0b062753-a5d4-427b-8cbe-6d3b2fe8a30f', 'strong-key-value-1'), cpKey(id, 'short')]),
      });
      expect(res.status, id).toBe(400);
      expectEnvelope(res.body, 400);
      expect(res.body.message, id).toMatch(/table api_keys, row 2 .*id: must be 8 to 64 letters, digits, _ or -/);
    }
    // Nor as the id of any other kept row.
    const pastes = fixture('modules-backup.json');
    pastes.data.pastes![1]!.id = 'p';
    const res = await importCloudpaste(server, token, { backup: reseal(pastes) });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/table pastes, row 2 \("p"\): id: must be 8 to 64/);
    expect(await snapshotAll(server)).toEqual(before);
  });

  it('a weak key value is not imported (named in the report); the strong one is, and the API manages it', async () => {
    const res = await importCloudpaste(server, token, {
      backup: keysBackup([cpKey('strong-key-id-0001', 'strong-key-value-1'), cpKey('weak-key-id-00001', 'short')]),
    });
    expect(res.status, res.body.message).toBe(200);
    const report = res.body.data as CloudpasteImportReport;
    expect(report.kinds.api_keys.created).toBe(1);
    expect(report.kinds.api_keys.skipped).toEqual([
      expect.objectContaining({ id: 'weak-key-id-00001', reason: expect.stringMatching(/weaker than the API allows/) }),
    ]);
    // The weak value opens nothing.
    expect((await server.call('GET', '/api/test/api-key', { apiKey: 'short' })).status).toBe(401);
    // The imported key can be read, changed and revoked through the API.
    expect((await server.call('GET', '/api/test/api-key', { apiKey: 'strong-key-value-1' })).status).toBe(200);
    const put = await server.call('PUT', '/api/admin/api-keys/strong-key-id-0001', { token, body: { enabled: false } });
    expect(put.status, put.body.message).toBe(200);
    expect((await server.call('DELETE', '/api/admin/api-keys/strong-key-id-0001', { token })).status).toBe(200);
    expect((await server.call('GET', '/api/test/api-key', { apiKey: 'strong-key-value-1' })).status).toBe(401);
  });

  it('restore refuses mounts the API could not have made, keys with unaddressable ids or weak values', async () => {
    const configId = await mountableLocalConfig(server, token);
    await insertMount(server, { id: 'mount-good-0001', path: '/restored', storage_config_id: configId });
    await server.call('POST', '/api/admin/api-keys', {
      token,
      body: { name: 'restored key', custom_key: 'restored-key-value', permissions: 2 },
    });
    const file: BackupFile = (
      await download(server, token, {
        backup_type: 'modules',
        selected_modules: ['mount_management', 'key_management'],
      })
    ).file;
    const withRow = (table: string, patch: Record<string, unknown>): BackupFile => {
      const rows = (file.tables[table]?.rows ?? []) as Rows;
      const changed = rows.map((row, i) => (i === 0 ? { ...row, ...patch } : row));
      return { ...file, tables: { ...file.tables, [table]: { rows: changed as Rows } } };
    };
    const before = await snapshotAll(server);
    const cases: [string, BackupFile, RegExp][] = [
      ['empty mount path', withRow('mounts', { path: '' }), /table mounts, row 1 .*path: path is required/],
      ['root mount', withRow('mounts', { path: '/' }), /table mounts, row 1 .*path: path must look like \/xxx/],
      [
        'reserved mount path',
        withRow('mounts', { path: '/api' }),
        /table mounts, row 1 .*path: path is a system-reserved/,
      ],
      [
        'trailing slash',
        withRow('mounts', { path: '/local/team/' }),
        /table mounts, row 1 .*path: path must look like/,
      ],
      ['spaces', withRow('mounts', { path: ' /restored' }), /table mounts, row 1 .*path: has spaces around it/],
      ['mount name', withRow('mounts', { name: '' }), /table mounts, row 1 .*name: name is required/],
      ['cache_ttl', withRow('mounts', { cache_ttl: -1 }), /table mounts, row 1 .*cache_ttl/],
      ['webdav_policy', withRow('mounts', { webdav_policy: 'teleport' }), /table mounts, row 1 .*webdav_policy/],
      ['mount id', withRow('mounts', { id: 'm' }), /table mounts, row 1 \("m"\): id: must be 8 to 64/],
      ['key id', withRow('api_keys', { id: 'k' }), /table api_keys, row 1 \("k"\): id: must be 8 to 64/],
      [
        'weak key value',
        withRow('api_keys', {
          key_encrypted: new SecretCipher(KEY).encrypt('short'),
        }),
        /table api_keys, row 1 .*key_encrypted: the key value is weaker than the API allows/,
      ],
    ];
    for (const [why, backup, message] of cases) {
      for (const action of ['preview', 'restore'] as const) {
        const res = await server.call('POST', `/api/admin/backup/${action}`, {
          token,
          body: { backup, mode: 'overwrite' },
        });
        expect(res.status, `${why} (${action}): ${res.body.message}`).toBe(400);
        expectEnvelope(res.body, 400);
        expect(res.body.message, why).toMatch(message);
      }
    }
    expect(await snapshotAll(server)).toEqual(before);
    // The untouched backup restores, and its rows stay manageable.
    const ok = await server.call('POST', '/api/admin/backup/restore', {
      token,
      body: { backup: file, mode: 'overwrite' },
    });
    expect(ok.status, ok.body.message).toBe(200);
    expect((await server.call('DELETE', '/api/mount/mount-good-0001', { token })).status).toBe(200);
  });
});
