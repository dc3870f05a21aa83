// Races: counters and uniqueness under 200 parallel requests. Max views of pastes and file shares end
// at exactly N successes; two uploads racing for one slug leave exactly one winner; parallel form
// uploads never push a storage config past its capacity.
import type { FileView, StorageConfigView } from '@clipnest/contract';
import { describe, expect, it } from 'vitest';
import { filesUnder, localRoot, upload } from '../support/fileShares.js';
import { dbTargets, type TestServer } from '../support/harness.js';
import { withAdminServer } from '../support/adminServer.js';

const PARALLEL = 200;
const N = 7;

describe.each(dbTargets)('races on %s', (target) => {
  let server: TestServer;
  let token: string;
  withAdminServer(target, (started) => ({ server, token } = started));

  const count = (statuses: number[]) =>
    statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

  it(`a paste with max_views ${N}: ${PARALLEL} parallel views (API and raw) → exactly ${N} succeed`, async () => {
    const res = await server.call<{ slug: string }>('POST', '/api/paste', {
      token,
      body: { content: 'counted', max_views: N },
    });
    expect(res.status).toBe(201);
    const slug = res.body.data!.slug;
    const statuses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        fetch(`${server.url}/api/${i % 2 ? 'raw' : 'paste'}/${slug}`).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    expect(count(statuses)).toEqual({ 200: N, 410: PARALLEL - N });
  });

  it(`a file share with max_views ${N}: ${PARALLEL} parallel downloads → exactly ${N} get the bytes`, async () => {
    const up = await upload(server, 'file bytes', { token, filename: 'race.txt', fields: { max_views: String(N) } });
    expect(up.status).toBe(201);
    const slug = up.body.data!.slug;
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        fetch(`${server.url}/api/file-download/${slug}`).then(async (r) => ({
          status: r.status,
          text: await r.text(),
        })),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(N);
    expect(ok.every((r) => r.text === 'file bytes')).toBe(true);
    expect(results.filter((r) => r.status !== 200).every((r) => r.status === 410)).toBe(true);
  });

  it('20 pastes and 20 file uploads racing for one slug each: exactly one of each wins', async () => {
    const pastes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.call('POST', '/api/paste', { token, body: { content: `p${i}`, slug: 'one-slug-race' } }),
      ),
    );
    expect(count(pastes.map((r) => r.status))).toEqual({ 201: 1, 409: 19 });
    const files = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        upload(server, `f${i}`, { token, filename: `f${i}.txt`, fields: { slug: 'one-file-race' } }),
      ),
    );
    expect(count(files.map((r) => r.status))).toEqual({ 201: 1, 409: 19 });
    // The losers left no bytes behind: one file on disk for the winner.
    const winner = files.find((r) => r.status === 201)!.body.data as FileView;
    const served = await fetch(`${server.url}/api/file-download/${winner.slug}`);
    expect(await served.text()).toBe(winner.filename.replace('.txt', ''));
  });

  it('parallel form uploads never exceed the storage capacity', async () => {
    const list = await server.call<{ items: StorageConfigView[] }>('GET', '/api/s3-configs?limit=100', { token });
    const builtin = list.body.data!.items.find((c) => c.storage_type === 'local')!;
    const filesBefore = filesUnder(localRoot(server)).length;
    const usedBefore = builtin.used_bytes ?? 0;
    const capacity = usedBefore + 100; // room for 10 files of 10 bytes
    const set = await server.call('PUT', `/api/s3-configs/${builtin.id}`, {
      token,
      body: { total_capacity: capacity },
    });
    expect(set.status).toBe(200);
    try {
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => upload(server, '0123456789', { token, filename: `q${i}.bin` })),
      );
      const won = results.filter((r) => r.status === 201).length;
      expect(won).toBe(10);
      expect(results.filter((r) => r.status !== 201).every((r) => r.status === 413)).toBe(true);
      const after = await server.call<StorageConfigView>('GET', `/api/s3-configs/${builtin.id}`, { token });
      expect(after.body.data!.used_bytes).toBeLessThanOrEqual(capacity);
      // Refused uploads left nothing on disk.
      expect(filesUnder(localRoot(server)).length - filesBefore).toBe(won);
    } finally {
      await server.call('PUT', `/api/s3-configs/${builtin.id}`, { token, body: { total_capacity: null } });
    }
  });
});
