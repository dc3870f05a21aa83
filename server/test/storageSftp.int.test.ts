// The sftp storage type end to end against Debian's OpenSSH sshd: the config API (fields, 400s naming the field,
// secrets never echoed and encrypted at rest), the Test pinning the host key and a changed key refused, paths that
// never leave the root folder (a remote link to / included), a mount through the fs API and /dav, and a server that
// is down or mute answering 503 with a kind quickly, then recovering.
import type { StorageConfigTestResult, StorageConfigView } from '@clipnest/contract';
import { existsSync, mkdirSync, readFileSync, statfsSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fsRaw, fsUpload } from './support/fsApi.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount } from './support/mounts.js';
import { downCheck, muteCheck, recoveryCheck, type ConfigAt } from './support/unreachableStorage.js';
import { sshdMissing, startSshd, type Sshd } from './support/sshd.js';
import { basicAuth, expectLitmusPasses } from './support/webdav.js';

const missing = sshdMissing();
const q = encodeURIComponent;

describe.skipIf(missing !== undefined).each(dbTargets)(
  `sftp storage type on %s${missing ? ` (skipped: ${missing})` : ''}`,
  (target) => {
    let server: TestServer;
    let sshd: Sshd;
    let token: string;
    let config: StorageConfigView;
    beforeAll(async () => {
      [server, sshd] = await Promise.all([startTestServer(target), startSshd()]);
      token = await server.login();
      // Outside the root: a secret file, and a link to it and to / inside the root.
      writeFileSync(path.join(path.dirname(sshd.root), 'outside.txt'), 'secret outside');
      mkdirSync(path.join(sshd.root, 'store'));
      symlinkSync('/', path.join(sshd.root, 'store', 'to-root'));
      symlinkSync(path.join(path.dirname(sshd.root), 'outside.txt'), path.join(sshd.root, 'store', 'to-outside.txt'));
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await sshd?.stop();
    });

    const root = () => path.join(sshd.root, 'store');
    const create = (body: Record<string, unknown>) =>
      server.call<StorageConfigView>('POST', '/api/s3-configs', { token, body });
    const test = (id: string) => server.call<StorageConfigTestResult>('POST', `/api/s3-configs/${id}/test`, { token });
    const fields = (body: { data?: unknown }) =>
      ((body.data as { fields?: Array<{ path: string }> } | undefined)?.fields ?? []).map((f) => f.path);
    const base = () => ({
      storage_type: 'sftp',
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
      private_key: sshd.privateKey,
      root_folder: root(),
    });

    it('refuses bad input with a 400 naming the field', async () => {
      const noHost = await create({ ...base(), name: 's', host: undefined });
      expect(noHost.status).toBe(400);
      expect(fields(noHost.body)).toContain('host');
      const url = await create({ ...base(), name: 's', host: 'sftp://nas.local' });
      expect(fields(url.body)).toContain('host');
      const port = await create({ ...base(), name: 's', port: 70000 });
      expect(fields(port.body)).toContain('port');
      const noSecret = await create({ ...base(), name: 's', private_key: '' });
      expect(noSecret.status).toBe(400);
      expect(fields(noSecret.body)).toContain('password');
      const badKey = await create({ ...base(), name: 's', private_key: 'not a key' });
      expect(fields(badKey.body)).toContain('private_key');
      const brokenKey = await create({
        ...base(),
        name: 's',
        private_key: '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----',
      });
      expect(brokenKey.status).toBe(400);
      expect(fields(brokenKey.body)).toContain('private_key');
      const fingerprint = await create({ ...base(), name: 's', host_key_sha256: 'abc' });
      expect(fields(fingerprint.body)).toContain('host_key_sha256');
      const metadata = await create({ ...base(), name: 's', host: '169.254.169.254' });
      expect(metadata.status).toBe(400);
      expect(fields(metadata.body)).toContain('host');
    });

    it('creates a config: secrets are write-only and encrypted at rest; the Test pins the host key', async () => {
      const res = await create({ ...base(), name: 'box', default_folder: 'shares' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      config = res.body.data!;
      expect(config).toMatchObject({
        storage_type: 'sftp',
        host: sshd.host,
        port: sshd.port,
        username: sshd.username,
        root_folder: root(),
        host_key_sha256: '',
        has_private_key: true,
        has_password: false,
        has_secret: true,
      });
      const keyBody = sshd.privateKey.split('\n')[1]!;
      expect(JSON.stringify(config)).not.toContain(keyBody);
      const rows = await server.built.database.db.selectFrom('storage_configs').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(keyBody);
      const tested = await test(config.id);
      expect(tested.body.data?.success, JSON.stringify(tested.body.data)).toBe(true);
      expect(existsSync(path.join(root(), 'shares'))).toBe(true);
      const after = await server.call<StorageConfigView>('GET', `/api/s3-configs/${config.id}`, { token });
      expect(after.body.data?.host_key_sha256).toBe(sshd.hostKeySha256);
      // An edit without secrets keeps them.
      const edit = await server.call<StorageConfigView>('PUT', `/api/s3-configs/${config.id}`, {
        token,
        body: { name: 'sftp box', private_key: '', password: '' },
      });
      expect(edit.status).toBe(200);
      expect(edit.body.data).toMatchObject({ has_private_key: true, host_key_sha256: sshd.hostKeySha256 });
      expect((await test(config.id)).body.data?.success).toBe(true);
    });

    it('a changed host key is refused with a clear reason (502 on a mount), until it is unpinned', async () => {
      const other = 'A'.repeat(43);
      const res = await create({ ...base(), name: 'pinned elsewhere', host_key_sha256: `SHA256:${other}` });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const id = res.body.data!.id;
      const tested = await test(id);
      expect(tested.body.data?.success).toBe(false);
      expect(tested.body.data?.steps[0]?.message).toMatch(/host key .*changed/);
      await createMount(server, token, { path: '/pinned', storage_config_id: id });
      const list = await server.call('GET', '/api/fs/list?path=%2Fpinned', { token });
      expect(list.status).toBe(502);
      expect(list.body.message).toMatch(/host key/);
      const unpin = await server.call<StorageConfigView>('PUT', `/api/s3-configs/${id}`, {
        token,
        body: { host_key_sha256: '' },
      });
      expect(unpin.body.data?.host_key_sha256).toBe('');
      expect((await test(id)).body.data?.success).toBe(true);
      const pinned = await server.call<StorageConfigView>('GET', `/api/s3-configs/${id}`, { token });
      expect(pinned.body.data?.host_key_sha256).toBe(sshd.hostKeySha256);
    });

    it('a server reinstalled with a new host key is refused (mount 502, Test fails) and the pin stays', async () => {
      const own = await startSshd();
      try {
        mkdirSync(path.join(own.root, 'store'));
        const res = await create({
          ...base(),
          name: 'reinstalled',
          port: own.port,
          private_key: own.privateKey,
          root_folder: path.join(own.root, 'store'),
        });
        const id = res.body.data!.id;
        // The first connection (a mount used before any Test) pins the key on the stored config.
        await createMount(server, token, { path: '/reinstalled', storage_config_id: id });
        const first = await server.call('GET', '/api/fs/list?path=%2Freinstalled', { token });
        expect(first.status, JSON.stringify(first.body)).toBe(200);
        const view = async () =>
          (await server.call<StorageConfigView>('GET', `/api/s3-configs/${id}`, { token })).body.data?.host_key_sha256;
        await expect.poll(view).toBe(own.hostKeySha256);
        const renewed = await own.newHostKey();
        expect(renewed).not.toBe(own.hostKeySha256);
        // sshd's sessions outlive its listener: an edit drops the pooled connection, and the new driver reads
        // the pin from the stored row (not from the old driver's memory).
        const rename = await server.call('PUT', `/api/s3-configs/${id}`, { token, body: { name: 'reinstalled nas' } });
        expect(rename.status).toBe(200);
        // (A write: the listing above may be answered from the vfs's listing cache.)
        const write = await fsUpload(server, { token }, 'to the impostor', {
          filename: 'x.txt',
          after: { path: '/reinstalled/x.txt', use_multipart: 'false' },
        });
        expect(write.status).toBe(502);
        expect(write.body.message).toContain(`SHA256:${renewed}`);
        expect(write.body.message).toMatch(/host key of .* changed/);
        expect(existsSync(path.join(own.root, 'store', 'x.txt'))).toBe(false);
        const tested = await test(id);
        expect(tested.body.data?.success).toBe(false);
        expect(tested.body.data?.steps[0]?.message).toContain(`pinned SHA256:${own.hostKeySha256}`);
        expect(await view()).toBe(own.hostKeySha256);
      } finally {
        await own.stop();
      }
    });

    it('a mount of it works through the fs API and /dav: upload, list, range, copy, move, delete', async () => {
      await createMount(server, token, { path: '/box', storage_config_id: config.id });
      const admin = { token };
      const name = 'dossier été/报告 #1 + 50%.txt';
      const up = await fsUpload(server, admin, 'hello sftp', {
        filename: 'x.txt',
        after: { path: `/box/${name}`, use_multipart: 'false' },
      });
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      expect(readFileSync(path.join(root(), name), 'utf8')).toBe('hello sftp');
      const listed = await server.call<{ items: Array<{ name: string }> }>(
        'GET',
        `/api/fs/list?path=${q('/box/dossier été')}`,
        { token },
      );
      expect(listed.body.data?.items.map((i) => i.name)).toEqual(['报告 #1 + 50%.txt']);
      const range = await fsRaw(server, `/api/fs/download?path=${q(`/box/${name}`)}`, admin, { range: 'bytes=6-' });
      expect(range.status).toBe(206);
      expect(new TextDecoder().decode(range.bytes)).toBe('sftp');
      const copy = await server.call('POST', '/api/fs/batch-copy', {
        token,
        body: { items: [{ sourcePath: '/box/dossier été', targetPath: '/box/copies' }] },
      });
      expect(copy.status, JSON.stringify(copy.body)).toBe(202);
      const copied = path.join(root(), 'copies', '报告 #1 + 50%.txt');
      for (let i = 0; i < 100 && !existsSync(copied); i++) await new Promise((r) => setTimeout(r, 100));
      expect(readFileSync(copied, 'utf8')).toBe('hello sftp');
      const auth = basicAuth(ADMIN.username, ADMIN.password);
      const put = await fetch(`${server.url}/dav/box/via-dav.txt`, {
        method: 'PUT',
        headers: { authorization: auth },
        body: 'through /dav',
      });
      expect(put.status).toBeLessThan(300);
      expect(readFileSync(path.join(root(), 'via-dav.txt'), 'utf8')).toBe('through /dav');
      const move = await fetch(`${server.url}/dav/box/via-dav.txt`, {
        method: 'MOVE',
        headers: { authorization: auth, destination: `${server.url}/dav/box/moved.txt` },
      });
      expect(move.status).toBeLessThan(300);
      expect(existsSync(path.join(root(), 'moved.txt'))).toBe(true);
      const rm = await server.call('DELETE', '/api/fs/batch-remove', { token, body: { paths: ['/box/dossier été'] } });
      expect(rm.status).toBe(200);
      expect(existsSync(path.join(root(), 'dossier été'))).toBe(false);
    });

    it('its free/used space (statvfs@openssh.com) shows where the product shows space: /dav quota properties', async () => {
      const body =
        '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop>' +
        '<D:quota-available-bytes/><D:quota-used-bytes/></D:prop></D:propfind>';
      const res = await fetch(`${server.url}/dav/box/`, {
        method: 'PROPFIND',
        headers: { authorization: basicAuth(ADMIN.username, ADMIN.password), depth: '0' },
        body,
      });
      expect(res.status).toBe(207);
      const xml = await res.text();
      const available = Number(/quota-available-bytes>(\d+)</.exec(xml)?.[1]);
      const used = Number(/quota-used-bytes>(\d+)</.exec(xml)?.[1]);
      // The sshd's disk is this machine's: same figures as statfs, give or take other writers.
      const disk = statfsSync(sshd.root);
      expect(Math.abs(available - disk.bavail * disk.bsize)).toBeLessThan(256 * 1024 * 1024);
      expect(Math.abs(used - (disk.blocks - disk.bfree) * disk.bsize)).toBeLessThan(256 * 1024 * 1024);
    });

    it('no path leaves the root folder: remote links pointing outside are neither listed nor followed', async () => {
      const listed = await server.call<{ items: Array<{ name: string }> }>('GET', '/api/fs/list?path=%2Fbox', {
        token,
      });
      const names = listed.body.data?.items.map((i) => i.name) ?? [];
      expect(names).not.toContain('to-root');
      expect(names).not.toContain('to-outside.txt');
      const viaLink = await server.call('GET', '/api/fs/list?path=%2Fbox%2Fto-root%2Fetc', { token });
      expect(viaLink.status).toBe(400);
      const read = await fsRaw(server, `/api/fs/download?path=${q('/box/to-outside.txt')}`, { token });
      expect(read.status).toBe(400);
      expect(new TextDecoder().decode(read.bytes)).not.toContain('secret outside');
      const write = await fsUpload(server, { token }, 'x', {
        filename: 'x.txt',
        after: { path: '/box/to-root/tmp/clipnest-escape.txt', use_multipart: 'false' },
      });
      expect(write.status).toBe(400);
      expect(existsSync('/tmp/clipnest-escape.txt')).toBe(false);
      const dots = await server.call('GET', `/api/fs/list?path=${q('/box/../..')}`, { token });
      expect([400, 404]).toContain(dots.status);
      // Removing the link removes the link, never what it points at.
      const rm = await server.call('DELETE', '/api/fs/batch-remove', {
        token,
        body: { paths: ['/box/to-outside.txt'] },
      });
      expect(rm.status).toBeLessThan(500);
      expect(readFileSync(path.join(path.dirname(sshd.root), 'outside.txt'), 'utf8')).toBe('secret outside');
    });

    const configAt: ConfigAt = (port, name) => ({ ...base(), name, port });
    it('a server that is down answers 503 with a kind within 15 s', () => downCheck(server, token, configAt));

    it('a server that accepts but never answers fails with 503 within 15 s, not a hang', { timeout: 30_000 }, () =>
      muteCheck(server, token, configAt),
    );

    it('a mount recovers when its server comes back (pooled connections dropped, not reused dead)', () =>
      recoveryCheck(server, token, configAt, sshd.port));

    it.skipIf(!existsSync('/usr/bin/litmus'))(
      'litmus passes every suite on a mount of the sftp type',
      async () => {
        await expectLitmusPasses(`${server.url}/dav/box/`, ADMIN.username, ADMIN.password);
      },
      300_000,
    );
  },
);
