import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Permission, type SearchResult } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LISTING_REINDEX_MS } from '../src/services/fs/search/searchService.js';
import { driverOf } from '../src/vfs/drivers.js';
import { startS3rver, type S3rverHandle } from './support/fileShares.js';
import { SYSTEM_ADMIN, mountBoth, putFile } from './support/fsTree.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { createPathKey, mountedLocalRoot } from './support/mounts.js';

describe.each(dbTargets)('search on %s', (target) => {
  let s3: S3rverHandle;
  let server: TestServer;
  let token: string;
  let ids: { localId: string; s3Id: string };

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    token = await server.login();
    ids = await mountBoth(server, token, s3);
    for (const p of [
      '/local/docs/Report-2024.pdf',
      '/local/team/report.txt',
      '/s3/team/Quarterly REPORT.xlsx',
      '/s3/team/deep/er/report-notes.md',
      '/s3/team-b/report-b.txt',
      '/s3/other/misc.txt',
      '/s3/other/50%_off.txt',
    ])
      await putFile(server, p, 'x');
    await server.built.services.search.settled();
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const search = async (query: Record<string, string>, auth: { token?: string; apiKey?: string } = { token }) => {
    const res = await server.call<SearchResult>('GET', `/api/fs/search?${new URLSearchParams(query).toString()}`, auth);
    return res;
  };
  const paths = async (query: Record<string, string>, auth?: { token?: string; apiKey?: string }) => {
    const res = await search(query, auth);
    expect(res.status, res.body.message).toBe(200);
    return res.body.data?.items.map((hit) => hit.path).sort();
  };

  it('finds names case-insensitively in the three scopes, from what the app wrote', async () => {
    expect(await paths({ q: 'report' })).toEqual([
      '/local/docs/Report-2024.pdf',
      '/local/team/report.txt',
      '/s3/team-b/report-b.txt',
      '/s3/team/Quarterly REPORT.xlsx',
      '/s3/team/deep/er/report-notes.md',
    ]);
    expect(await paths({ q: 'REPORT', scope: 'mount', mount_id: ids.s3Id })).toEqual([
      '/s3/team-b/report-b.txt',
      '/s3/team/Quarterly REPORT.xlsx',
      '/s3/team/deep/er/report-notes.md',
    ]);
    expect(await paths({ q: 'report', scope: 'directory', path: '/s3/team' })).toEqual([
      '/s3/team/Quarterly REPORT.xlsx',
      '/s3/team/deep/er/report-notes.md',
    ]);
    expect(await paths({ q: 'report', scope: 'directory', path: '/' })).toHaveLength(5);
    // LIKE wildcards in q are taken literally.
    expect(await paths({ q: '%_' })).toEqual(['/s3/other/50%_off.txt']);
    // Folders a write created implicitly (S3 has no folder objects) are indexed too.
    expect(await paths({ q: 'er', scope: 'directory', path: '/s3/team/deep' })).toEqual(['/s3/team/deep/er']);
    const page = await search({ q: 'report', limit: '2', offset: '1' });
    expect(page.body.data).toMatchObject({ total: 5, limit: 2, offset: 1 });
    expect(page.body.data?.items).toHaveLength(2);
    expect(page.body.data?.items[0]).toMatchObject({ isDir: false, size: 1 });
  });

  it('confines results to a key’s base path (/s3/team never yields /s3/team-b)', async () => {
    const team = await createPathKey(server, token, Permission.MOUNT_VIEW, '/s3/team');
    expect(await paths({ q: 'report' }, { apiKey: team })).toEqual([
      '/s3/team/Quarterly REPORT.xlsx',
      '/s3/team/deep/er/report-notes.md',
    ]);
    expect(await paths({ q: 'report', scope: 'mount', mount_id: ids.s3Id }, { apiKey: team })).toHaveLength(2);
    expect(await paths({ q: 'notes', scope: 'directory', path: '/s3/team/deep' }, { apiKey: team })).toEqual([
      '/s3/team/deep/er/report-notes.md',
    ]);
    expectEnvelope((await search({ q: 'report', scope: 'directory', path: '/s3' }, { apiKey: team })).body, 403);
    expectEnvelope((await search({ q: 'report', scope: 'directory', path: '/s3/team-b' }, { apiKey: team })).body, 403);
    expectEnvelope((await search({ q: 'report', scope: 'mount', mount_id: ids.localId }, { apiKey: team })).body, 404);
    const noView = await createPathKey(server, token, Permission.MOUNT_UPLOAD);
    expectEnvelope((await search({ q: 'report' }, { apiKey: noView })).body, 403);
  });

  it('refuses bad queries with 400 naming the field', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ q: 'r' }, /at least 2 characters/],
      [{ q: '  r ' }, /at least 2 characters/],
      [{}, /q/],
      [{ q: 'report', scope: 'mount' }, /mount_id/],
      [{ q: 'report', scope: 'directory' }, /path/],
      [{ q: 'report', scope: 'planet' }, /scope/],
      [{ q: 'report', limit: '0' }, /limit/],
      [{ q: 'report', scope: 'directory', path: '/s3/../etc' }, /path/],
    ];
    for (const [query, message] of cases) {
      const res = await search(query);
      expectEnvelope(res.body, 400);
      expect(res.body.message).toMatch(message);
    }
  });

  it('follows renames and deletes made through the tree at once', async () => {
    const { vfs, search: service } = server.built.services;
    await vfs.rename(SYSTEM_ADMIN, '/local/team', '/local/crew');
    await vfs.remove(SYSTEM_ADMIN, ['/s3/team-b']);
    await service.settled();
    expect(await paths({ q: 'report' })).toEqual([
      '/local/crew/report.txt',
      '/local/docs/Report-2024.pdf',
      '/s3/team/Quarterly REPORT.xlsx',
      '/s3/team/deep/er/report-notes.md',
    ]);
  });

  it('a user’s listing feeds the index: files put behind the app’s back are found once their folder is listed, no crawl', async () => {
    const { search: service, vfs } = server.built.services;
    // No crawl may run during this test: what is found comes from the listings.
    const noCrawl = vi.spyOn(service, 'crawlDue').mockResolvedValue(undefined);
    const crawl = vi.spyOn(service, 'crawl');
    try {
      const root = mountedLocalRoot(server);
      mkdirSync(path.join(root, 'direct', 'sub'), { recursive: true });
      for (let i = 0; i < 30; i++) writeFileSync(path.join(root, 'direct', `listed-local-${i}.txt`), 'x');
      // Straight into the bucket through the storage driver: no VfsChange, the tree never saw these.
      const s3Folder = await vfs.resolve(SYSTEM_ADMIN, '/s3/direct', Permission.MOUNT_VIEW);
      for (let i = 0; i < 30; i++) {
        const body = new Blob([new TextEncoder().encode('y')]).stream();
        await driverOf(s3Folder).write(`${s3Folder.driverPath}/listed-s3-${i}.txt`, body);
      }
      expect((await search({ q: 'listed-' })).body.data?.items).toEqual([]);

      for (const folder of ['/local/direct', '/s3/direct']) {
        const listed = await server.call<{ total: number }>(
          'GET',
          `/api/fs/list?path=${encodeURIComponent(folder)}&refresh=true`,
          { token },
        );
        expect(listed.status, listed.body.message).toBe(200);
      }
      await service.settled();
      const found = await search({ q: 'listed-', limit: '200' });
      expect(found.body.data?.total).toBe(60);
      expect(await paths({ q: 'listed-local-7' })).toEqual(['/local/direct/listed-local-7.txt']);
      expect(await paths({ q: 'listed-s3-29' })).toEqual(['/s3/direct/listed-s3-29.txt']);
      // Folders in the listing are indexed too; a key still sees only its base path.
      expect(await paths({ q: 'sub', scope: 'directory', path: '/local/direct' })).toEqual(['/local/direct/sub']);
      const team = await createPathKey(server, token, Permission.MOUNT_VIEW, '/s3/team');
      expect(await paths({ q: 'listed-' }, { apiKey: team })).toEqual([]);
      // A file removed behind the app's back leaves the index when its folder is listed from the storage again.
      rmSync(path.join(root, 'direct', 'listed-local-0.txt'));
      server.clock.advance(LISTING_REINDEX_MS + 1000);
      await server.call('GET', `/api/fs/list?path=${encodeURIComponent('/local/direct')}&refresh=true`, { token });
      await service.settled();
      expect(await paths({ q: 'listed-local-0' })).toEqual([]);
      expect(crawl).not.toHaveBeenCalled();
    } finally {
      noCrawl.mockRestore();
      crawl.mockRestore();
    }
  });

  it('the background crawl picks up changes made behind the app’s back, and says when it ran', async () => {
    const { search: service, vfs } = server.built.services;
    const before = await search({ q: 'outside' });
    expect(before.body.data?.items).toEqual([]);
    const root = mountedLocalRoot(server);
    mkdirSync(path.join(root, 'dropped'), { recursive: true });
    writeFileSync(path.join(root, 'dropped', 'outside-file.txt'), 'x');
    rmSync(path.join(root, 'docs', 'Report-2024.pdf'));
    const mount = await vfs.mountById(ids.localId);
    const state = await service.crawl(mount!);
    expect(state.complete).toBe(true);
    expect(await paths({ q: 'outside' })).toEqual(['/local/dropped/outside-file.txt']);
    expect(await paths({ q: 'report-2024' })).toEqual([]);
    const scoped = await search({ q: 'outside', scope: 'mount', mount_id: ids.localId });
    expect(scoped.body.data?.indexed_at).toBe(state.finishedAt);
    // The S3 mount was never crawled: a global search cannot name a time for all of them.
    expect((await search({ q: 'outside' })).body.data?.indexed_at).toBeNull();
  });
});
