// Issue 35 point 15: the storage config Test probes CORS from the origin the admin uses; a config's used space
// is what its storage holds through both paths (file shares and mounts), the same figure as the WebDAV quota;
// deleting a config in use answers the counts the UI builds its message from.
import type { StorageConfigInUse, StorageConfigTestResult, StorageConfigView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Config, upload } from './support/fileShares.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount } from './support/mounts.js';
import { startS3rver, type S3Emulator } from './support/s3Emulator.js';
import { basicAuth } from './support/webdav.js';

const QUOTA_BODY =
  '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop>' +
  '<D:quota-available-bytes/><D:quota-used-bytes/></D:prop></D:propfind>';

describe.each(dbTargets)('storage config test and usage on %s', (target) => {
  let server: TestServer;
  let token: string;
  let open: S3Emulator;
  let closed: S3Emulator;

  beforeAll(async () => {
    [server, open, closed] = await Promise.all([
      startTestServer(target),
      startS3rver({ bucket: 'usage-open', cors: true }),
      startS3rver({ bucket: 'usage-closed' }),
    ]);
    token = await server.login();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await open?.stop();
    await closed?.stop();
  });

  const emulatorConfig = (s3: S3Emulator, extra: Record<string, unknown> = {}) =>
    createS3Config(server, token, { endpoint: s3.endpoint, bucket: s3.bucket, close: async () => {} }, extra);
  const runTest = (id: string, headers: Record<string, string> = {}) =>
    server.call<StorageConfigTestResult>('POST', `/api/s3-configs/${id}/test`, { token, headers });
  const view = async (id: string) => {
    const res = await server.call<StorageConfigView>('GET', `/api/s3-configs/${id}`, { token });
    expect(res.status).toBe(200);
    return res.body.data!;
  };

  it('probes CORS from the origin the admin uses, and says what is wrong', async () => {
    const good = await emulatorConfig(open);
    const fromPage = await runTest(good.id, { origin: 'https://clips.example.org' });
    expect(fromPage.status).toBe(200);
    expect(fromPage.body.data!.cors).toMatchObject({ success: true, origin: 'https://clips.example.org' });
    expect(fromPage.body.data!.cors!.message).toContain('https://clips.example.org');
    expect(fromPage.body.data!.cors!.message).not.toContain('localhost');

    // No Origin header (curl) and no PUBLIC_URL: the host the request came to.
    const fromCurl = await runTest(good.id);
    expect(fromCurl.body.data!.cors!.origin).toBe(new URL(server.url).origin);

    // A header that is no origin is not claimed.
    const junk = await runTest(good.id, { origin: 'null' });
    expect(junk.body.data!.cors!.origin).toBe(new URL(server.url).origin);

    const bad = await emulatorConfig(closed);
    const blocked = await runTest(bad.id, { origin: 'https://clips.example.org' });
    expect(blocked.body.data!.success).toBe(true); // the storage itself works
    expect(blocked.body.data!.cors).toMatchObject({
      success: false,
      origin: 'https://clips.example.org',
      problem: 'preflight',
    });
    expect(blocked.body.data!.cors!.message).toContain('https://clips.example.org');
  });

  it('counts what a mounted storage holds through shares and mounts, the same figure as the WebDAV quota', async () => {
    const capacity = 10 * 1024 * 1024;
    const config = await emulatorConfig(open, { name: 'usage both paths', total_capacity: capacity });
    const unmounted = await emulatorConfig(closed, { name: 'usage shares only', total_capacity: capacity });
    await createMount(server, token, { path: '/usage', storage_config_id: config.id });

    const share = await upload(server, 'x'.repeat(1000), { token, fields: { s3_config_id: config.id } });
    expect(share.status).toBe(201);
    expect(await view(config.id)).toMatchObject({ used_bytes: 1000, used_scope: 'storage' });

    // 5000 bytes written through the mount (WebDAV), into the same bucket.
    const put = await fetch(`${server.url}/dav/usage/copied.bin`, {
      method: 'PUT',
      headers: { authorization: basicAuth(ADMIN.username, ADMIN.password) },
      body: 'y'.repeat(5000),
    });
    expect(put.status).toBe(201);
    expect(await view(config.id)).toMatchObject({ used_bytes: 6000, used_scope: 'storage' });
    const list = await server.call<{ items: StorageConfigView[] }>('GET', '/api/s3-configs?limit=100', { token });
    expect(list.body.data!.items.find((c) => c.id === config.id)).toMatchObject({ used_bytes: 6000 });

    // A later walk of the storage finds the same bytes.
    server.clock.advance(61_000);
    expect((await view(config.id)).used_bytes).toBe(6000);

    // The WebDAV quota of the mount answers the same figure.
    const propfind = await fetch(`${server.url}/dav/usage/`, {
      method: 'PROPFIND',
      headers: {
        authorization: basicAuth(ADMIN.username, ADMIN.password),
        depth: '0',
        'content-type': 'application/xml',
      },
      body: QUOTA_BODY,
    });
    expect(propfind.status).toBe(207);
    const xml = await propfind.text();
    expect(/quota-used-bytes>(\d+)</.exec(xml)?.[1]).toBe('6000');
    expect(/quota-available-bytes>(\d+)</.exec(xml)?.[1]).toBe(String(capacity - 6000));

    // Not mounted: its file shares, and it says so.
    expect(await view(unmounted.id)).toMatchObject({ used_bytes: 0, used_scope: 'shares' });

    // Deleting it while in use: the counts (and mount paths) the UI builds its message from.
    const del = await server.call<StorageConfigInUse>('DELETE', `/api/s3-configs/${config.id}`, { token });
    expect(del.status).toBe(409);
    expect(del.body).toMatchObject({ kind: 'conflict', data: { files: 1, mounts: 1, mount_paths: ['/usage'] } });
  });
});
