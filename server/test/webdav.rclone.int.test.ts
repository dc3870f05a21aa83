import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
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
  let work: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    const token = await server.login();
    const localId = await mountableLocalConfig(server, token);
    await createMount(server, token, { path: '/local', storage_config_id: localId, webdav_policy: 'native_proxy' });
    work = mkdtempSync(path.join(tmpdir(), 'rclone-'));
  });
  afterAll(async () => {
    await server?.close();
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
});

function openAndClose(file: string): string {
  closeSync(openSync(file, 'w'));
  return file;
}
