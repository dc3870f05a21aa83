import {
  Permission,
  type ApiKeyView,
  type BatchDeleteFilesResult,
  type FileView,
  type ListPage,
} from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import {
  createS3Config,
  filesUnder,
  localRoot,
  rawGet,
  startS3rver,
  upload,
  type S3rverHandle,
} from './support/fileShares.js';

describe.each(dbTargets)('file management on %s', (target) => {
  let server: TestServer;
  let token: string;
  let s3: S3rverHandle;
  let keyA: ApiKeyView;
  let keyB: ApiKeyView;
  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    token = await server.login();
    const mk = async (name: string) =>
      (
        await server.call<ApiKeyView>('POST', '/api/admin/api-keys', {
          token,
          body: { name, permissions: Permission.FILE_SHARE },
        })
      ).body.data!;
    keyA = await mk('key-a');
    keyB = await mk('key-b');
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const list = (query = '', auth: { token?: string; apiKey?: string } = { token }) =>
    server.call<ListPage<FileView>>('GET', `/api/files${query}`, auth);

  it('lists with limit 50 by default, offset, search, sort; key holders see only their own', async () => {
    const mine = await upload(server, 'aaa', { apiKey: keyA.key, filename: 'alpha report.txt' });
    await upload(server, 'bbbbbb', { apiKey: keyB.key, filename: 'beta.txt', fields: { remark: 'quarterly 50%' } });
    await upload(server, 'c', { token, filename: 'gamma.txt' });
    const all = await list();
    expect(all.status).toBe(200);
    expectEnvelope(all.body, 200);
    expect(all.body.data).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(all.body.data?.items.map((f) => f.filename)).toEqual(['gamma.txt', 'beta.txt', 'alpha report.txt']);

    const a = await list('', { apiKey: keyA.key });
    expect(a.body.data?.items.map((f) => f.id)).toEqual([mine.body.data!.id]);
    expect(a.body.data?.total).toBe(1);

    expect((await list('?search=ALPHA')).body.data?.items.map((f) => f.filename)).toEqual(['alpha report.txt']);
    expect((await list('?search=50%25')).body.data?.items.map((f) => f.filename)).toEqual(['beta.txt']);
    expect((await list('?search=%25')).body.data?.total).toBe(1);
    expect((await list('?search=_')).body.data?.total).toBe(0);
    expect((await list('?sort=size&order=desc')).body.data?.items.map((f) => f.size)).toEqual([6, 3, 1]);
    expect((await list('?sort=filename&order=asc&limit=1&offset=1')).body.data?.items.map((f) => f.filename)).toEqual([
      'beta.txt',
    ]);
    for (const bad of ['?limit=0', '?limit=abc', '?offset=-1', '?sort=password_hash', '?order=sideways']) {
      expect((await list(bad)).status, bad).toBe(400);
    }
    expect((await server.call('GET', '/api/files')).status).toBe(401);
    const textKey = await server.call<ApiKeyView>('POST', '/api/admin/api-keys', {
      token,
      body: { name: 'text-key', permissions: Permission.TEXT },
    });
    expect((await list('', { apiKey: textKey.body.data!.key })).status).toBe(403);
  });

  it('gets and updates a share: remark, slug, password set/clear, expiry, max views, proxy', async () => {
    const file = (await upload(server, 'edit me', { token, filename: 'e.txt' })).body.data!;
    const got = await server.call<FileView>('GET', `/api/files/${file.id}`, { token });
    expect(got.body.data).toMatchObject({ id: file.id, file_id: file.id, slug: file.slug });
    const put = (body: unknown) => server.call<FileView>('PUT', `/api/files/${file.id}`, { token, body });

    const res = await put({
      remark: 'new remark',
      slug: 'edited-slug',
      password: 'pw',
      expires_in: 2,
      max_views: 5,
      use_proxy: false,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      remark: 'new remark',
      slug: 'edited-slug',
      has_password: true,
      max_views: 5,
      use_proxy: false,
    });
    expect(Date.parse(res.body.data!.expires_at!) - Date.now()).toBeGreaterThan(1.9 * 3600_000);
    expect((await server.call('GET', '/api/public/files/edited-slug')).body.data).toMatchObject({
      requires_password: true,
    });
    const cleared = await put({ password: null, expires_in: 0, max_views: 0 });
    expect(cleared.body.data).toMatchObject({ has_password: false, expires_at: null, max_views: 0 });
    expect((await put({ password: 'again' })).body.data?.has_password).toBe(true);
    expect((await put({ password: '' })).body.data?.has_password).toBe(false);

    const other = (await upload(server, 'x', { token, fields: { slug: 'other-slug' } })).body.data!;
    const conflict = await put({ slug: 'other-slug' });
    expect(conflict.status).toBe(409);
    for (const bad of [
      { slug: 'bad slug' },
      { slug: 'api' },
      { max_views: -1 },
      { expires_in: -2 },
      { id: 'x' },
      { filename: '' },
    ]) {
      expect((await put(bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await server.call('GET', '/api/files/nonexistent-id', { token })).status).toBe(404);
    expect((await server.call('PUT', '/api/files/nonexistent-id', { token, body: {} })).status).toBe(404);
    expect(other.slug).toBe('other-slug');
  });

  it('key holders manage only their own files', async () => {
    const theirs = (await upload(server, 'x', { apiKey: keyB.key })).body.data!;
    expect((await server.call('GET', `/api/files/${theirs.id}`, { apiKey: keyA.key })).status).toBe(403);
    expect(
      (await server.call('PUT', `/api/files/${theirs.id}`, { apiKey: keyA.key, body: { remark: 'x' } })).status,
    ).toBe(403);
    const del = await server.call<BatchDeleteFilesResult>('DELETE', '/api/files/batch-delete', {
      apiKey: keyA.key,
      body: { ids: [theirs.id] },
    });
    expect(del.body.data).toMatchObject({ deleted: 0, failed: [{ id: theirs.id }] });
    expect((await server.call('GET', `/api/files/${theirs.id}`, { apiKey: keyB.key })).status).toBe(200);
    const upd = await server.call<FileView>('PUT', `/api/files/${theirs.id}`, {
      apiKey: keyB.key,
      body: { remark: 'mine' },
    });
    expect(upd.body.data?.remark).toBe('mine');
  });

  it('batch-deletes rows and objects (both), or rows only (record)', async () => {
    const config = await createS3Config(server, token, s3);
    const local = (await upload(server, 'local', { token })).body.data!;
    const remote = (await upload(server, 'remote', { token, fields: { s3_config_id: config.id } })).body.data!;
    const keep = (await upload(server, 'keep object', { token })).body.data!;
    expect(filesUnder(localRoot(server))).toContain(local.storage_path);

    const both = await server.call<BatchDeleteFilesResult>('DELETE', '/api/files/batch-delete', {
      token,
      body: { ids: [local.id, remote.id, 'no-such-file'] },
    });
    expect(both.status).toBe(200);
    expect(both.body.data).toMatchObject({ deleted: 2, failed: [{ id: 'no-such-file' }] });
    expect(filesUnder(localRoot(server))).not.toContain(local.storage_path);
    const s3Object = await fetch(
      `${s3.endpoint}/${s3.bucket}/${remote.storage_path.split('/').map(encodeURIComponent).join('/')}`,
    );
    expect(s3Object.status).toBe(404);
    expect((await rawGet(server, `/api/file-download/${local.slug}`)).status).toBe(404);

    const record = await server.call<BatchDeleteFilesResult>('DELETE', '/api/files/batch-delete', {
      token,
      body: { ids: [keep.id], delete_mode: 'record' },
    });
    expect(record.body.data).toMatchObject({ deleted: 1, failed: [] });
    expect(filesUnder(localRoot(server))).toContain(keep.storage_path);

    for (const bad of [{}, { ids: [] }, { ids: 'x' }, { ids: ['a'], delete_mode: 'all' }]) {
      const res = await server.call('DELETE', '/api/files/batch-delete', { token, body: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    // an object already gone from storage still lets the row go
    const orphan = (await upload(server, 'orphan', { token })).body.data!;
    const { rmSync } = await import('node:fs');
    rmSync(`${localRoot(server)}/${orphan.storage_path}`);
    const gone = await server.call<BatchDeleteFilesResult>('DELETE', '/api/files/batch-delete', {
      token,
      body: { ids: [orphan.id] },
    });
    expect(gone.body.data).toMatchObject({ deleted: 1, failed: [] });
  });
});
