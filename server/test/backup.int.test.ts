import type { ApiKeyView, BackupModuleInfo, RestorePreview, RestoreResult } from '@clipnest/contract';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  builtinLocalConfig,
  insertFile,
  insertMount,
  insertPaste,
  insertStorageConfig,
} from './support/featureRows.js';
import { download, snapshotAll } from './support/backups.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';

const KEY_A = 'install-a-encryption-key-0001';
const KEY_B = 'install-b-encryption-key-0002';

describe.each(dbTargets)('backup and restore on %s', (target) => {
  let a: TestServer;
  let b: TestServer;
  let tokenA: string;
  let tokenB: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([
      startTestServer(target, { ENCRYPTION_KEY: KEY_A }),
      startTestServer(target, { ENCRYPTION_KEY: KEY_B }),
    ]);
    tokenA = await a.login();
    tokenB = await b.login();
    for (const name of ['alpha', 'beta', '名前 with space']) {
      await a.call('POST', '/api/admin/api-keys', { token: tokenA, body: { name, permissions: 3, basic_path: '/' } });
    }
    await a.call('PUT', '/api/admin/settings/group/4', {
      token: tokenA,
      body: { site_title: 'Install A', site_footer_markdown: '**bold**' },
    });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('lists modules with row counts', async () => {
    const res = await a.call<BackupModuleInfo[]>('GET', '/api/admin/backup/modules', { token: tokenA });
    expect(res.status).toBe(200);
    const keys = res.body.data?.find((m) => m.name === 'key_management');
    expect(keys?.tables).toEqual([{ name: 'api_keys', rows: 3 }]);
    expect(res.body.data?.map((m) => m.name)).toHaveLength(7);
  });

  it('downloads a versioned JSON file', async () => {
    const { status, file, disposition } = await download(a, tokenA, { backup_type: 'full' });
    expect(status).toBe(200);
    expect(disposition).toMatch(/attachment; filename="clipnest-backup-full-\d{8}-\d{6}\.json"/);
    expect(file).toMatchObject({ format: 'clipnest-backup', version: 1 });
    expect(file.tables.api_keys?.rows).toHaveLength(3);
    expect(JSON.stringify(file)).not.toMatch(/"admin_tokens"/);
  });

  it('moves a whole install: restore on a fresh install gives identical rows in every table', async () => {
    const { file } = await download(a, tokenA, { backup_type: 'full' });
    const preview = await b.call<RestorePreview>('POST', '/api/admin/backup/preview', {
      token: tokenB,
      body: { mode: 'overwrite', backup: file, source_encryption_key: KEY_A },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.data?.encryption_key_matches).toBe(false);
    expect(preview.body.data?.warnings.join()).toMatch(/logged out/);

    const res = await b.call<RestoreResult>('POST', '/api/admin/backup/restore', {
      token: tokenB,
      body: { mode: 'overwrite', backup: file },
    });
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    expect(res.body.data?.restored.api_keys).toBe(3);
    expect(await snapshotAll(b)).toEqual(await snapshotAll(a));
    // the restored admin account replaced B's: B's old token is gone, A's password works on B
    expect((await b.call('GET', '/api/test/admin-token', { token: tokenB })).status).toBe(401);
    tokenB = await b.login();
    // keys authenticate on the new install (they are looked up by hash)
    const keys = (await a.call<ApiKeyView[]>('GET', '/api/admin/api-keys', { token: tokenA })).body.data!;
    expect((await b.call('GET', '/api/test/api-key', { apiKey: keys[0]!.key })).status).toBe(200);
    // without the source key the encrypted copies cannot be shown
    const onB = (await b.call<ApiKeyView[]>('GET', '/api/admin/api-keys', { token: tokenB })).body.data!;
    expect(onB.every((k) => k.key === '')).toBe(true);
  });

  it('re-encrypts secrets when given the source install key', async () => {
    const { file } = await download(a, tokenA, { backup_type: 'modules', selected_modules: ['key_management'] });
    const res = await b.call<RestoreResult>('POST', '/api/admin/backup/restore', {
      token: tokenB,
      body: { mode: 'overwrite', backup: file, source_encryption_key: KEY_A },
    });
    expect(res.status).toBe(200);
    const onB = (await b.call<ApiKeyView[]>('GET', '/api/admin/api-keys', { token: tokenB })).body.data!;
    const onA = (await a.call<ApiKeyView[]>('GET', '/api/admin/api-keys', { token: tokenA })).body.data!;
    expect(onB.map((k) => k.key).sort()).toEqual(onA.map((k) => k.key).sort());
    const wrongKey = await b.call('POST', '/api/admin/backup/restore', {
      token: tokenB,
      body: { mode: 'overwrite', backup: file, source_encryption_key: 'not-the-right-key-at-all' },
    });
    expect(wrongKey.status).toBe(400);
  });

  it('a module backup restores only its tables', async () => {
    const { file } = await download(a, tokenA, { backup_type: 'modules', selected_modules: ['key_management'] });
    expect(Object.keys(file.tables)).toEqual(['api_keys']);
    await a.call('PUT', '/api/admin/settings/group/4', { token: tokenA, body: { site_title: 'Changed after backup' } });
    await a.call('POST', '/api/admin/api-keys', { token: tokenA, body: { name: 'made-after-backup' } });
    const settingsBefore = (await snapshotAll(a)).settings;
    const res = await a.call<RestoreResult>('POST', '/api/admin/backup/restore', {
      token: tokenA,
      body: { mode: 'overwrite', backup: file },
    });
    expect(res.status).toBe(200);
    const after = await snapshotAll(a);
    expect(after.settings).toEqual(settingsBefore);
    expect(after.api_keys).toHaveLength(3);
    expect(after.api_keys?.join()).not.toContain('made-after-backup');
  });

  it('merge keeps existing rows and adds missing ones', async () => {
    const { file } = await download(a, tokenA, { backup_type: 'modules', selected_modules: ['key_management'] });
    const keys = (await a.call<ApiKeyView[]>('GET', '/api/admin/api-keys', { token: tokenA })).body.data!;
    await a.call('DELETE', `/api/admin/api-keys/${keys[0]!.id}`, { token: tokenA });
    await a.call('PUT', `/api/admin/api-keys/${keys[1]!.id}`, { token: tokenA, body: { name: 'renamed-locally' } });
    const preview = await a.call<RestorePreview>('POST', '/api/admin/backup/preview', {
      token: tokenA,
      body: { mode: 'merge', backup: file },
    });
    expect(preview.body.data?.tables).toEqual([{ table: 'api_keys', incoming: 3, existing: 2, conflicts: 2 }]);
    const res = await a.call<RestoreResult>('POST', '/api/admin/backup/restore', {
      token: tokenA,
      body: { mode: 'merge', backup: file },
    });
    expect(res.body.data?.restored.api_keys).toBe(1);
    const names = (await a.call<ApiKeyView[]>('GET', '/api/admin/api-keys', { token: tokenA })).body.data!.map(
      (k) => k.name,
    );
    expect(names).toContain('renamed-locally');
    expect(names).toContain(keys[0]!.name);
  });

  it('refuses every malformed backup and changes nothing', async () => {
    const { file } = await download(a, tokenA, { backup_type: 'full' });
    const before = await snapshotAll(a);
    const broken: [string, unknown][] = [
      ['not an object', [1, 2, 3]],
      ['wrong format', { ...file, format: 'cloudpaste' }],
      ['wrong version', { ...file, version: 99 }],
      ['no modules', { ...file, modules: [] }],
      ['unknown module', { ...file, modules: ['everything'] }],
      ['module missing its rows', { ...file, tables: { ...file.tables, api_keys: undefined } }],
      ['rows not an array', { ...file, tables: { ...file.tables, api_keys: { rows: 'x' } } }],
      [
        'unknown column',
        { ...file, tables: { ...file.tables, api_keys: { rows: [{ ...file.tables.api_keys!.rows[0], evil: 1 }] } } },
      ],
      ['row without key', { ...file, tables: { ...file.tables, settings: { rows: [{ value: '1' }] } } }],
      [
        'nested value',
        { ...file, tables: { ...file.tables, settings: { rows: [{ key: 'site_title', value: { x: 1 } }] } } },
      ],
      ['newer schema', { ...file, schema_version: '9999_future' }],
      [
        'row that breaks a constraint',
        { ...file, tables: { ...file.tables, api_keys: { rows: [{ id: 'zzzzzzzzzzzz', name: null }] } } },
      ],
    ];
    for (const [label, backup] of broken) {
      for (const mode of ['overwrite', 'merge']) {
        const res = await a.call('POST', '/api/admin/backup/restore', { token: tokenA, body: { mode, backup } });
        expect(res.status, `${label} (${mode}): ${res.body.message}`).toBe(400);
        expectEnvelope(res.body, 400);
      }
    }
    const truncated = JSON.stringify({ mode: 'overwrite', backup: file }).slice(0, 200);
    const res = await a.call('POST', '/api/admin/backup/restore', {
      token: tokenA,
      rawBody: truncated,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/malformed JSON/);
    expect(await snapshotAll(a)).toEqual(before);
  });

  it('validates backup requests and keeps backups admin-only', async () => {
    expect(
      (await a.call('POST', '/api/admin/backup/create', { token: tokenA, body: { backup_type: 'modules' } })).status,
    ).toBe(400);
    expect(
      (
        await a.call('POST', '/api/admin/backup/create', {
          token: tokenA,
          body: { backup_type: 'modules', selected_modules: ['x'] },
        })
      ).status,
    ).toBe(400);
    const key = (await a.call<ApiKeyView[]>('GET', '/api/admin/api-keys', { token: tokenA })).body.data![0]!.key;
    expect(
      (await a.call('POST', '/api/admin/backup/create', { apiKey: key, body: { backup_type: 'full' } })).status,
    ).toBe(403);
    expect((await a.call('GET', '/api/admin/backup/modules')).status).toBe(401);
    expect((await a.call('POST', '/api/admin/backup/restore', { body: { backup: {} } })).status).toBe(401);
  });
});

describe.each(dbTargets)('backup → wipe → restore on %s', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('gives identical rows in every table, feature tables included', async () => {
    const token = await server.login();
    const db = server.built.database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    // The real feature tables, so the whole TABLE_ORDER is exercised. The built-in local config is there from the start.
    const local = await builtinLocalConfig(server);
    await insertStorageConfig(server, {
      id: 'config-0001',
      name: 'Main',
      storage_type: 's3',
      provider: 'minio',
      endpoint: 'http://127.0.0.1:9000/',
      bucket: 'clips',
      access_key_id: 'AKIA-test',
      secret_encrypted: 'v1:opaque-ciphertext',
      total_capacity: 5_000_000_000,
      signature_expires_in: 600,
      created_at: '2026-01-01T00:00:00.000Z',
    });
    await insertMount(server, { id: 'mount-0001', name: '照片', storage_config_id: 'config-0001' });
    await insertFile(server, [
      {
        id: 'file-0001',
        slug: 'a',
        filename: 'a b.txt',
        mimetype: 'text/plain',
        size: 12,
        storage_config_id: 'config-0001',
        storage_path: 'uploads/a b.txt',
        etag: '"abc"',
        password_hash: 'scrypt$not-a-real-hash',
        use_proxy: 0,
        created_at: '2026-01-01T00:00:00.000Z',
      },
      {
        id: 'file-0002',
        slug: 'b',
        filename: 'ü.png',
        mimetype: 'image/png',
        size: 0,
        storage_config_id: local.id,
        storage_path: 'b/ü.png',
        expires_at: '2030-01-01T00:00:00.000Z',
        created_by: 'apikey:k1',
        created_at: '2026-01-02T00:00:00.000Z',
      },
    ]);
    await insertPaste(server, [
      {
        id: 'paste-0001',
        slug: 'x',
        content: 'line 1\nline "2"\t\u0001',
        max_views: 3,
        views: 1,
        created_at: '2026-01-01T00:00:00.000Z',
      },
      {
        id: 'paste-0002',
        slug: 'y',
        content: '# 标题',
        type: 'text',
        remark: 'remark ✓',
        expires_at: '2030-01-01T00:00:00.000Z',
        created_by: 'apikey:k1',
        created_at: '2026-01-03T00:00:00.000Z',
      },
    ]);
    await server.call('POST', '/api/admin/api-keys', { token, body: { name: 'k', permissions: 3 } });
    await server.call('PUT', '/api/admin/settings/group/4', { token, body: { site_title: 'Before wipe' } });
    // A bundle of file-0001 and an upload request with one file received.
    const times = { created_at: '2026-01-04T00:00:00.000Z', updated_at: '2026-01-04T00:00:00.000Z' };
    await db
      .insertInto('folder_shares')
      .values({ id: 'bundle-0001', slug: 'bnd', type: 'bundle', name: 'a b.txt', created_by: 'admin-1', ...times })
      .execute();
    await db
      .insertInto('bundle_files')
      .values({ id: 'bundlefile-0001', share_id: 'bundle-0001', file_id: 'file-0001', name: 'a b.txt', position: 0 })
      .execute();
    await db
      .insertInto('upload_requests')
      .values({
        id: 'ureq-0001',
        slug: 'inbox',
        note: 'send them',
        max_files: 5,
        files_received: 1,
        bytes_received: 3,
        created_by: 'admin-1',
        ...times,
      })
      .execute();
    await db
      .insertInto('upload_request_files')
      .values({ id: 'reqfile-0001', request_id: 'ureq-0001', name: 'x.txt', size: 3, created_at: times.created_at })
      .execute();

    const { file } = await download(server, token, { backup_type: 'full' });
    expect(Object.keys(file.tables).sort()).toEqual(
      [
        'admins',
        'api_keys',
        'bundle_files',
        'files',
        'folder_shares',
        'mounts',
        'pastes',
        'settings',
        'storage_configs',
        'upload_request_files',
        'upload_requests',
      ].sort(),
    );
    const before = await snapshotAll(server);
    expect(Object.keys(before)).toHaveLength(11);
    expect(before.bundle_files).toHaveLength(1);
    expect(before.upload_request_files).toHaveLength(1);
    expect(Object.fromEntries(Object.entries(before).map(([t, rows]) => [t, rows.length]))).toMatchObject({
      pastes: 2,
      files: 2,
      mounts: 1,
      storage_configs: 2,
    });

    // Wipe every table (children first), admin included: nobody could log in now.
    for (const table of [
      'pastes',
      'upload_request_files',
      'upload_requests',
      'bundle_files',
      'folder_shares',
      'files',
      'mounts',
      'storage_configs',
      'api_keys',
      'settings',
      'admin_tokens',
      'admins',
    ]) {
      await db.deleteFrom(table).execute();
    }
    expect(Object.values(await snapshotAll(server)).every((rows) => rows.length === 0)).toBe(true);

    // What POST /api/admin/backup/restore runs (the API needs the admin the wipe removed).
    const result = await server.built.services.backups.restore(JSON.parse(JSON.stringify(file)), 'overwrite');
    expect(result.restored).toMatchObject({
      pastes: 2,
      files: 2,
      mounts: 1,
      storage_configs: 2,
      api_keys: 1,
      admins: 1,
    });
    expect(await snapshotAll(server)).toEqual(before);
    // The restored admin logs in again.
    expect(await server.login()).toBeTruthy();
  });
});
