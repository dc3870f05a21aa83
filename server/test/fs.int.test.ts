import type { FsEntryView, FsFileLink, FsListing, StorageConfigView } from '@clipnest/contract';
import { Permission } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverOf } from '../src/vfs/drivers.js';
import { createS3Config, startS3rver, type S3rverHandle } from './support/fileShares.js';
import { bucketSnapshot, diskSnapshot, fsRaw, fsUpload, type Auth } from './support/fsApi.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { createMount, createPathKey, mountableLocalConfig } from './support/mounts.js';

const KINDS = ['local', 's3'] as const;
const q = (path: string) => encodeURIComponent(path);

describe.each(dbTargets)('fs API on %s', (target) => {
  let server: TestServer;
  let token: string;
  let admin: Auth;
  let s3: S3rverHandle;
  let s3Config: StorageConfigView;

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    token = await server.login();
    admin = { token };
    const localId = await mountableLocalConfig(server, token);
    s3Config = await createS3Config(server, token, s3);
    await createMount(server, token, { path: '/local', storage_config_id: localId, cache_ttl: 300 });
    await createMount(server, token, { path: '/s3', storage_config_id: s3Config.id, cache_ttl: 300 });
    // A nested mount: a local folder shown inside the S3 mount.
    await createMount(server, token, { path: '/s3/nested/disk', storage_config_id: localId, cache_ttl: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const call = <T>(method: string, path: string, auth: Auth, body?: unknown) =>
    server.call<T>(method, path, { ...auth, ...(body !== undefined ? { body } : {}) });
  const list = (path: string, auth: Auth = admin, extra = '') =>
    call<FsListing>('GET', `/api/fs/list?path=${q(path)}${extra}`, auth);
  const snapshot = async () => ({ disk: diskSnapshot(server), bucket: await bucketSnapshot(s3) });

  it('lists mounts as folders at / and a nested mount inside its parent', async () => {
    const root = await list('/');
    expect(root.status).toBe(200);
    expect(root.body.data).toMatchObject({ path: '/', isRoot: true, isVirtual: true });
    expect(root.body.data?.items.map((i) => [i.name, i.isDirectory, i.isMount])).toEqual([
      ['local', true, true],
      ['s3', true, true],
    ]);
    const nestedParent = await list('/s3/nested');
    expect(nestedParent.status).toBe(200);
    expect(nestedParent.body.data?.items.map((i) => i.name)).toEqual(['disk']);
    const s3Root = await list('/s3');
    expect(s3Root.body.data?.items.find((i) => i.name === 'nested')).toMatchObject({
      isDirectory: true,
      isMount: true,
    });
  });

  describe.each(KINDS)('on a %s mount', (kind) => {
    const base = `/${kind}/t`;

    it('mkdir, upload (file before path, and path first), list, get, download, update, rename, remove', async () => {
      const mk = await call<FsEntryView>('POST', '/api/fs/mkdir', admin, { path: `${base}/docs` });
      expect(mk.status).toBe(201);
      expect(mk.body.data).toMatchObject({ path: `${base}/docs`, isDirectory: true });

      // The spec's client sends `file` before `path` and `use_multipart`.
      const up = await fsUpload(server, admin, 'hello world', {
        filename: 'ignored.txt',
        after: { path: `${base}/docs/hello.txt`, use_multipart: 'false' },
      });
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      expect(up.body.data).toMatchObject({ path: `${base}/docs/hello.txt`, size: 11, isDirectory: false });
      // Path first, naming a folder: the file keeps its own name.
      const into = await fsUpload(server, admin, '名字', { filename: '报告 1.md', before: { path: `${base}/docs/` } });
      expect(into.status, JSON.stringify(into.body)).toBe(201);
      expect(into.body.data).toMatchObject({ path: `${base}/docs/报告 1.md`, mimetype: 'text/markdown' });

      const listed = await list(`${base}/docs`);
      expect(listed.status).toBe(200);
      expect(listed.body.data?.items.map((i) => i.name).sort()).toEqual(['hello.txt', '报告 1.md']);
      expect(listed.body.data?.total).toBe(2);
      const paged = await list(`${base}/docs`, admin, '&limit=1');
      expect(paged.body.data?.items).toHaveLength(1);
      expect(paged.body.data?.cursor).toBe('1');
      const next = await list(`${base}/docs`, admin, '&limit=1&cursor=1');
      expect(next.body.data?.items).toHaveLength(1);
      expect(next.body.data?.cursor).toBeUndefined();

      const got = await call<FsEntryView>('GET', `/api/fs/get?path=${q(`${base}/docs/hello.txt`)}`, admin);
      expect(got.body.data).toMatchObject({ name: 'hello.txt', size: 11, mimetype: 'text/plain' });

      const dl = await fsRaw(server, `/api/fs/download?path=${q(`${base}/docs/报告 1.md`)}&download=true`, admin);
      expect(dl.status).toBe(200);
      expect(new TextDecoder().decode(dl.bytes)).toBe('名字');
      expect(dl.headers.get('content-disposition')).toContain("filename*=UTF-8''%E6%8A%A5%E5%91%8A%201.md");
      const etag = dl.headers.get('etag')!;
      expect(etag).toBeTruthy();
      const again = await fsRaw(server, `/api/fs/download?path=${q(`${base}/docs/报告 1.md`)}`, admin, {
        'if-none-match': etag,
      });
      expect(again.status).toBe(304);
      const range = await fsRaw(server, `/api/fs/download?path=${q(`${base}/docs/hello.txt`)}`, admin, {
        range: 'bytes=6-',
      });
      expect(range.status).toBe(206);
      expect(new TextDecoder().decode(range.bytes)).toBe('world');
      expect(range.headers.get('content-range')).toBe('bytes 6-10/11');
      const bad = await fsRaw(server, `/api/fs/download?path=${q(`${base}/docs/hello.txt`)}`, admin, {
        range: 'bytes=50-',
      });
      expect(bad.status).toBe(416);

      const upd = await call<FsEntryView>('POST', '/api/fs/update', admin, {
        path: `${base}/docs/hello.txt`,
        content: 'changed',
      });
      expect(upd.status).toBe(200);
      expect(upd.body.data?.size).toBe(7);
      const text = await fsRaw(server, `/api/fs/download?path=${q(`${base}/docs/hello.txt`)}`, admin);
      expect(new TextDecoder().decode(text.bytes)).toBe('changed');

      const ren = await call<FsEntryView>('POST', '/api/fs/rename', admin, {
        oldPath: `${base}/docs/hello.txt`,
        newPath: `${base}/docs/renamed.txt`,
      });
      expect(ren.status).toBe(200);
      expect(ren.body.data).toMatchObject({ path: `${base}/docs/renamed.txt`, size: 7 });

      const rm = await call<{ removed: string[] }>('DELETE', '/api/fs/batch-remove', admin, {
        paths: [`${base}/docs/renamed.txt`, `${base}/docs/报告 1.md`],
      });
      expect(rm.status).toBe(200);
      expect(rm.body.data?.removed).toHaveLength(2);
      expect((await list(`${base}/docs`)).body.data?.items).toEqual([]);
    });

    it('serves HTML and SVG only as sandboxed attachments', async () => {
      await fsUpload(server, admin, '<script>alert(1)</script>', { before: { path: `${base}/x.html` } });
      await fsUpload(server, admin, '<svg onload="alert(1)"/>', { before: { path: `${base}/x.svg` } });
      for (const name of ['x.html', 'x.svg']) {
        const res = await fsRaw(server, `/api/fs/download?path=${q(`${base}/${name}`)}`, admin);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
        expect(res.headers.get('content-type')).toBe('application/octet-stream');
        expect(res.headers.get('content-security-policy')).toContain('sandbox');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      }
    });

    it('gives a file link: presigned on S3, a signed proxy link on local', async () => {
      await fsUpload(server, admin, 'linked', { before: { path: `${base}/link.txt` } });
      const res = await call<FsFileLink>(
        'GET',
        `/api/fs/file-link?path=${q(`${base}/link.txt`)}&expires_in=600&force_download=true`,
        admin,
      );
      expect(res.status).toBe(200);
      const link = res.body.data!;
      expect(link.type).toBe(kind === 's3' ? 'presigned' : 'proxy');
      const fetched = await fetch(link.url);
      expect(fetched.status).toBe(200);
      expect(await fetched.text()).toBe('linked');
      if (link.type === 'proxy') {
        const forged = link.url.replace(/sign=[^&]+/, 'sign=AAAA');
        expect((await fetch(forged)).status).toBe(403);
        const otherPath = link.url.replace(/path=[^&]+/, `path=${q(`${base}/x.html`)}`);
        expect((await fetch(otherPath)).status).toBe(403);
        server.clock.advance(601_000);
        expect((await fetch(link.url)).status).toBe(410);
        server.clock.advance(-601_000);
      }
    });

    it('creates a file share pointing at the object in place; deleting the share keeps the object', async () => {
      await fsUpload(server, admin, 'shared bytes', { before: { path: `${base}/share/s.txt` } });
      const before = await snapshot();
      const res = await call<{ id: string; slug: string; size: number }>('POST', '/api/fs/create-share', admin, {
        path: `${base}/share/s.txt`,
      });
      expect(res.status, res.body.message).toBe(201);
      expect(res.body.data?.size).toBe(12);
      expect(await snapshot()).toEqual(before); // no copy
      const dl = await fsRaw(server, `/api/file-download/${res.body.data!.slug}`);
      expect(new TextDecoder().decode(dl.bytes)).toBe('shared bytes');
      const del = await call('DELETE', '/api/files/batch-delete', admin, { ids: [res.body.data!.id] });
      expect(del.status).toBe(200);
      const still = await call<FsEntryView>('GET', `/api/fs/get?path=${q(`${base}/share/s.txt`)}`, admin);
      expect(still.status).toBe(200);
      const folder = await call('POST', '/api/fs/create-share', admin, { path: `${base}/share` });
      expect(folder.status).toBe(400);
      const viewOnly: Auth = { apiKey: await createPathKey(server, token, Permission.MOUNT_VIEW) };
      const noShare = await call('POST', '/api/fs/create-share', viewOnly, { path: `${base}/share/s.txt` });
      expect(noShare.status).toBe(403);
    });

    it('a share from the explorer takes a password, an expiry and max views (issue 35)', async () => {
      await fsUpload(server, admin, 'guarded', { before: { path: `${base}/share/guarded.txt` } });
      const res = await call<{ slug: string; has_password: boolean; max_views: number; expires_at: string | null }>(
        'POST',
        '/api/fs/create-share',
        admin,
        { path: `${base}/share/guarded.txt`, password: 'pw-35', expires_in: 24, max_views: 3 },
      );
      expect(res.status, res.body.message).toBe(201);
      expect(res.body.data).toMatchObject({ has_password: true, max_views: 3 });
      expect(res.body.data?.expires_at).not.toBeNull();
      const locked = await fsRaw(server, `/api/file-download/${res.body.data!.slug}`);
      expect(locked.status).toBe(401);
      const bad = await call('POST', '/api/fs/create-share', admin, {
        path: `${base}/share/guarded.txt`,
        max_views: -1,
      });
      expect(bad.status).toBe(400);
    });

    it('caches listings for the mount TTL, drops them on writes, and refresh=true bypasses', async () => {
      await call('POST', '/api/fs/mkdir', admin, { path: `${base}/cache` });
      const first = await list(`${base}/cache`);
      expect(first.body.data?.cached).toBe(false);
      const second = await list(`${base}/cache`);
      expect(second.body.data?.cached).toBe(true);
      await fsUpload(server, admin, 'a', { before: { path: `${base}/cache/a.txt` } });
      const afterWrite = await list(`${base}/cache`);
      expect(afterWrite.body.data?.cached).toBe(false);
      expect(afterWrite.body.data?.items.map((i) => i.name)).toEqual(['a.txt']);
      // A change made outside the app is seen after refresh=true.
      const vfs = server.built.services.vfs;
      const resolved = await vfs.resolve(
        { type: 'admin', adminId: 'x', username: 'x', tokenHash: '', expiresAt: '' },
        `${base}/cache/b.txt`,
        Permission.MOUNT_UPLOAD,
      );
      await driverOf(resolved).write(resolved.driverPath, new Blob(['b']).stream());
      expect((await list(`${base}/cache`)).body.data?.items.map((i) => i.name)).toEqual(['a.txt']);
      const fresh = await list(`${base}/cache`, admin, '&refresh=true');
      expect(fresh.body.data?.items.map((i) => i.name)).toEqual(['a.txt', 'b.txt']);
    });

    it('refuses every traversal form in every path-taking field, touching nothing', async () => {
      await fsUpload(server, admin, 'keep', { before: { path: `${base}/keep.txt` } });
      const before = await snapshot();
      const evil = [
        `${base}/../../etc/passwd`,
        `/${kind}/..`,
        `${base}/%2e%2e/%2e%2e/x`,
        `${base}/%252e%252e/x`,
        `${base}/a%2fb`,
        `${base}\\..\\x`,
        `${base}/a\u0000b`,
        `${base}/a\nb`,
        `${base}/` + 'a'.repeat(4100),
      ];
      for (const p of evil) {
        const responses = [
          await list(p),
          await call('GET', `/api/fs/get?path=${q(p)}`, admin),
          await call('GET', `/api/fs/file-link?path=${q(p)}`, admin),
          await call('POST', '/api/fs/mkdir', admin, { path: p }),
          await call('POST', '/api/fs/update', admin, { path: p, content: 'x' }),
          await call('POST', '/api/fs/create-share', admin, { path: p }),
          await call('DELETE', '/api/fs/batch-remove', admin, { paths: [`${base}/keep.txt`, p] }),
          await call('POST', '/api/fs/rename', admin, { oldPath: p, newPath: `${base}/y` }),
          await call('POST', '/api/fs/rename', admin, { oldPath: `${base}/keep.txt`, newPath: p }),
          await fsUpload(server, admin, 'x', { before: { path: p } }),
          await fsUpload(server, admin, 'x', { after: { path: p } }),
        ];
        for (const [i, res] of responses.entries()) {
          expect(res.status, `${JSON.stringify(p.slice(0, 40))} #${i}: ${res.body.message}`).toBe(400);
          expectEnvelope(res.body, 400);
        }
        const dl = await fsRaw(server, `/api/fs/download?path=${q(p)}`, admin);
        expect(dl.status).toBe(400);
      }
      expect(await snapshot()).toEqual(before);
    });

    it('answers bad input with a 4xx naming the problem, changing nothing', async () => {
      await fsUpload(server, admin, 'f', { before: { path: `${base}/bad/file.txt` } });
      await fsUpload(server, admin, 'g', { before: { path: `${base}/bad/other.txt` } });
      const before = await snapshot();
      const unknown = await list('/nowhere/x');
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toMatch(/no mount holds \/nowhere\/x/);
      const fileAsDir = await list(`${base}/bad/file.txt`);
      expect(fileAsDir.status).toBe(409);
      const mkInFile = await call('POST', '/api/fs/mkdir', admin, { path: `${base}/bad/file.txt/sub` });
      expect(mkInFile.status).toBe(409);
      const onto = await call('POST', '/api/fs/rename', admin, {
        oldPath: `${base}/bad/file.txt`,
        newPath: `${base}/bad/other.txt`,
      });
      expect(onto.status).toBe(409);
      expect(onto.body.message).toContain('already exists');
      const other = kind === 'local' ? '/s3/t/moved.txt' : '/local/t/moved.txt';
      const cross = await call('POST', '/api/fs/rename', admin, { oldPath: `${base}/bad/file.txt`, newPath: other });
      expect(cross.status).toBe(400);
      expect(cross.body.message).toMatch(/another mount's scope/);
      const missing = await call('DELETE', '/api/fs/batch-remove', admin, {
        paths: [`${base}/bad/file.txt`, `${base}/bad/missing.txt`],
      });
      expect(missing.status).toBe(404);
      const mountRoot = await call('DELETE', '/api/fs/batch-remove', admin, { paths: [`/${kind}`] });
      expect(mountRoot.status).toBe(400);
      expect(mountRoot.body.message).toMatch(/mount point/);
      const folderDl = await fsRaw(server, `/api/fs/download?path=${q(`${base}/bad`)}`, admin);
      expect(folderDl.status).toBe(400);
      const noPath = await fsUpload(server, admin, 'x', {});
      expect(noPath.status).toBe(400);
      expect(noPath.body.message).toMatch(/path is required/);
      const unknownField = await fsUpload(server, admin, 'x', { before: { path: `${base}/u.txt`, bogus: '1' } });
      expect(unknownField.status).toBe(400);
      expect(unknownField.body.message).toMatch(/bogus/);
      const tooBig = await call('POST', '/api/fs/update', admin, {
        path: `${base}/big.txt`,
        content: 'x'.repeat(10 * 1024 * 1024 + 1),
      });
      expect(tooBig.status).toBe(413);
      expect(await snapshot()).toEqual(before);
    });

    it('each permission bit allows exactly its operations', async () => {
      await fsUpload(server, admin, 'p', { before: { path: `${base}/perm/a.txt` } });
      const keys = {
        view: { apiKey: await createPathKey(server, token, Permission.MOUNT_VIEW) },
        upload: { apiKey: await createPathKey(server, token, Permission.MOUNT_UPLOAD) },
        rename: { apiKey: await createPathKey(server, token, Permission.MOUNT_RENAME) },
        remove: { apiKey: await createPathKey(server, token, Permission.MOUNT_DELETE) },
        copy: { apiKey: await createPathKey(server, token, Permission.MOUNT_COPY) },
      };
      let n = 0;
      const ops: Record<string, (auth: Auth) => Promise<number>> = {
        list: async (auth) => (await list(`${base}/perm`, auth)).status,
        get: async (auth) => (await call('GET', `/api/fs/get?path=${q(`${base}/perm/a.txt`)}`, auth)).status,
        download: async (auth) =>
          (await fsRaw(server, `/api/fs/download?path=${q(`${base}/perm/a.txt`)}`, auth)).status,
        upload: async (auth) =>
          (await fsUpload(server, auth, 'u', { before: { path: `${base}/perm/u${n++}.txt` } })).status,
        mkdir: async (auth) => (await call('POST', '/api/fs/mkdir', auth, { path: `${base}/perm/d${n++}` })).status,
        update: async (auth) =>
          (await call('POST', '/api/fs/update', auth, { path: `${base}/perm/e${n++}.txt`, content: 'e' })).status,
        rename: async (auth) => {
          const from = `${base}/perm/r${n++}.txt`;
          await fsUpload(server, admin, 'r', { before: { path: from } });
          return (await call('POST', '/api/fs/rename', auth, { oldPath: from, newPath: `${from}.moved` })).status;
        },
        remove: async (auth) => {
          const p = `${base}/perm/x${n++}.txt`;
          await fsUpload(server, admin, 'x', { before: { path: p } });
          return (await call('DELETE', '/api/fs/batch-remove', auth, { paths: [p] })).status;
        },
      };
      const allowed: Record<keyof typeof keys, string[]> = {
        view: ['list', 'get', 'download'],
        upload: ['upload', 'mkdir', 'update'],
        rename: ['rename'],
        remove: ['remove'],
        copy: [],
      };
      for (const [name, auth] of Object.entries(keys) as Array<[keyof typeof keys, Auth]>) {
        for (const [op, run] of Object.entries(ops)) {
          const status = await run(auth);
          const expected = allowed[name].includes(op) ? [200, 201] : [403];
          expect(expected, `${name} key, ${op}: ${status}`).toContain(status);
        }
      }
    });

    it('confines a key to its basic_path: /team does not grant /team-b, /team/../x is refused', async () => {
      const all = Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD | Permission.MOUNT_RENAME | Permission.MOUNT_DELETE;
      await fsUpload(server, admin, 'b', { before: { path: `${base}/team-b/secret.txt` } });
      await fsUpload(server, admin, 'a', { before: { path: `${base}/team/mine.txt` } });
      const key: Auth = { apiKey: await createPathKey(server, token, all, `${base}/team`) };
      expect((await list(`${base}/team`, key)).status).toBe(200);
      expect((await fsUpload(server, key, 'n', { before: { path: `${base}/team/new.txt` } })).status).toBe(201);
      const before = await snapshot();
      const denied = [
        await list(`${base}/team-b`, key),
        await list('/', key),
        await list(`/${kind}`, key),
        await call('GET', `/api/fs/get?path=${q(`${base}/team-b/secret.txt`)}`, key),
        await call('POST', '/api/fs/mkdir', key, { path: `${base}/team-b/x` }),
        await call('POST', '/api/fs/rename', key, { oldPath: `${base}/team/mine.txt`, newPath: `${base}/team-b/m` }),
        await call('DELETE', '/api/fs/batch-remove', key, { paths: [`${base}/team-b/secret.txt`] }),
        await fsUpload(server, key, 'x', { after: { path: `${base}/team-b/x.txt` } }),
      ];
      for (const res of denied) {
        expect(res.status).toBe(403);
        expect(res.body.message).toMatch(/no permission for this path/);
      }
      const dl = await fsRaw(server, `/api/fs/download?path=${q(`${base}/team-b/secret.txt`)}`, key);
      expect(dl.status).toBe(403);
      expect((await list(`${base}/team/../team-b`, key)).status).toBe(400);
      expect(await snapshot()).toEqual(before);
    });
  });

  it('needs credentials', async () => {
    expect((await server.call('GET', '/api/fs/list?path=/')).status).toBe(401);
    expect((await fsRaw(server, `/api/fs/download?path=${q('/local/t/keep.txt')}`)).status).toBe(401);
  });
});
