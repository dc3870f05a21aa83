// max_downloads of a folder share holds across instances: two Clipnest instances on one PostgreSQL database
// count downloads in the same conditional UPDATE. PostgreSQL only (SQLite is one instance by design).
import type { ShareView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Config, startS3rver, type S3rverHandle } from './support/fileShares.js';
import { putFile } from './support/fsTree.js';
import { startTestServer, type TestServer } from './support/harness.js';
import { createMount } from './support/mounts.js';

const pgUrl = process.env.TEST_DATABASE_URL;
const ENCRYPTION_KEY = 'folder-share-scale-out-key-0123456789';

describe.skipIf(!pgUrl)('folder share downloads across two instances on one PostgreSQL database', () => {
  let a: TestServer;
  let b: TestServer;
  let s3: S3rverHandle;
  let token: string;

  beforeAll(async () => {
    s3 = await startS3rver('folder-shares-scale');
    a = await startTestServer('postgres', { ENCRYPTION_KEY });
    b = await startTestServer('postgres', { ENCRYPTION_KEY }, { sharedSchema: a.schema });
    token = await a.login();
    const config = await createS3Config(a, token, s3);
    await createMount(a, token, { path: '/s3', storage_config_id: config.id, cache_ttl: 0 });
    await putFile(a, '/s3/album/one.txt', 'one');
    await putFile(a, '/s3/album/two.txt', 'two');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await s3?.close();
  });

  it('lets exactly max_downloads through when parallel downloads hit both instances', async () => {
    const created = await a.call<ShareView>('POST', '/api/shares', {
      token,
      body: { path: '/s3/album', max_downloads: 6 },
    });
    expect(created.status).toBe(201);
    const slug = created.body.data?.slug as string;
    // The share made on A opens on B.
    expect((await b.call('GET', `/api/shares/${slug}`)).status).toBe(200);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const server = i % 2 ? a : b;
        const url = i % 3 ? `/api/shares/${slug}/file?path=/one.txt` : `/api/shares/${slug}/zip?path=/`;
        return fetch(server.url + url).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        });
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 410)).toHaveLength(14);
    const list = await a.call<{ items: ShareView[] }>('GET', '/api/shares', { token });
    expect(list.body.data?.items.find((s) => s.slug === slug)?.downloads).toBe(6);
  });
});
