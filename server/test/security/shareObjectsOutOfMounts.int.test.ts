// Issue 34 point 2: file shares and mounts of one storage never see each other's objects. Before, a key
// with only the file-share permission (base path /local/team) uploaded with `s3_config_id=<a mounted
// config>` and `path=secret`, and the file appeared at /local/secret, outside its base path; and a
// password-protected share stored in a mounted config was read without its password through
// /api/fs/download by a view-only key. Now a share's object lives in its storage's share area
// (`.clipnest-shares/`, a reserved name no mount, WebDAV or fs path can name, hidden from listings), for
// every upload door (form, presign and multipart, URL); objects stored before (or imported in place) keep
// downloading as shares, and the tree neither reads, lists, moves nor deletes them.
import { Permission, type FileView, type UrlFetchJob } from '@clipnest/contract';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFile } from '../support/featureRows.js';
import { createS3Config, rawGet, startS3rver, upload, type S3rverHandle } from '../support/fileShares.js';
import { dbTargets, startTestServer, type TestServer } from '../support/harness.js';
import { startRemoteFiles, type RemoteFileServer } from '../support/remoteFiles.js';
import { createMount, createPathKey, mountableLocalConfig, mountedLocalRoot } from '../support/mounts.js';

type Listing = { items?: { name: string }[]; entries?: { name: string }[]; content?: { name: string }[] };

describe.each(dbTargets)('share objects stay out of mounts, on %s', (target) => {
  let server: TestServer;
  let token: string;
  let configId: string;
  let root: string;
  let shareKey: string;
  let viewKey: string;
  let remote: RemoteFileServer;

  const names = async (dir: string, auth: { token?: string; apiKey?: string } = { token }) => {
    const res = await server.call<Listing>('GET', `/api/fs/list?path=${encodeURIComponent(dir)}&refresh=true`, auth);
    expect(res.status, `${dir}: ${res.body.message}`).toBe(200);
    const data = res.body.data as Listing;
    return (data.items ?? data.entries ?? data.content ?? []).map((e) => e.name);
  };
  const fsDownload = (p: string, apiKey: string) =>
    rawGet(server, `/api/fs/download?path=${encodeURIComponent(p)}`, { authorization: `ApiKey ${apiKey}` });

  beforeAll(async () => {
    remote = await startRemoteFiles({
      'fetched.txt': { body: new TextEncoder().encode('fetched bytes'), type: 'text/plain' },
    });
    // URL uploads from the test's file server on 127.0.0.1.
    server = await startTestServer(target, { ALLOW_PRIVATE_URLS: 'true' });
    token = await server.login();
    configId = await mountableLocalConfig(server, token);
    root = mountedLocalRoot(server);
    await createMount(server, token, { path: '/local', storage_config_id: configId });
    mkdirSync(path.join(root, 'team'), { recursive: true });
    shareKey = await createPathKey(server, token, Permission.FILE_SHARE, '/local/team');
    viewKey = await createPathKey(server, token, Permission.MOUNT_VIEW, '/');
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  it('a file-share key cannot plant files in a mount (outside its base path) through s3_config_id and path', async () => {
    const res = await upload(server, 'planted by a share key', {
      apiKey: shareKey,
      fields: { s3_config_id: configId, path: 'secret' },
      filename: 'planted.txt',
    });
    expect(res.status, res.body.message).toBe(201);
    const view = res.body.data as FileView;
    expect(view.path).toBe('/secret');
    // Nothing of it through the mount, for the admin either: no `secret` folder, no share area.
    expect(await names('/local')).not.toContain('secret');
    expect((await names('/local')).filter((n) => n.startsWith('.clipnest'))).toEqual([]);
    expect((await server.call('GET', '/api/fs/get?path=/local/secret', { token })).status).toBe(404);
    expect(existsSync(path.join(root, 'secret'))).toBe(false);
    // The share area cannot be named through the tree.
    for (const p of [
      '/local/.clipnest-shares',
      `/local/.clipnest-shares/${view.storage_path.split('/').slice(1).join('/')}`,
    ]) {
      const got = await server.call('GET', `/api/fs/get?path=${encodeURIComponent(p)}`, { token });
      expect(got.status, p).toBeGreaterThanOrEqual(400);
      expect(got.status, p).toBeLessThan(500);
    }
    // Nor through the upload's own path field.
    const sneaky = await upload(server, 'x', {
      apiKey: shareKey,
      fields: { s3_config_id: configId, path: '.clipnest-shares/x' },
    });
    expect(sneaky.status).toBe(400);
    // The share itself downloads.
    const got = await rawGet(server, `/api/file-download/${view.slug}`);
    expect(got.status).toBe(200);
    expect(got.text).toBe('planted by a share key');
  });

  it('a URL upload (server-side fetch) lands in the share area too', async () => {
    const start = await server.call<UrlFetchJob>('POST', '/api/url/fetch', {
      apiKey: shareKey,
      body: { url: `${remote.url}/files/fetched.txt`, s3_config_id: configId, path: 'secret' },
    });
    expect(start.status, start.body.message).toBe(202);
    let job: UrlFetchJob | undefined;
    for (let i = 0; i < 200; i++) {
      const res = await server.call<UrlFetchJob>('GET', `/api/url/jobs/${start.body.data!.job_id}`, {
        apiKey: shareKey,
      });
      job = res.body.data!;
      if (job.status !== 'downloading') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(job?.status).toBe('completed');
    expect(job!.file!.storage_path.startsWith('.clipnest-shares/secret/')).toBe(true);
    expect(await names('/local')).not.toContain('secret');
    expect((await rawGet(server, `/api/file-download/${job!.file!.slug}`)).text).toBe('fetched bytes');
  });

  it('a password-protected share in a mounted storage is not readable through /api/fs/download', async () => {
    const res = await upload(server, 'the protected content', {
      token,
      fields: { s3_config_id: configId, path: 'docs', password: 'share-password-1' },
      filename: 'protected.txt',
    });
    expect(res.status, res.body.message).toBe(201);
    const view = res.body.data as FileView;
    const name = view.storage_path.split('/').pop() ?? '';
    for (const p of [`/local/${view.storage_path}`, `/local/docs/${name}`, `/local/${name}`]) {
      const got = await fsDownload(p, viewKey);
      expect(got.status, p).toBeGreaterThanOrEqual(400);
      expect(got.text, p).not.toContain('the protected content');
    }
    expect(await names('/local', { apiKey: viewKey })).not.toContain('docs');
    // The share still wants its password.
    expect((await rawGet(server, `/api/file-download/${view.slug}`)).status).toBe(401);
    const ok = await rawGet(server, `/api/file-download/${view.slug}?password=share-password-1`);
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('the protected content');
  });

  it('share objects stored before the share area keep downloading; the mount cannot read, list, move or delete them', async () => {
    mkdirSync(path.join(root, 'legacy'), { recursive: true });
    writeFileSync(path.join(root, 'legacy', 'Ab3dEf7h_old.txt'), 'legacy share content');
    writeFileSync(path.join(root, 'legacy', 'mounted.txt'), 'a plain mounted file');
    await insertFile(server, {
      id: 'legacy-share-0001',
      slug: 'legacy-share',
      filename: 'old.txt',
      mimetype: 'text/plain',
      size: 20,
      storage_config_id: configId,
      storage_path: 'legacy/Ab3dEf7h_old.txt',
    });
    expect(await names('/local/legacy', { apiKey: viewKey })).toEqual(['mounted.txt']);
    const read = await fsDownload('/local/legacy/Ab3dEf7h_old.txt', viewKey);
    expect(read.status).toBe(404);
    expect(read.text).not.toContain('legacy share content');
    expect((await fsDownload('/local/legacy/mounted.txt', viewKey)).text).toBe('a plain mounted file');
    // The admin cannot move or delete the folder (the share would break, or its object land in reach).
    const rename = await server.call('POST', '/api/fs/rename', {
      token,
      body: { oldPath: '/local/legacy', newPath: '/local/moved' },
    });
    expect(rename.status, rename.body.message).toBe(409);
    const remove = await server.call('DELETE', '/api/fs/batch-remove', { token, body: { paths: ['/local/legacy'] } });
    expect(remove.status, remove.body.message).toBe(409);
    expect(readdirSync(path.join(root, 'legacy')).sort()).toEqual(['Ab3dEf7h_old.txt', 'mounted.txt']);
    // The share downloads from where it always was.
    const got = await rawGet(server, '/api/file-download/legacy-share');
    expect(got.status).toBe(200);
    expect(got.text).toBe('legacy share content');
  });

  describe('S3: form upload, presign + commit and multipart land in the share area', () => {
    let s3: S3rverHandle;
    let s3ConfigId: string;

    beforeAll(async () => {
      s3 = await startS3rver('share-area-bucket');
      s3ConfigId = (await createS3Config(server, token, s3)).id;
      await createMount(server, token, { path: '/bucket', storage_config_id: s3ConfigId });
    });
    afterAll(async () => {
      await s3?.close();
    });

    it('no door writes where the mount reads', async () => {
      const form = await upload(server, 'form bytes', {
        apiKey: shareKey,
        fields: { s3_config_id: s3ConfigId, path: 'secret' },
        filename: 'form.txt',
      });
      expect(form.status, form.body.message).toBe(201);
      const presign = await server.call<{ upload_url: string; file_id: string; storage_path: string }>(
        'POST',
        '/api/s3/presign',
        {
          apiKey: shareKey,
          body: { s3_config_id: s3ConfigId, filename: 'direct.txt', mimetype: 'text/plain', size: 12, path: 'secret' },
        },
      );
      expect(presign.status, presign.body.message).toBe(200);
      const data = presign.body.data!;
      expect(data.storage_path.startsWith('.clipnest-shares/')).toBe(true);
      const put = await fetch(data.upload_url, {
        method: 'PUT',
        body: 'direct bytes',
        headers: { 'content-type': 'text/plain' },
      });
      expect(put.status).toBe(200);
      const commit = await server.call<FileView>('POST', '/api/s3/commit', {
        apiKey: shareKey,
        body: {
          file_id: data.file_id,
          s3_config_id: s3ConfigId,
          storage_path: data.storage_path,
          filename: 'direct.txt',
          size: 12,
        },
      });
      expect(commit.status, commit.body.message).toBeLessThan(300);
      // Multipart (large files) plans its object in the share area too.
      const multipart = await server.call<{ file_id: string; upload_id: string; storage_path: string }>(
        'POST',
        '/api/upload/multipart/init',
        {
          apiKey: shareKey,
          body: {
            s3_config_id: s3ConfigId,
            filename: 'big.bin',
            mimetype: 'application/octet-stream',
            size: 6 * 1024 * 1024,
            path: 'secret',
          },
        },
      );
      expect(multipart.status, multipart.body.message).toBe(200);
      expect(multipart.body.data!.storage_path.startsWith('.clipnest-shares/secret/')).toBe(true);
      const abort = await server.call('POST', '/api/upload/multipart/abort', {
        apiKey: shareKey,
        body: { file_id: multipart.body.data!.file_id, upload_id: multipart.body.data!.upload_id },
      });
      expect(abort.status, abort.body.message).toBeLessThan(300);
      const listed = await names('/bucket');
      expect(listed).not.toContain('secret');
      expect(listed.filter((n) => n.startsWith('.clipnest'))).toEqual([]);
      for (const view of [form.body.data!, commit.body.data!]) {
        const got = await fsDownload(`/bucket/${view.storage_path}`, viewKey);
        expect(got.status).toBeGreaterThanOrEqual(400);
        expect((await rawGet(server, `/api/file-download/${view.slug}`)).status).toBe(200);
      }
    });
  });
});
