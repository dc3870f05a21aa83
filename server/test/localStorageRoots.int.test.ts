// Local storage configs with their own root inside LOCAL_STORAGE_ROOTS, and symlinks planted in a root.
import type { StorageConfigView } from '@clipnest/contract';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Config, rawGet, startS3rver, upload, type S3rverHandle } from './support/fileShares.js';
import { insertFile } from './support/featureRows.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';

const SECRET = 'top secret bytes outside the root';

/** Every file below `dir` with bytes and mtime: equal snapshots = nothing written, moved or removed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const abs = path.join(dir, name);
    const st = statSync(abs);
    out[name] = st.isDirectory() ? 'dir' : `${readFileSync(abs, 'utf8')}@${st.mtimeMs}`;
  }
  return out;
}

describe.each(dbTargets)('local storage roots on %s', (target) => {
  let server: TestServer;
  let token: string;
  let s3: S3rverHandle;
  let base: string;
  let allowed: string;
  let outside: string;
  let outsideBefore: Record<string, string>;
  const answers: unknown[] = [];

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'clipnest-roots-')));
    allowed = path.join(base, 'allowed');
    outside = path.join(base, 'outside');
    mkdirSync(allowed, { recursive: true });
    mkdirSync(path.join(outside, 'sub'), { recursive: true });
    writeFileSync(path.join(outside, 'secret.txt'), SECRET);
    writeFileSync(path.join(outside, 'sub', 'deep.txt'), SECRET);
    symlinkSync(outside, path.join(allowed, 'escape'));
    outsideBefore = snapshot(outside);
    [server, s3] = await Promise.all([startTestServer(target, { LOCAL_STORAGE_ROOTS: allowed }), startS3rver()]);
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
    if (base) {
      // the disk outside every root is exactly as it was
      expect(snapshot(outside)).toEqual(outsideBefore);
      rmSync(base, { recursive: true, force: true });
    }
  });

  async function call<T>(method: string, url: string, body?: unknown) {
    const res = await server.call<T>(method, url, { token, ...(body === undefined ? {} : { body }) });
    answers.push(res.body);
    return res;
  }
  const createLocal = (name: string, root_path: string, extra: Record<string, unknown> = {}) =>
    call<StorageConfigView>('POST', '/api/s3-configs', { storage_type: 'local', name, root_path, ...extra });

  it('creates a local config inside an allowed root: the folder is made and files land in it', async () => {
    const root = path.join(allowed, 'team', 'share');
    const res = await createLocal('team share', root);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      storage_type: 'local',
      root_path: root,
      is_builtin: false,
      has_secret: false,
      secret_access_key_masked: '',
    });
    expect(statSync(root).isDirectory()).toBe(true);
    const up = await upload(server, 'hello local root', { token, fields: { s3_config_id: res.body.data!.id } });
    expect(up.status).toBe(201);
    const stored = path.join(root, up.body.data!.storage_path);
    expect(readFileSync(stored, 'utf8')).toBe('hello local root');
    const down = await rawGet(server, `/api/file-download/${up.body.data!.slug}`);
    expect(down.text).toBe('hello local root');
    // the built-in local config still works as before
    const list = await call<{ items: StorageConfigView[] }>('GET', '/api/s3-configs');
    const builtin = list.body.data!.items.find((c) => c.is_builtin)!;
    expect(builtin).toMatchObject({
      storage_type: 'local',
      root_path: server.built.services.storageRegistry.localRoot,
    });
    const up2 = await upload(server, 'to the built-in', { token, fields: { s3_config_id: builtin.id } });
    expect(up2.status).toBe(201);
  });

  it.each([
    ['outside every allowed root', () => path.join(base, 'elsewhere')],
    ['beside the allowed root with the same prefix', () => `${allowed}-evil`],
    ['with ..', () => `${allowed}/team/../../outside`],
    ['through a symlinked folder pointing outside', () => path.join(allowed, 'escape', 'x')],
    ['being the symlinked folder itself', () => path.join(allowed, 'escape')],
    ['relative', () => 'allowed/x'],
    ['empty', () => ''],
  ])('refuses a root %s: 400 naming root_path, nothing created', async (_why, root) => {
    const before = readdirSync(base).sort();
    const count = (await call<{ total: number }>('GET', '/api/s3-configs')).body.data!.total;
    const res = await createLocal(`bad ${Math.random()}`, root());
    expect(res.status).toBe(400);
    expectEnvelope(res.body, 400);
    expect(JSON.stringify(res.body.data)).toContain('root_path');
    expect(readdirSync(base).sort()).toEqual(before);
    expect(existsSync(path.join(outside, 'x'))).toBe(false);
    expect((await call<{ total: number }>('GET', '/api/s3-configs')).body.data!.total).toBe(count);
  });

  it('edits: a local root moves only inside the allowed roots; the built-in root and foreign fields are refused', async () => {
    const res = await createLocal('movable', path.join(allowed, 'm1'));
    const id = res.body.data!.id;
    const moved = await call<StorageConfigView>('PUT', `/api/s3-configs/${id}`, {
      root_path: path.join(allowed, 'm2'),
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data?.root_path).toBe(path.join(allowed, 'm2'));
    const out = await call('PUT', `/api/s3-configs/${id}`, { root_path: path.join(allowed, 'escape') });
    expect(out.status).toBe(400);
    expect(JSON.stringify(out.body.data)).toContain('root_path');
    const s3Field = await call('PUT', `/api/s3-configs/${id}`, { bucket: 'b', secret_access_key: 'x' });
    expect(s3Field.status).toBe(400);
    expect(JSON.stringify(s3Field.body.data)).toContain('bucket');

    const builtin = (await call<{ items: StorageConfigView[] }>('GET', '/api/s3-configs')).body.data!.items.find(
      (c) => c.is_builtin,
    )!;
    const fixed = await call('PUT', `/api/s3-configs/${builtin.id}`, { root_path: path.join(allowed, 'm3') });
    expect(fixed.status).toBe(400);
    expect(JSON.stringify(fixed.body.data)).toContain('root_path');

    const s3config = await createS3Config(server, token, s3, { secret_access_key: 'never-shown-secret-4242' });
    const rootOnS3 = await call('PUT', `/api/s3-configs/${s3config.id}`, { root_path: path.join(allowed, 'm4') });
    expect(rootOnS3.status).toBe(400);
    expect(existsSync(path.join(allowed, 'm4'))).toBe(false);
    // a blank secret keeps the stored one
    const blank = await call<StorageConfigView>('PUT', `/api/s3-configs/${s3config.id}`, { secret_access_key: '' });
    expect(blank.body.data).toMatchObject({ has_secret: true, secret_access_key_masked: '••••4242' });
    expect((await call<StorageConfigView>('GET', `/api/s3-configs/${s3config.id}`)).status).toBe(200);

    // deletable (unlike the built-in one)
    expect((await call('DELETE', `/api/s3-configs/${id}`)).status).toBe(200);
    expect((await call('DELETE', `/api/s3-configs/${builtin.id}`)).status).toBe(409);
  });

  it('a symlink planted inside a local root pointing outside is never followed (upload, download, delete, list)', async () => {
    const root = path.join(allowed, 'planted');
    const config = (await createLocal('planted', root)).body.data!;
    symlinkSync(outside, path.join(root, 'evil'));
    // Share uploads go to the config's share area (issue 34 point 2): the same link planted there.
    mkdirSync(path.join(root, '.clipnest-shares'), { recursive: true });
    symlinkSync(outside, path.join(root, '.clipnest-shares', 'evil'));

    // write: an upload into the link, directly or through default_folder
    const viaPath = await upload(server, 'overwrite?', {
      token,
      fields: { s3_config_id: config.id, path: 'evil/sub' },
      filename: 'deep.txt',
    });
    expect(viaPath.status).toBe(400);
    expect((await call('PUT', `/api/s3-configs/${config.id}`, { default_folder: 'evil' })).status).toBe(200);
    const viaFolder = await upload(server, 'overwrite?', { token, fields: { s3_config_id: config.id } });
    expect(viaFolder.status).toBe(400);
    await call('PUT', `/api/s3-configs/${config.id}`, { default_folder: '' });

    // read: a share whose object path goes through the link
    await insertFile(server, {
      id: `planted-${target}`,
      storage_config_id: config.id,
      storage_path: 'evil/secret.txt',
      filename: 'secret.txt',
      size: SECRET.length,
    });
    const down = await rawGet(server, `/api/file-download/planted-${target}`);
    expect(down.status).toBeGreaterThanOrEqual(400);
    expect(down.status).toBeLessThan(500);
    expect(down.text).not.toContain(SECRET);

    // delete: removing the share leaves the file behind the link alone
    const del = await call('DELETE', '/api/files/batch-delete', { ids: [`planted-${target}`] });
    expect(del.status).toBeLessThan(500);

    // list: the driver of the config refuses the link and leaves it out of its parent's listing
    const row = await server.built.database.db
      .selectFrom('storage_configs')
      .selectAll()
      .where('id', '=', config.id)
      .executeTakeFirstOrThrow();
    const driver = server.built.services.storageRegistry.driverFor(row);
    await expect(driver.list('evil')).rejects.toMatchObject({ code: 'invalid_path' });
    expect((await driver.list('')).entries.map((e) => e.name)).not.toContain('evil');
    expect(snapshot(outside)).toEqual(outsideBefore);
  });

  it('backup: a local config comes back with its root; a restored root outside the allowed ones is never served', async () => {
    const root = path.join(allowed, 'backed-up');
    const config = (await createLocal('backed up', root)).body.data!;
    const create = await fetch(`${server.url}/api/admin/backup/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ backup_type: 'modules', selected_modules: ['storage_config'] }),
    });
    const file = (await create.json()) as { tables: Record<string, { rows: Array<Record<string, unknown>> }> };
    const rows = file.tables.storage_configs!.rows;
    expect(rows.find((r) => r.id === config.id)).toMatchObject({ root_path: root });
    // a planted row pointing outside LOCAL_STORAGE_ROOTS (edited backup, or another machine's)
    rows.push({
      ...rows.find((r) => r.id === config.id)!,
      id: `elsewhere${target}`,
      name: 'elsewhere',
      root_path: outside,
    });
    const restored = await call('POST', '/api/admin/backup/restore', { mode: 'overwrite', backup: file });
    expect(restored.status).toBe(200);
    expect((await call<StorageConfigView>('GET', `/api/s3-configs/${config.id}`)).body.data?.root_path).toBe(root);
    const up = await upload(server, 'after restore', { token, fields: { s3_config_id: config.id } });
    expect(up.status).toBe(201);
    expect(readFileSync(path.join(root, up.body.data!.storage_path), 'utf8')).toBe('after restore');
    const refused = await upload(server, 'must not land outside', {
      token,
      fields: { s3_config_id: `elsewhere${target}` },
    });
    expect(refused.status).toBe(503);
    expect(refused.body.message).toContain('outside LOCAL_STORAGE_ROOTS');
    const probe = await call<{ success: boolean }>('POST', `/api/s3-configs/elsewhere${target}/test`);
    expect(probe.body.data?.success).toBe(false);
    expect(snapshot(outside)).toEqual(outsideBefore);
  });

  it('never answers a secret', () => {
    const all = JSON.stringify(answers);
    expect(all).toContain('••••4242');
    expect(all).not.toContain('never-shown-secret');
    expect(all).not.toContain('"secret_encrypted"');
  });
});
