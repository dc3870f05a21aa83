// The webdav storage type end to end against Apache mod_dav: the config API (fields, 400s naming the field,
// the password never echoed and encrypted at rest, the Test steps), a mount of it through the fs API and
// Clipnest's own /dav, server-side copy, and a server that is down answering 503 with a kind quickly.
import type { StorageConfigTestResult, StorageConfigView } from '@clipnest/contract';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apacheMissing, startApacheDav, type ApacheDav } from './support/apacheDav.js';
import { fsRaw, fsUpload } from './support/fsApi.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount } from './support/mounts.js';
import { downCheck, muteCheck, recoveryCheck, type ConfigAt } from './support/unreachableStorage.js';
import { basicAuth, expectLitmusPasses } from './support/webdav.js';

const missing = apacheMissing();
const q = encodeURIComponent;

describe.skipIf(missing !== undefined).each(dbTargets)(
  `webdav storage type on %s${missing ? ` (skipped: ${missing})` : ''}`,
  (target) => {
    let server: TestServer;
    let apache: ApacheDav;
    let token: string;
    let config: StorageConfigView;
    beforeAll(async () => {
      [server, apache] = await Promise.all([startTestServer(target), startApacheDav()]);
      token = await server.login();
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await apache?.stop();
    });

    const create = (body: Record<string, unknown>) =>
      server.call<StorageConfigView>('POST', '/api/s3-configs', { token, body });
    const fields = (body: { data?: unknown }) =>
      ((body.data as { fields?: Array<{ path: string }> } | undefined)?.fields ?? []).map((f) => f.path);

    it('refuses bad input with a 400 naming the field', async () => {
      const noUrl = await create({ storage_type: 'webdav', name: 'w' });
      expect(noUrl.status).toBe(400);
      expect(fields(noUrl.body)).toContain('endpoint_url');
      const badUrl = await create({ storage_type: 'webdav', name: 'w', endpoint_url: 'ftp://x' });
      expect(badUrl.status).toBe(400);
      expect(fields(badUrl.body)).toContain('endpoint_url');
      const creds = await create({ storage_type: 'webdav', name: 'w', endpoint_url: 'http://u:p@127.0.0.1/' });
      expect(creds.status).toBe(400);
      const unknown = await create({ storage_type: 'webdav', name: 'w', endpoint_url: apache.url, bucket: 'b' });
      expect(unknown.status).toBe(400);
      expect(JSON.stringify(unknown.body)).toContain('bucket');
      const metadata = await create({ storage_type: 'webdav', name: 'w', endpoint_url: 'http://169.254.169.254/dav/' });
      expect(metadata.status).toBe(400);
      expect(fields(metadata.body)).toContain('endpoint_url');
      const tls = await create({ storage_type: 'webdav', name: 'w', endpoint_url: apache.url, tls_insecure: 'yes' });
      expect(tls.status).toBe(400);
      expect(fields(tls.body)).toContain('tls_insecure');
    });

    it('creates a config: the password is write-only and encrypted at rest', async () => {
      const res = await create({
        storage_type: 'webdav',
        name: 'nas',
        endpoint_url: apache.url,
        username: apache.username,
        password: apache.password,
        default_folder: 'shares',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      config = res.body.data!;
      expect(config).toMatchObject({
        storage_type: 'webdav',
        endpoint_url: apache.url,
        username: apache.username,
        tls_insecure: false,
        has_secret: true,
        secret_access_key_masked: '••••',
      });
      expect(JSON.stringify(config)).not.toContain(apache.password);
      const rows = await server.built.database.db.selectFrom('storage_configs').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(apache.password);
      // An edit without the password keeps it; S3 fields are refused.
      const edit = await server.call<StorageConfigView>('PUT', `/api/s3-configs/${config.id}`, {
        token,
        body: { name: 'nas box', password: '' },
      });
      expect(edit.status).toBe(200);
      const s3Field = await server.call('PUT', `/api/s3-configs/${config.id}`, { token, body: { bucket: 'x' } });
      expect(s3Field.status).toBe(400);
      expect(fields(s3Field.body)).toContain('bucket');
    });

    it('Test connects, writes, reads, lists and deletes a probe in the default folder', async () => {
      const res = await server.call<StorageConfigTestResult>('POST', `/api/s3-configs/${config.id}/test`, { token });
      expect(res.status).toBe(200);
      expect(res.body.data?.success, JSON.stringify(res.body.data)).toBe(true);
      expect(res.body.data?.steps.map((s) => s.step)).toEqual(['connect', 'write', 'read', 'list', 'delete']);
      expect(existsSync(path.join(apache.root, 'shares'))).toBe(true);
    });

    it('a wrong password fails the Test at its first step, with the reason', async () => {
      const wrong = await create({
        storage_type: 'webdav',
        name: 'wrong password',
        endpoint_url: apache.url,
        username: apache.username,
        password: 'nope',
      });
      const res = await server.call<StorageConfigTestResult>('POST', `/api/s3-configs/${wrong.body.data!.id}/test`, {
        token,
      });
      expect(res.body.data?.success).toBe(false);
      expect(res.body.data?.steps[0]).toMatchObject({ step: 'connect', success: false });
      expect(res.body.data?.steps[0]?.message).toMatch(/401/);
    });

    it('a mount of it works through the fs API and /dav: upload, list, range, copy, move, delete', async () => {
      await createMount(server, token, { path: '/nas', storage_config_id: config.id });
      const admin = { token };
      const name = 'dossier été/报告 #1 + 50%.txt';
      const up = await fsUpload(server, admin, 'hello webdav', {
        filename: 'x.txt',
        after: { path: `/nas/${name}`, use_multipart: 'false' },
      });
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      expect(readFileSync(path.join(apache.root, name), 'utf8')).toBe('hello webdav');
      const listed = await server.call<{ items: Array<{ name: string }> }>(
        'GET',
        `/api/fs/list?path=${q('/nas/dossier été')}`,
        { token },
      );
      expect(listed.body.data?.items.map((i) => i.name)).toEqual(['报告 #1 + 50%.txt']);
      const range = await fsRaw(server, `/api/fs/download?path=${q(`/nas/${name}`)}`, admin, { range: 'bytes=6-' });
      expect(range.status).toBe(206);
      expect(new TextDecoder().decode(range.bytes)).toBe('webdav');
      const copy = await server.call('POST', '/api/fs/batch-copy', {
        token,
        body: { items: [{ sourcePath: '/nas/dossier été', targetPath: '/nas/copies' }] },
      });
      expect(copy.status, JSON.stringify(copy.body)).toBe(202);
      const copied = path.join(apache.root, 'copies', '报告 #1 + 50%.txt');
      for (let i = 0; i < 100 && !existsSync(copied); i++) await new Promise((r) => setTimeout(r, 100));
      expect(readFileSync(copied, 'utf8')).toBe('hello webdav');
      // Clipnest's own WebDAV over the mount.
      const auth = basicAuth(ADMIN.username, ADMIN.password);
      const put = await fetch(`${server.url}/dav/nas/via-dav.txt`, {
        method: 'PUT',
        headers: { authorization: auth },
        body: 'through /dav',
      });
      expect(put.status).toBeLessThan(300);
      expect(readFileSync(path.join(apache.root, 'via-dav.txt'), 'utf8')).toBe('through /dav');
      const get = await fetch(`${server.url}/dav/nas/via-dav.txt`, { headers: { authorization: auth } });
      expect(await get.text()).toBe('through /dav');
      const move = await fetch(`${server.url}/dav/nas/via-dav.txt`, {
        method: 'MOVE',
        headers: { authorization: auth, destination: `${server.url}/dav/nas/moved.txt` },
      });
      expect(move.status).toBeLessThan(300);
      expect(existsSync(path.join(apache.root, 'moved.txt'))).toBe(true);
      const rm = await server.call('DELETE', '/api/fs/batch-remove', {
        token,
        body: { paths: ['/nas/dossier été'] },
      });
      expect(rm.status).toBe(200);
      expect(existsSync(path.join(apache.root, 'dossier été'))).toBe(false);
    });

    it('a big upload through the explorer goes in parts staged on the server, then joined', async () => {
      const bytes = Buffer.alloc(3000);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) % 251;
      const init = await server.call<{ uploadId: string; partCount: number; path: string; presigned: boolean }>(
        'POST',
        '/api/fs/multipart/init',
        { token, body: { path: '/nas/mp/', fileName: 'big.bin', fileSize: bytes.length, partSize: 1024 } },
      );
      expect(init.status, init.body.message).toBe(200);
      const { uploadId, partCount, path: target, presigned } = init.body.data!;
      expect([presigned, partCount]).toEqual([false, 3]);
      const parts = [];
      for (let n = 1; n <= partCount; n++) {
        const res = await fetch(
          `${server.url}/api/fs/multipart/part?path=${q(target)}&uploadId=${q(uploadId)}&partNumber=${n}`,
          {
            method: 'PUT',
            body: bytes.subarray((n - 1) * 1024, n * 1024),
            headers: { authorization: `Bearer ${token}` },
          },
        );
        expect(res.status).toBe(200);
        parts.push({ PartNumber: n, ETag: res.headers.get('etag')! });
      }
      const done = await server.call('POST', '/api/fs/multipart/complete', {
        token,
        body: { path: target, uploadId, parts },
      });
      expect(done.status, done.body.message).toBe(201);
      expect(readFileSync(path.join(apache.root, 'mp', 'big.bin')).equals(bytes)).toBe(true);
      // The staging folder is gone and was never listed.
      const listed = await server.call<{ items: Array<{ name: string }> }>('GET', '/api/fs/list?path=%2Fnas', {
        token,
      });
      expect(listed.body.data?.items.map((i) => i.name)).not.toContain('.clipnest-multipart');
      expect(existsSync(path.join(apache.root, '.clipnest-multipart', uploadId))).toBe(false);
    });

    const configAt: ConfigAt = (port, name) => ({
      storage_type: 'webdav',
      name,
      endpoint_url: `http://127.0.0.1:${port}/dav/`,
      username: apache.username,
      password: apache.password,
    });
    it('a server that is down answers 503 with a kind within 15 s', () => downCheck(server, token, configAt));

    it('a server that accepts but never answers fails with 503 within 15 s, not a hang', { timeout: 30_000 }, () =>
      muteCheck(server, token, configAt),
    );

    it('a mount recovers when its server comes back (pooled sockets dropped, not reused dead)', () =>
      recoveryCheck(server, token, configAt, apache.port));

    it.skipIf(!existsSync('/usr/bin/litmus'))(
      'litmus passes every suite on a mount of the webdav type',
      async () => {
        await expectLitmusPasses(`${server.url}/dav/nas/`, ADMIN.username, ADMIN.password);
      },
      300_000,
    );
  },
);
