// The rclone storage type end to end: rclone's webdav backend on the Apache mod_dav test server, behind the
// `rclone serve webdav` the server supervises. The config API (400s for bad sections, the section write-only and
// encrypted at rest, its name and type in the view), the Test steps, a mount through the fs API, the process
// started lazily, started again after it was killed and stopped on close, and rclone missing → 503.
import type { StorageConfigTestResult, StorageConfigView } from '@clipnest/contract';
import { existsSync, readdirSync, readFileSync, renameSync, statfsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretCipher } from '../src/security/cipher.js';
import { RcloneDriver } from '../src/storage/rclone/driver.js';
import { WebDavDriver } from '../src/storage/webdav/driver.js';
import { apacheMissing, startApacheDav, type ApacheDav } from './support/apacheDav.js';
import { download } from './support/backups.js';
import { fsRaw, fsUpload } from './support/fsApi.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount, mountableLocalConfig, mountedLocalRoot } from './support/mounts.js';
import { RCLONE_BIN, rcloneMissing, rcloneSectionFor } from './support/rclone.js';
import { expectLitmusPasses } from './support/webdav.js';

const missing = apacheMissing() ?? rcloneMissing();
const KEY = 'rclone-test-encryption-key-0123456789abcdef';
const q = encodeURIComponent;

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  for (let waited = 0; !check() && waited < ms; waited += 50) await new Promise((r) => setTimeout(r, 50));
}

describe.skipIf(missing !== undefined).each(dbTargets)(
  `rclone storage type on %s${missing ? ` (skipped: ${missing})` : ''}`,
  (target) => {
    let server: TestServer;
    let apache: ApacheDav;
    let token: string;
    let config: StorageConfigView;
    let section: string;
    beforeAll(async () => {
      [server, apache] = await Promise.all([
        startTestServer(target, { RCLONE_BINARY: RCLONE_BIN, ENCRYPTION_KEY: KEY }),
        startApacheDav(),
      ]);
      token = await server.login();
      section = rcloneSectionFor(apache);
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await apache?.stop();
    });

    const create = (body: Record<string, unknown>) =>
      server.call<StorageConfigView>('POST', '/api/s3-configs', { token, body });
    const fields = (body: { data?: unknown }) =>
      ((body.data as { fields?: Array<{ path: string }> } | undefined)?.fields ?? []).map((f) => f.path);
    const driverOf = async (id: string) => {
      const row = await server.built.database.db
        .selectFrom('storage_configs')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return server.built.services.storageRegistry.driverFor(row) as RcloneDriver;
    };

    it('refuses bad sections with a 400 naming rclone_config', async () => {
      const cases: Array<[string, RegExp]> = [
        ['', /required/],
        ['type = webdav\n', /\[name\]/],
        ['[a]\ntype = webdav\n[b]\ntype = webdav\n', /exactly one/],
        ['[a]\nurl = x\n', /type/],
        ['[a]\ntype = local\n', /server's own disk/],
        ['[a]\ntype = alias\nremote = /etc\n', /server's own disk/],
        ['[a]\ntype = crypt\nremote = /srv\n', /server's own disk/],
        ['[a]\ntype = nosuchbackend\n', /not an rclone backend/],
        ['[a]\ntype = sftp\nkey_file = /etc/ssh/ssh_host_ed25519_key\n', /read a file or run a program/],
        ['[a]\ntype = webdav\nbearer_token_command = id\n', /read a file or run a program/],
        ['[a]\ntype = webdav\njust text\n', /key = value/],
      ];
      for (const [text, message] of cases) {
        const res = await create({ storage_type: 'rclone', name: 'r', rclone_config: text });
        expect(res.status, text).toBe(400);
        expect(fields(res.body), text).toContain('rclone_config');
        expect(JSON.stringify(res.body), text).toMatch(message);
      }
      const foreign = await create({ storage_type: 'rclone', name: 'r', rclone_config: section, bucket: 'b' });
      expect(foreign.status).toBe(400);
    });

    it('creates a config: the section is write-only and encrypted at rest; its name and type show', async () => {
      const res = await create({
        storage_type: 'rclone',
        name: 'cloud',
        rclone_config: section,
        default_folder: 'shares',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      config = res.body.data!;
      expect(config).toMatchObject({
        storage_type: 'rclone',
        rclone_remote: 'nas',
        rclone_type: 'webdav',
        has_secret: true,
        secret_access_key_masked: '••••',
      });
      const obscured = /pass = (.+)/.exec(section)![1]!;
      expect(JSON.stringify(config)).not.toContain(obscured);
      const rows = await server.built.database.db.selectFrom('storage_configs').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(obscured);
      expect(JSON.stringify(rows)).not.toContain(apache.url);
      // An edit without the section keeps it; a bad one is refused; fields of other types too.
      const keep = await server.call<StorageConfigView>('PUT', `/api/s3-configs/${config.id}`, {
        token,
        body: { name: 'cloud drive', rclone_config: '' },
      });
      expect(keep.status).toBe(200);
      expect(keep.body.data).toMatchObject({ rclone_remote: 'nas', has_secret: true });
      const bad = await server.call('PUT', `/api/s3-configs/${config.id}`, {
        token,
        body: { rclone_config: '[x]\ntype = local\n' },
      });
      expect(bad.status).toBe(400);
      expect(fields(bad.body)).toContain('rclone_config');
      const s3Field = await server.call('PUT', `/api/s3-configs/${config.id}`, {
        token,
        body: { endpoint_url: 'http://x/' },
      });
      expect(s3Field.status).toBe(400);
    });

    it('Test writes, reads and deletes a probe through rclone', async () => {
      const res = await server.call<StorageConfigTestResult>('POST', `/api/s3-configs/${config.id}/test`, { token });
      expect(res.status).toBe(200);
      expect(res.body.data?.success, JSON.stringify(res.body.data)).toBe(true);
      expect(existsSync(path.join(apache.root, 'shares'))).toBe(true);
    });

    it("a section rclone cannot use fails the Test at its first step, with rclone's reason", async () => {
      const wrong = await create({
        storage_type: 'rclone',
        name: 'wrong password',
        rclone_config: section.replace(/pass = .+/, 'pass = not-obscured'),
      });
      expect(wrong.status).toBe(201);
      const res = await server.call<StorageConfigTestResult>('POST', `/api/s3-configs/${wrong.body.data!.id}/test`, {
        token,
      });
      expect(res.body.data?.success).toBe(false);
      expect(res.body.data?.steps[0]).toMatchObject({ step: 'connect', success: false });
      expect(res.body.data?.steps[0]?.message).toBeTruthy();
    });

    it('starts rclone on first use, serves a mount, starts it again after it died, and stops it on close', async () => {
      const driver = await driverOf(config.id);
      // Nothing runs until the storage is used.
      expect(driver.serve?.pid).toBeUndefined();
      await createMount(server, token, { path: '/cloud', storage_config_id: config.id, cache_ttl: 0 });
      const up = await fsUpload(server, { token }, 'hello rclone', {
        filename: 'x.txt',
        after: { path: '/cloud/docs/报告 1.txt', use_multipart: 'false' },
      });
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      expect(readFileSync(path.join(apache.root, 'docs', '报告 1.txt'), 'utf8')).toBe('hello rclone');
      const range = await fsRaw(
        server,
        `/api/fs/download?path=${q('/cloud/docs/报告 1.txt')}`,
        { token },
        {
          range: 'bytes=6-',
        },
      );
      expect(range.status).toBe(206);
      expect(new TextDecoder().decode(range.bytes)).toBe('rclone');
      const pid = driver.serve?.pid;
      expect(alive(pid)).toBe(true);
      // The temp rclone.conf is private to the server's user.
      const tmp = path.join(server.dataDir, 'tmp');
      const confs = readdirSync(tmp).filter((n) => n.startsWith('rclone-'));
      expect(confs).toHaveLength(1);
      // Killed from outside: the next call starts another process.
      process.kill(pid!, 'SIGKILL');
      await until(() => !alive(pid));
      const list = await server.call<{ items: Array<{ name: string }> }>(
        'GET',
        `/api/fs/list?path=${q('/cloud/docs')}&refresh=true`,
        {
          token,
        },
      );
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(list.body.data?.items.map((i) => i.name)).toEqual(['报告 1.txt']);
      const second = driver.serve?.pid;
      expect(second).not.toBe(pid);
      expect(alive(second)).toBe(true);
      expect(driver.serve?.starts).toBe(2);
      // Closing the storage stops the process and removes its config.
      await driver.close();
      await until(() => !alive(second));
      expect(alive(second)).toBe(false);
      expect(readdirSync(tmp).filter((n) => n.startsWith('rclone-'))).toEqual([]);
      server.built.services.storageRegistry.invalidate(config.id);
    });

    // On one database: litmus speaks to the storage (through rclone's own WebDAV server, which re-reads its remote
    // for every request), and at 1–1.5 minutes it was the longest test of the PostgreSQL lane too. The WebDAV
    // handler's database side (locks) runs litmus on both databases in webdav.litmus.int.test.ts.
    it.skipIf(!existsSync('/usr/bin/litmus') || target !== 'sqlite')(
      'litmus passes every suite on a mount of the rclone type',
      async () => {
        const own = await create({ storage_type: 'rclone', name: 'rclone litmus', rclone_config: section });
        expect(own.status, JSON.stringify(own.body)).toBe(201);
        await createMount(server, token, { path: '/rclitmus', storage_config_id: own.body.data!.id });
        await expectLitmusPasses(`${server.url}/dav/rclitmus/`, ADMIN.username, ADMIN.password);
      },
      300_000,
    );

    it('free/used space: from RFC 4331 quota where the WebDAV server tells it, and through `rclone about`', async () => {
      // Clipnest's own /dav tells the quota of a local mount (its disk); Apache mod_dav_fs tells none.
      await createMount(server, token, {
        path: '/spaceprobe',
        storage_config_id: await mountableLocalConfig(server, token),
      });
      const disk = statfsSync(mountedLocalRoot(server));
      const near = (value: number, expected: number) =>
        expect(Math.abs(value - expected)).toBeLessThan(256 * 1024 * 1024);
      const tmpDir = path.join(apache.root, '..', 'rclone-space');
      const ownDav = `${server.url}/dav/spaceprobe/`;
      const webdav = new WebDavDriver({ endpoint: ownDav, username: ADMIN.username, password: ADMIN.password });
      const viaRclone = new RcloneDriver({
        id: 'space',
        binary: RCLONE_BIN,
        tmpDir,
        section: rcloneSectionFor({ ...apache, url: ownDav, username: ADMIN.username, password: ADMIN.password }),
      });
      const onApache = new RcloneDriver({ id: 'apache-space', binary: RCLONE_BIN, tmpDir, section });
      const apacheDav = new WebDavDriver({
        endpoint: apache.url,
        username: apache.username,
        password: apache.password,
      });
      try {
        for (const space of [await webdav.space(), await viaRclone.space()]) {
          near(space.freeBytes, disk.bavail * disk.bsize);
          near(space.usedBytes, (disk.blocks - disk.bfree) * disk.bsize);
        }
        await expect(apacheDav.space()).rejects.toMatchObject({ code: 'unsupported' });
        await expect(onApache.space()).rejects.toMatchObject({ code: 'unsupported' });
      } finally {
        await Promise.all([webdav.close(), viaRclone.close(), onApache.close(), apacheDav.close()]);
      }
    });

    it('a section rclone rewrites (a refreshed OAuth token) is stored back, encrypted, and used after a restart', async () => {
      const made = await create({ storage_type: 'rclone', name: 'refreshing', rclone_config: section });
      const id = made.body.data!.id;
      const driver = await driverOf(id);
      await driver.list('');
      const tmp = path.join(server.dataDir, 'tmp');
      const confs = () => readdirSync(tmp).filter((f) => f.startsWith(`rclone-${id}-`));
      const [conf] = confs();
      expect(conf).toBeDefined();
      // The fake refresh: rclone saves its config by writing a new file over the old one.
      const oauth = '{"access_token":"fresh-access","token_type":"Bearer","expiry":"2099-01-01T00:00:00Z"}';
      const refreshed = `${section.trimEnd()}\ntoken = ${oauth}\n`;
      writeFileSync(path.join(tmp, `${conf}.new`), refreshed);
      renameSync(path.join(tmp, `${conf}.new`), path.join(tmp, conf!));
      const cipher = new SecretCipher(KEY);
      const stored = async () => {
        const row = await server.built.database.db
          .selectFrom('storage_configs')
          .select('secret_encrypted')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        return row.secret_encrypted;
      };
      await expect.poll(async () => cipher.decrypt(await stored()), { timeout: 10_000 }).toBe(refreshed);
      expect(await stored()).not.toContain('fresh-access');
      const view = await server.call('GET', `/api/s3-configs/${id}`, { token });
      expect(JSON.stringify(view.body)).not.toContain('fresh-access');
      // rclone dies: the process started again reads the refreshed section, not the one it was built with.
      process.kill(driver.serve!.pid!, 'SIGKILL');
      await expect.poll(() => confs().length, { timeout: 10_000 }).toBe(0);
      await driver.list('');
      expect(readFileSync(path.join(tmp, confs()[0]!), 'utf8')).toBe(refreshed);
      // A section that is not of this remote (or not one) is never stored.
      writeFileSync(path.join(tmp, confs()[0]!), '[other]\ntype = webdav\n');
      await driver.close();
      expect(cipher.decrypt(await stored())).toBe(refreshed);
    });

    it('a backup carries the config: restored elsewhere, it keeps its section, name and type and works', async () => {
      const { file } = await download(server, token, { backup_type: 'modules', selected_modules: ['storage_config'] });
      const other = await startTestServer(target, { RCLONE_BINARY: RCLONE_BIN, ENCRYPTION_KEY: KEY });
      try {
        const otherToken = await other.login();
        const restored = await other.call('POST', '/api/admin/backup/restore', {
          token: otherToken,
          body: { mode: 'overwrite', backup: file },
        });
        expect(restored.status, JSON.stringify(restored.body)).toBe(200);
        const list = await other.call<{ items: StorageConfigView[] }>('GET', '/api/s3-configs', { token: otherToken });
        expect(list.body.data?.items.find((c) => c.id === config.id)).toMatchObject({
          storage_type: 'rclone',
          rclone_remote: 'nas',
          rclone_type: 'webdav',
          has_secret: true,
        });
        const test = await other.call<StorageConfigTestResult>('POST', `/api/s3-configs/${config.id}/test`, {
          token: otherToken,
        });
        expect(test.body.data?.success, JSON.stringify(test.body.data)).toBe(true);
      } finally {
        await other.close();
      }
    });

    it('rclone missing: the config saves, using it answers 503 saying so', async () => {
      const other = await startTestServer(target, { RCLONE_BINARY: '/nonexistent/rclone' });
      try {
        const otherToken = await other.login();
        const made = await other.call<StorageConfigView>('POST', '/api/s3-configs', {
          token: otherToken,
          body: { storage_type: 'rclone', name: 'no rclone', rclone_config: section },
        });
        expect(made.status).toBe(201);
        await createMount(other, otherToken, { path: '/none', storage_config_id: made.body.data!.id });
        const res = await other.call('GET', '/api/fs/list?path=%2Fnone', { token: otherToken });
        expect(res.status).toBe(503);
        expect((res.body as { kind?: string }).kind).toBe('unavailable');
        expect(res.body.message).toMatch(/rclone is not installed/);
        const test = await other.call<StorageConfigTestResult>('POST', `/api/s3-configs/${made.body.data!.id}/test`, {
          token: otherToken,
        });
        expect(test.body.data?.steps[0]?.message).toMatch(/rclone is not installed/);
      } finally {
        await other.close();
      }
    });
  },
);
