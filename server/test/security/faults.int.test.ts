// Faults: the S3 emulator stops (clear 502/503 in the envelope, no crash, the server recovers once a backend is
// reachable); the disk fills up (a 2 MiB tmpfs under a mount: 507, nothing half-written, room freed works
// again). SIGKILL mid-upload lives in server/test/tempSweep.int.test.ts (child process, sweep on restart).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StorageConfigView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Config, upload } from '../support/fileShares.js';
import { fsUpload } from '../support/fsApi.js';
import { dbTargets, startTestServer, type TestServer } from '../support/harness.js';
import { createMount } from '../support/mounts.js';
import { startS3rver, type S3Emulator } from '../support/s3Emulator.js';

/** A 2 MiB tmpfs, when this process may mount one (root in a container, CI); else why not. */
function smallDisk(): { dir: string; release(): void } | string {
  const dir = mkdtempSync(path.join(tmpdir(), 'clipnest-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return 'cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): the disk-full case is skipped';
  }
  return {
    dir,
    release() {
      execFileSync('umount', [dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.each(dbTargets)('faults on %s', (target) => {
  let server: TestServer;
  let token: string;
  let s3: S3Emulator;
  const disk = smallDisk();

  beforeAll(async () => {
    s3 = await startS3rver({ bucket: 'fault-bucket' });
    server = await startTestServer(target, typeof disk === 'string' ? {} : { LOCAL_STORAGE_ROOTS: `${disk.dir}` });
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
    if (typeof disk !== 'string') disk.release();
  });

  it('the S3 backend stops: clear 502/503 answers, no crash; it comes back: everything works again', async () => {
    const config: StorageConfigView = await createS3Config(server, token, {
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      close: async () => {},
    });
    await createMount(server, token, { path: '/cloud', storage_config_id: config.id, cache_ttl: 0 });
    const share = await upload(server, 'on s3', { token, filename: 'a.txt', fields: { s3_config_id: config.id } });
    expect(share.status).toBe(201);
    await s3.stop();

    const answers = [
      await server.call('GET', '/api/fs/list?path=%2Fcloud', { token }),
      await server.call('GET', '/api/fs/get?path=%2Fcloud%2Fa.txt', { token }),
      await server.call('POST', '/api/fs/mkdir', { token, body: { path: '/cloud/dir' } }),
      await fsUpload(server, { token }, 'x', { before: { path: '/cloud/b.txt' } }),
      await upload(server, 'x', { token, filename: 'b.txt', fields: { s3_config_id: config.id } }),
    ];
    for (const [i, res] of answers.entries()) {
      expect([502, 503, 504], `#${i}: ${res.status} ${res.body.message}`).toContain(res.status);
      expect(res.body.success).toBe(false);
      expect(res.body.message).not.toMatch(/at \w+ \(|ECONNREFUSED 127/); // no stack, no raw socket error
    }
    const download = await fetch(`${server.url}/api/file-download/${share.body.data!.slug}`);
    expect([502, 503, 504]).toContain(download.status);
    await download.arrayBuffer();
    const probe = await server.call<{ success: boolean }>('POST', `/api/s3-configs/${config.id}/test`, { token });
    expect(probe.status).toBe(200);
    expect(probe.body.data?.success).toBe(false);
    // The server itself is fine.
    expect((await server.call('GET', '/api/health')).status).toBe(200);
    expect((await server.call('GET', '/api/pastes', { token })).status).toBe(200);

    // A backend is reachable again (a fresh emulator, the config pointed at it): no restart of ours needed.
    s3 = await startS3rver({ bucket: 'fault-bucket' });
    const moved = await server.call('PUT', `/api/s3-configs/${config.id}`, { token, body: { endpoint: s3.endpoint } });
    expect(moved.status).toBe(200);
    expect((await server.call('GET', '/api/fs/list?path=%2Fcloud', { token })).status).toBe(200);
    expect((await fsUpload(server, { token }, 'back', { before: { path: '/cloud/back.txt' } })).status).toBe(201);
  });

  it.skipIf(typeof disk === 'string')(
    'the disk fills up: 507, nothing half-written, and it works again once there is room',
    async () => {
      if (typeof disk === 'string') return;
      const root = path.join(disk.dir, 'store');
      mkdirSync(root);
      const config = await server.call<StorageConfigView>('POST', '/api/s3-configs', {
        token,
        body: { name: 'tiny disk', storage_type: 'local', root_path: root },
      });
      expect(config.status, config.body.message).toBe(201);
      await createMount(server, token, { path: '/tiny', storage_config_id: config.body.data!.id, cache_ttl: 0 });
      const big = new Uint8Array(3 * 1024 * 1024).fill(7);
      const form = await fsUpload(server, { token }, big, { before: { path: '/tiny/big.bin' } });
      expect(form.status, form.body.message).toBe(507);
      expect(form.body.message).toMatch(/insufficient storage/);
      const dav = await fetch(`${server.url}/dav/tiny/big-dav.bin`, {
        method: 'PUT',
        headers: { authorization: `Basic ${Buffer.from('admin:correct-horse-battery').toString('base64')}` },
        body: big,
      });
      expect(dav.status).toBe(507);
      // Nothing half-written: no file, no temp file.
      expect(readdirSync(root)).toEqual([]);
      const small = await fsUpload(server, { token }, 'fits', { before: { path: '/tiny/small.txt' } });
      expect(small.status).toBe(201);
      expect(readdirSync(root)).toEqual(['small.txt']);
    },
  );
});
