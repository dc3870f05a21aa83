import { execFile } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  truncateSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Config, startS3rver, type S3rverHandle } from './support/fileShares.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { basicAuth } from './support/webdav.js';
import { createMount, mountableLocalConfig } from './support/mounts.js';

function rclone(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      '/usr/bin/rclone',
      ['--config', '/dev/null', ...args],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** rclone syncs a tree (unicode and spaces, nested folders, a 200 MB file) up to /dav and back, with no differences. */
describe.each(dbTargets.slice(0, 1))('rclone over WebDAV on %s', (target) => {
  let server: TestServer;
  let s3: S3rverHandle;
  let work: string;

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    const token = await server.login();
    // The 200 MB file is above the default max upload size (100 MB), which WebDAV PUT honours too.
    const raised = await server.call('PUT', '/api/admin/settings/group/1', {
      token,
      body: { max_upload_size: 1, max_upload_size_unit: 'GB' },
    });
    expect(raised.status).toBe(200);
    const localId = await mountableLocalConfig(server, token);
    await createMount(server, token, { path: '/local', storage_config_id: localId, webdav_policy: 'native_proxy' });
    // Default mount settings (webdav_policy 302_redirect).
    await createMount(server, token, { path: '/s3', storage_config_id: (await createS3Config(server, token, s3)).id });
    work = mkdtempSync(path.join(tmpdir(), 'rclone-'));
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('syncs up and down with rclone check clean', async () => {
    const src = path.join(work, 'src');
    mkdirSync(path.join(src, 'ünïcødé folder', 'nested deeper', '深い'), { recursive: true });
    writeFileSync(path.join(src, 'plain.txt'), 'plain\n');
    writeFileSync(path.join(src, 'ünïcødé folder', 'file with spaces & signs #1.txt'), 'spaces\n');
    writeFileSync(path.join(src, 'ünïcødé folder', 'nested deeper', '深い', '文件 ✓.md'), '# hi\n');
    // 200 MB: sparse with a few written blocks, so nothing large is held in memory.
    const big = path.join(src, 'ünïcødé folder', 'big file.bin');
    truncateSync(openAndClose(big), 200 * 1024 * 1024);
    const fd = openSync(big, 'r+');
    for (const offset of [0, 77 * 1024 * 1024, 200 * 1024 * 1024 - 4096])
      writeSync(fd, Buffer.alloc(4096, offset % 251), 0, 4096, offset);
    closeSync(fd);

    const obscured = (await rclone(['obscure', ADMIN.password])).output.trim();
    const remote = [
      `--webdav-url=${server.url}/dav/local`,
      `--webdav-user=${ADMIN.username}`,
      `--webdav-pass=${obscured}`,
      '--webdav-vendor=other',
    ];
    const up = await rclone(['sync', src, ':webdav:tree', ...remote]);
    expect(up.output).not.toMatch(/ERROR/);
    expect(up.code).toBe(0);
    const down = path.join(work, 'down');
    const back = await rclone(['sync', ':webdav:tree', down, ...remote]);
    expect(back.code).toBe(0);
    const check = await rclone(['check', src, down]);
    expect(check.output).toContain('0 differences found');
    expect(check.code).toBe(0);
    const remoteCheck = await rclone(['check', src, ':webdav:tree', ...remote]);
    expect(remoteCheck.code).toBe(0);
  }, 600_000);

  it('syncs up and down on an S3 mount with default settings, following the redirect of each GET', async () => {
    const src = path.join(work, 's3-src');
    mkdirSync(path.join(src, 'ünïcødé folder', '深い'), { recursive: true });
    writeFileSync(path.join(src, 'plain.txt'), 'plain\n');
    writeFileSync(path.join(src, 'ünïcødé folder', 'file with spaces & signs #1.txt'), 'spaces\n');
    writeFileSync(path.join(src, 'ünïcødé folder', '深い', '文件 ✓.md'), '# hi\n');
    writeFileSync(path.join(src, 'ünïcødé folder', 'data.bin'), Buffer.alloc(3 * 1024 * 1024, 7));
    const remote = await remoteOf(`${server.url}/dav/s3`, 'other');
    const up = await rclone(['sync', src, ':webdav:tree', ...remote]);
    expect(up.output).not.toMatch(/ERROR/);
    expect(up.code).toBe(0);
    const down = path.join(work, 's3-down');
    // --dump headers: the GETs are answered with 302 and rclone fetches the presigned URL (s3rver).
    const back = await rclone(['sync', ':webdav:tree', down, ...remote, '--dump', 'headers']);
    expect(back.code).toBe(0);
    expect(back.output).toMatch(/HTTP\/1\.1 302 Found/);
    expect(back.output).toContain(`Host: ${new URL(s3.endpoint).host}`);
    const check = await rclone(['check', src, down]);
    expect(check.output).toContain('0 differences found');
    expect(check.code).toBe(0);
  }, 300_000);

  // docs/webdav.md recommends --webdav-vendor=nextcloud: rclone then sends X-OC-Mtime, so modification
  // times survive and sync sees a same-size edit. With `other` rclone cannot keep times and compares sizes
  // only: the edit is missed and `rclone check` still finds 0 differences.
  it.each(['local', 's3'])(
    'keeps modification times with --webdav-vendor=nextcloud on the %s mount; with other a same-size edit is missed',
    async (mount) => {
      const results: Record<string, { modTime: string; after: string; check: string }> = {};
      for (const vendor of ['nextcloud', 'other'] as const) {
        const src = path.join(work, `mtime-${mount}-${vendor}`);
        mkdirSync(src, { recursive: true });
        const file = path.join(src, 'same.txt');
        writeFileSync(file, 'version 1\n');
        utimesSync(file, new Date('2020-01-02T03:04:05Z'), new Date('2020-01-02T03:04:05Z'));
        const remote = await remoteOf(`${server.url}/dav/${mount}`, vendor);
        const target = `:webdav:mtime-${vendor}`;
        expect((await rclone(['sync', src, target, ...remote])).code).toBe(0);
        const listed = await rclone(['lsjson', target, ...remote]);
        const modTime = (JSON.parse(listed.output) as Array<{ Name: string; ModTime: string }>)[0]!.ModTime;

        // The same size, a later time.
        writeFileSync(file, 'version 2\n');
        utimesSync(file, new Date('2021-05-06T07:08:09Z'), new Date('2021-05-06T07:08:09Z'));
        expect((await rclone(['sync', src, target, ...remote])).code).toBe(0);
        const res = await fetch(`${server.url}/dav/${mount}/mtime-${vendor}/same.txt`, {
          headers: { authorization: basicAuth(ADMIN.username, ADMIN.password) },
        });
        const check = await rclone(['check', src, target, ...remote]);
        const differences = /(\d+) differences found/.exec(check.output)?.[1] ?? check.output;
        results[vendor] = { modTime, after: await res.text(), check: differences };
      }
      expect(results.nextcloud).toEqual({ modTime: '2020-01-02T03:04:05Z', after: 'version 2\n', check: '0' });
      // With `other`: the upload time instead of the file's, the edit never sent, and check sees nothing.
      expect(results.other!.modTime.startsWith('2020')).toBe(false);
      expect(results.other).toMatchObject({ after: 'version 1\n', check: '0' });
    },
    300_000,
  );
});

/** The options naming the WebDAV remote at `url` (the admin's credentials). */
async function remoteOf(url: string, vendor: 'other' | 'nextcloud'): Promise<string[]> {
  const obscured = (await rclone(['obscure', ADMIN.password])).output.trim();
  return [
    `--webdav-url=${url}`,
    `--webdav-user=${ADMIN.username}`,
    `--webdav-pass=${obscured}`,
    `--webdav-vendor=${vendor}`,
  ];
}

function openAndClose(file: string): string {
  closeSync(openSync(file, 'w'));
  return file;
}
