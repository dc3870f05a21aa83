// Moving in from CloudPaste (issue #24): the real 1.9.1 fixtures imported end to end, on SQLite and PostgreSQL.
import type { CloudpasteImportReport, MountList } from '@clipnest/contract';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloudpasteImportRepository } from '../src/repositories/cloudpasteImportRepository.js';
import { snapshotAll } from './support/backups.js';
import {
  copyStorage,
  counts,
  fixture,
  fixtureText,
  fullBackupFor,
  importCloudpaste,
  loadS3,
  reseal,
  sha256,
  type CpBackup,
} from './support/cloudpaste.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { fetchRaw } from './support/pastes.js';
import { startS3rver, type S3Emulator } from './support/s3Emulator.js';
import { withAdminServer } from './support/adminServer.js';

const CP_ROOT = '/srv/cloudpaste/storage';

const PASTES: Record<string, { content: string; password?: string }> = {
  NM2mkG: {
    content:
      '# Release notes\n\n- Added **bold** feature\n- Fixed _italic_ bug\n\n> Quote line\n\n[link](https://example.com)\n',
  },
  'secret-note': { content: 'The vault code is 4242.\n\nOnly share with the team.', password: 'paste-pw-1' },
  'expires-later': { content: 'This paste expires on 2031-06-30.' },
  'three-views': { content: 'You can open this three times.' },
  'hello-fixture': { content: 'Hello from the CloudPaste fixture (set A).' },
  'unicode-mix': {
    content:
      '# 你好，世界 👋\n\n这是一段中文文本，包含 emoji：😀🎉🔥\n\n```python\ndef greet(name: str) -> str:\n    return f"你好, {name}! 🐍"\n\nprint(greet("世界"))\n```\n\nÄÖÜ ß é ñ — “quotes” …\n',
  },
  'with-remark': { content: 'Paste that carries a remark.' },
  'by-api-key': { content: 'Created with the fixture-text-a API key; not public.' },
};

const FILES: Record<string, { sha256: string; password?: string }> = {
  'hello-txt': { sha256: '7d7c370fe3085c9aca3cb318b4e5032ca091ba536b1a869f7482a5cbe65d7a96' },
  'tiny-png': { sha256: '2c68b6ee5ad126781385bd7119ee30fbd5e41383aa4de2e7c8376a59bf801fce' },
  'readme-md': { sha256: '6a58dbd217cf6951be648a05a3e733b23cfd6a66a75fdcef13988e75f2a4e554' },
  'secret-file': { sha256: '648eba2b40c2987f1f66018e324330cc6cd43f69dadfbabca566a2750e10a3fe', password: 'file-pw-1' },
  'limited-file': { sha256: 'd7c08bfaebe11ccf7a3a9ebb8df43444a91cd55017444778a5d722e4ede1ab8a' },
  's3-report': { sha256: '9c4ad97408a620e96b067366d33517aebee17bfeec412e7b91af0ffb294dead9' },
  'from-key-json': { sha256: '2ccace195994bac560bab16839661702f5e101297818f8a70ac1112d9bd9c842' },
};

async function download(server: TestServer, slug: string, password?: string) {
  const query = password ? `?password=${encodeURIComponent(password)}` : '';
  const res = await fetch(`${server.url}/api/file-download/${slug}${query}`);
  return { status: res.status, body: new Uint8Array(await res.arrayBuffer()) };
}

describe.each(dbTargets)('CloudPaste import (full backup) on %s', (target) => {
  let server: TestServer;
  let token: string;
  let s3: S3Emulator;
  let base: string;
  let allowed: string;
  let storageCopy: string;
  let backup: CpBackup;

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'clipnest-cp-')));
    allowed = path.join(base, 'roots');
    storageCopy = path.join(allowed, 'cloudpaste-storage');
    mkdirSync(allowed, { recursive: true });
    copyStorage(storageCopy);
    [server, s3] = await Promise.all([
      startTestServer(target, { LOCAL_STORAGE_ROOTS: allowed }),
      startS3rver({ bucket: 'cpbucket' }),
    ]);
    await loadS3(s3);
    backup = fullBackupFor(s3);
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  const request = (extra: Record<string, unknown> = {}) => ({
    backup,
    local_roots: { [CP_ROOT]: storageCopy },
    ...extra,
  });

  it('refuses each bad input with a 400 naming the problem, and writes nothing', async () => {
    const before = await snapshotAll(server);
    const edited = (edit: (b: CpBackup) => void, seal = true) => {
      const copy = JSON.parse(JSON.stringify(backup)) as CpBackup;
      edit(copy);
      return seal ? reseal(copy) : copy;
    };
    const text = fixtureText('full-backup.json');
    const cases: [string, unknown, RegExp][] = [
      ['not a backup (text)', { backup: 'hello, not json' }, /not a CloudPaste backup/],
      ['not a backup (object)', { backup: { hello: 1 } }, /no "metadata" and "data"/],
      ['truncated', { backup: text.slice(0, Math.floor(text.length / 2)) }, /truncated/],
      [
        'truncated object (rows missing)',
        { backup: edited((b) => b.data.pastes!.pop(), false) },
        /truncated or was edited: metadata lists 8 rows in pastes/,
      ],
      [
        'checksum mismatch',
        { backup: edited((b) => (b.data.pastes![0]!.content = 'tampered'), false) },
        /checksum mismatch/,
      ],
      ['unknown version', { backup: edited((b) => (b.metadata.version = '2.0')) }, /unknown backup version "2.0"/],
      [
        'unknown schema_version',
        { backup: edited((b) => (b.metadata.schema_version = '99')) },
        /unknown schema_version "99"/,
      ],
      [
        'bad row',
        { backup: edited((b) => (b.data.pastes![2]!.views = -1)) },
        /table pastes, row 3 \("46ba8db1-723b-494a-94ca-d93a2e21228f"\): views: cannot be negative/,
      ],
      [
        'bad time',
        { backup: edited((b) => (b.data.files![0]!.expires_at = 'tomorrow')) },
        /table files, row 1 .*expires_at: is not a time/,
      ],
      [
        'undecodable secret',
        {
          backup: edited((b) => {
            const row = b.data.storage_configs![1]!;
            const config = JSON.parse(String(row.config_json)) as Record<string, unknown>;
            config.secret_access_key = 'encrypted:abc:%%%';
            row.config_json = JSON.stringify(config);
          }),
        },
        /table storage_configs, row 2 .*secret_access_key/,
      ],
      ['local root outside the allowed roots', { backup, local_roots: { [CP_ROOT]: '/etc' } }, /local_roots/],
      [
        'local root through ..',
        { backup, local_roots: { [CP_ROOT]: `${allowed}/../outside` } },
        /local_roots\["\/srv\/cloudpaste\/storage"\]/,
      ],
      ['unknown local root', { backup, local_roots: { '/nope': storageCopy } }, /local_roots\["\/nope"\]/],
      [
        'local root folder missing',
        { backup, dry_run: true, local_roots: { [CP_ROOT]: path.join(allowed, 'not-copied-yet') } },
        /does not exist here: copy CloudPaste's storage folder there first/,
      ],
      ['a Clipnest backup', { backup: { format: 'clipnest-backup', tables: {} } }, /Clipnest backup/],
      [
        'a row twice',
        { backup: edited((b) => b.data.files!.push({ ...b.data.files![0]!, slug: 'other-slug' })) },
        /table files, row 8 \("e875f17e-67e0-480d-9a18-74c1589684a2"\): id: appears twice \(also row 1\)/,
      ],
      ['bad on_conflict', { backup, on_conflict: 'overwrite' }, /on_conflict/],
    ];
    for (const [why, body, message] of cases) {
      const res = await importCloudpaste(server, token, body);
      expect(res.status, why).toBe(400);
      expectEnvelope(res.body, 400);
      expect(res.body.message, why).toMatch(message);
    }
    expect((await importCloudpaste(server, undefined, request())).status).toBe(401);
    expect(await snapshotAll(server)).toEqual(before);
    expect(existsSync(path.join(allowed, 'not-copied-yet'))).toBe(false);
  });

  it('writes all rows or none: a failure in the last table rolls back the others', async () => {
    const before = await snapshotAll(server);
    const repo = (server.built.services.cloudpasteImport as unknown as { deps: { repo: CloudpasteImportRepository } })
      .deps.repo;
    const write = repo.write.bind(repo);
    // The mounts go in after configs, keys, pastes and files: the same mount twice breaks the transaction there.
    repo.write = (rows) => write({ ...rows, mounts: [...rows.mounts, ...rows.mounts.slice(-1)] });
    try {
      const res = await importCloudpaste(server, token, request());
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/nothing was changed/);
    } finally {
      repo.write = write;
    }
    expect(await snapshotAll(server)).toEqual(before);
  });

  it('dry run: reports what would happen and writes nothing', async () => {
    const before = await snapshotAll(server);
    const unmapped = await importCloudpaste(server, token, { backup, dry_run: true });
    expect(unmapped.status).toBe(200);
    const u = unmapped.body.data!;
    expect(u.local_roots).toEqual([{ root_path: CP_ROOT, configs: ['Local Disk A'], mapped_to: null }]);
    expect(counts(u)).toMatchObject({
      storage_configs: { total: 2, created: 1, skipped: 1 },
      files: { total: 7, created: 1, skipped: 6 },
      mounts: { total: 2, created: 1, skipped: 1 },
    });

    // A storage type we lack: not supported, and so are the file share and mount on it.
    const webdav = JSON.parse(JSON.stringify(backup)) as CpBackup;
    webdav.data.storage_configs!.push({
      ...webdav.data.storage_configs![1]!,
      id: 'webdav-config-0001',
      name: 'Some WebDAV',
      storage_type: 'TELEGRAM',
      is_default: 0,
      config_json: '{"bot_token":"x","target_chat_id":"1"}',
    });
    webdav.data.files!.push({
      ...webdav.data.files![0]!,
      id: 'webdav-file-0001',
      slug: 'on-webdav',
      storage_config_id: 'webdav-config-0001',
    });
    webdav.data.storage_mounts!.push({
      ...webdav.data.storage_mounts![0]!,
      id: 'webdav-mount-0001',
      mount_path: '/dav-x',
      storage_config_id: 'webdav-config-0001',
    });
    const unsupported = (await importCloudpaste(server, token, request({ backup: reseal(webdav), dry_run: true }))).body
      .data!;
    expect(unsupported.kinds.storage_configs.not_supported).toEqual([
      {
        id: 'webdav-config-0001',
        name: 'Some WebDAV',
        reason: 'storage type TELEGRAM is not supported here (local, S3, WebDAV, OneDrive and Google Drive only)',
      },
    ]);
    expect(unsupported.kinds.files.not_supported.map((i) => i.name)).toEqual(['on-webdav']);
    expect(unsupported.kinds.mounts.not_supported.map((i) => i.id)).toEqual(['webdav-mount-0001']);

    const res = await importCloudpaste(server, token, request({ dry_run: true }));
    expect(res.status).toBe(200);
    const report = res.body.data!;
    expect(report.dry_run).toBe(true);
    expect(report.source).toMatchObject({
      version: '1.0',
      schema_version: '34',
      backup_type: 'full',
      total_records: 84,
    });
    expectFullCounts(report);
    expect(report.local_roots).toEqual([{ root_path: CP_ROOT, configs: ['Local Disk A'], mapped_to: storageCopy }]);
    expect(await snapshotAll(server)).toEqual(before);
  });

  it('imports everything; pastes open with their content and passwords, views carried', async () => {
    const res = await importCloudpaste(server, token, request());
    expect(res.status).toBe(200);
    expect(res.body.data!.dry_run).toBe(false);
    expectFullCounts(res.body.data!);

    for (const [slug, { content, password }] of Object.entries(PASTES)) {
      if (password) {
        expect((await fetchRaw(server, slug)).status, slug).toBe(401);
        expect((await fetchRaw(server, slug, 'wrong-password')).status, slug).toBe(401);
      }
      const res = await fetchRaw(server, slug, password);
      expect(res.status, slug).toBe(200);
      expect(res.text, slug).toBe(content);
    }
    // three-views: 3 allowed, 1 used in CloudPaste, 1 above → one more, then gone
    expect((await fetchRaw(server, 'three-views')).status).toBe(200);
    expect((await fetchRaw(server, 'three-views')).status).toBe(410);
    // the password was re-hashed with scrypt from CloudPaste's plain copy
    const row = await server.built.database.db
      .selectFrom('pastes')
      .select('password_hash')
      .where('slug', '=', 'secret-note')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
  });

  it('every file downloads with its sha256 (local from the mapped copy, S3 from the emulator)', async () => {
    for (const [slug, { sha256: expected, password }] of Object.entries(FILES)) {
      if (password) expect((await download(server, slug)).status, slug).toBe(401);
      const res = await download(server, slug, password);
      expect(res.status, slug).toBe(200);
      expect(sha256(res.body), slug).toBe(expected);
    }
  });

  it('every API key works with its old value and can do what its mapped bits allow', async () => {
    const as = (apiKey: string) => ({ apiKey });
    const info = async (key: string) =>
      server.call<{ permissions: number; basic_path: string }>('GET', '/api/test/api-key', as(key));
    // fixture-text-a: TEXT_SHARE|TEXT_MANAGE → TEXT
    expect((await info('cpfixA-text-0001')).body.data).toMatchObject({ permissions: 1, basic_path: '/' });
    expect(
      (await server.call('POST', '/api/paste', { ...as('cpfixA-text-0001'), body: { content: 'hi' } })).status,
    ).toBe(201);
    expect((await server.call('GET', '/api/mount/list', as('cpfixA-text-0001'))).status).toBe(403);
    const upload = (key: string) =>
      fetch(`${server.url}/api/upload-direct/from-import.txt`, {
        method: 'PUT',
        headers: { authorization: `ApiKey ${key}`, accept: 'application/json' },
        body: 'uploaded with an imported key',
      });
    expect((await upload('cpfixA-text-0001')).status).toBe(403);
    // the paste it created in CloudPaste is its own here
    const own = await server.call<{ items: { slug: string }[] }>('GET', '/api/pastes', as('cpfixA-text-0001'));
    expect(own.body.data!.items.map((p) => p.slug)).toContain('by-api-key');
    // fixture-files-a: FILE_SHARE|FILE_MANAGE|MOUNT_VIEW|MOUNT_UPLOAD → FILE_SHARE|MOUNT_VIEW|MOUNT_UPLOAD, base /local
    expect((await info('cpfixA-files-0002')).body.data).toMatchObject({
      permissions: 2 | 256 | 512,
      basic_path: '/local',
    });
    expect((await upload('cpfixA-files-0002')).status).toBe(201);
    expect(
      (await server.call('POST', '/api/paste', { ...as('cpfixA-files-0002'), body: { content: 'x' } })).status,
    ).toBe(403);
    const mounts = await server.call<MountList>('GET', '/api/mount/list', as('cpfixA-files-0002'));
    expect(mounts.status).toBe(200);
    expect(mounts.body.data!.items.map((m) => m.path)).toEqual(['/local']);
    const listing = await server.call<{ items: { name: string }[] }>(
      'GET',
      '/api/fs/list?path=/local',
      as('cpfixA-files-0002'),
    );
    expect(listing.status).toBe(200);
    expect(listing.body.data!.items.map((i) => i.name)).toContain('shares');
    // fixture-webdav-a was disabled in CloudPaste: known, refused as disabled; its bits carried
    const webdav = await info('WM0Ja5zl0AAi');
    expect(webdav.status).toBe(401);
    expect(webdav.body.message).toMatch(/disabled/);
    const keys = await server.call<
      { name: string; permissions: number; enabled: boolean; expires_at: string | null }[]
    >('GET', '/api/admin/api-keys', { token });
    const byName = Object.fromEntries((keys.body.data ?? []).map((k) => [k.name, k]));
    expect(byName['fixture-webdav-a']).toMatchObject({ permissions: 65536 | 131072 | 256, enabled: false });
    expect(byName['fixture-text-a']).toMatchObject({ expires_at: null, enabled: true });
    expect(byName['fixture-files-a']).toMatchObject({ expires_at: '2030-01-01T00:00:00.000Z' });
    // the seeded guest key is not imported
    expect((await info('guest')).status).toBe(401);
    expect(byName.guest).toBeUndefined();
  });

  it('mounts list, on the imported configs (the LOCAL one with its own root); settings carried', async () => {
    const res = await server.call<MountList>('GET', '/api/mount/list', { token });
    const mounts = res.body.data!.items;
    expect(mounts.map((m) => [m.path, m.name]).sort()).toEqual([
      ['/local', 'Local files A'],
      ['/s3', 'S3 bucket A'],
    ]);
    const s3Mount = await server.call<{ items: { name: string }[] }>('GET', '/api/fs/list?path=/s3/cp-a', { token });
    // report.csv is a file share's object (imported in place): the share downloads it, the mount never
    // shows it (issue 34 point 2).
    expect(s3Mount.status).toBe(200);
    expect(s3Mount.body.data!.items.map((i) => i.name)).not.toContain('report.csv');
    const values = await server.built.services.settings.values();
    expect(values).toMatchObject({
      site_title: 'Fixture Paste A',
      max_upload_size: 50,
      max_upload_size_unit: 'MB',
      site_announcement_enabled: true,
      site_announcement_content: 'Fixture set A: **hello** importers',
    });
  });

  it('a second import creates nothing', async () => {
    const before = await snapshotAll(server);
    const res = await importCloudpaste(server, token, request());
    expect(res.status).toBe(200);
    for (const [kind, r] of Object.entries(res.body.data!.kinds)) expect(r.created, kind).toBe(0);
    expect(res.body.data!.kinds.pastes.skipped.every((s) => s.reason === 'already imported')).toBe(true);
    expect(await snapshotAll(server)).toEqual(before);
  });

  it('custom_key: null on POST /api/admin/api-keys generates a key', async () => {
    const res = await server.call<{ key: string }>('POST', '/api/admin/api-keys', {
      token,
      body: { name: 'null-custom-key', permissions: 1, custom_key: null },
    });
    expect(res.status).toBe(201);
    expect(res.body.data!.key.length).toBeGreaterThan(8);
  });
});

function expectFullCounts(report: CloudpasteImportReport) {
  expect(counts(report)).toMatchObject({
    storage_configs: { total: 2, created: 2, skipped: 0, not_supported: 0 },
    api_keys: { total: 4, created: 3, skipped: 1, not_supported: 0 },
    pastes: { total: 8, created: 8, skipped: 0, not_supported: 0 },
    files: { total: 7, created: 7, skipped: 0, not_supported: 0 },
    mounts: { total: 2, created: 2, skipped: 0, not_supported: 0 },
    settings: { total: 18 },
  });
  const settings = report.kinds.settings;
  expect(settings.created + settings.skipped.length + settings.not_supported.length).toBe(18);
  expect(settings.not_supported.map((s) => s.id)).toContain('preview_providers');
  expect(settings.created_items.map((s) => s.id)).toContain('site_title');
  expect(report.kinds.api_keys.skipped[0]).toMatchObject({ name: 'guest' });
  expect(report.ignored_tables.map((t) => t.table)).toEqual(expect.arrayContaining(['admins', 'admin_tokens']));
  expect(report.warnings.join('\n')).toMatch(/by-api-key/);
}

describe.each(dbTargets)('CloudPaste import (modules backup) on %s', (target) => {
  let server: TestServer;
  let token: string;
  withAdminServer(target, (started) => ({ server, token } = started));

  it('imports pastes only', async () => {
    const before = await snapshotAll(server);
    const res = await importCloudpaste(server, token, { backup: fixtureText('modules-backup.json') });
    expect(res.status).toBe(200);
    expect(counts(res.body.data!)).toMatchObject({
      pastes: { total: 8, created: 8 },
      files: { total: 0, created: 0 },
      storage_configs: { total: 0, created: 0 },
      api_keys: { total: 0, created: 0 },
      mounts: { total: 0, created: 0 },
      settings: { total: 0, created: 0 },
    });
    const after = await snapshotAll(server);
    for (const table of Object.keys(before)) {
      if (table !== 'pastes') expect(after[table], table).toEqual(before[table]);
    }
    expect(after.pastes).toHaveLength(8);
    expect((await fetchRaw(server, 'secret-note', 'paste-pw-1')).text).toBe(PASTES['secret-note']!.content);
  });

  it('a protected paste without a plain copy keeps its SHA-256, checked once, re-hashed on the right password', async () => {
    const backup = fixture('modules-backup.json');
    backup.data.paste_passwords = [];
    const slug = 'secret-note';
    for (const row of backup.data.pastes!) row.slug = `${String(row.slug)}-x`;
    for (const row of backup.data.pastes!) row.id = `${String(row.id).slice(0, 30)}-x`;
    const res = await importCloudpaste(server, token, { backup: reseal(backup) });
    expect(res.status).toBe(200);
    expect(res.body.data!.warnings.join('\n')).toMatch(/SHA-256/);
    const hash = async () =>
      (
        await server.built.database.db
          .selectFrom('pastes')
          .select('password_hash')
          .where('slug', '=', `${slug}-x`)
          .executeTakeFirstOrThrow()
      ).password_hash;
    expect(await hash()).toBe('sha256$a52f1ad42763cb98e9d99a09183701d4977539809afc7f56554f9eedf2c723bb');
    expect((await fetchRaw(server, `${slug}-x`, 'wrong')).status).toBe(401);
    expect(await hash()).toMatch(/^sha256\$/);
    const ok = await fetchRaw(server, `${slug}-x`, 'paste-pw-1');
    expect(ok.status).toBe(200);
    expect(ok.text).toBe(PASTES[slug]!.content);
    expect(await hash()).toMatch(/^scrypt\$/);
    expect((await fetchRaw(server, `${slug}-x`, 'paste-pw-1')).status).toBe(200);
  });

  it('on_conflict: rename gives taken slugs a suffix; skip leaves them out', async () => {
    const backup = fixture('modules-backup.json');
    for (const row of backup.data.pastes!) row.id = `${String(row.id).slice(0, 30)}-r`;
    const skip = await importCloudpaste(server, token, { backup: reseal(backup), dry_run: true });
    expect(skip.body.data!.kinds.pastes.skipped).toHaveLength(8);
    expect(skip.body.data!.kinds.pastes.skipped[0]!.reason).toMatch(/slug is taken/);
    const rename = await importCloudpaste(server, token, { backup, on_conflict: 'rename' });
    expect(rename.status).toBe(200);
    expect(rename.body.data!.kinds.pastes.created_items.map((i) => i.name)).toContain('hello-fixture-2');
    expect((await fetchRaw(server, 'hello-fixture-2')).text).toBe(PASTES['hello-fixture']!.content);
  });
});
