// Archives in the tree (issue 42, point 3): listed from the zip central directory / the tar headers without
// unpacking, single entries streamed out, zip-slip names listed and flagged but never resolved, bombs bounded.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ARCHIVE_LIMITS, Permission, type ArchiveListing } from '@clipnest/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from './support/apiKeys.js';
import { zipOf } from './support/handZip.js';
import { withAdminServer } from './support/adminServer.js';
import { diskSnapshot, fsRaw } from './support/fsApi.js';
import { dbTargets, type TestServer } from './support/harness.js';
import { tarOf } from './support/handTar.js';
import { createMount, mountableLocalConfig, mountedLocalRoot } from './support/mounts.js';

const readme = Buffer.from('# Read me\n'.repeat(200));

describe.each(dbTargets)('archives in the tree on %s', (target) => {
  let server: TestServer;
  let token: string;
  withAdminServer(target, (started) => ({ server, token } = started));

  beforeAll(async () => {
    await createMount(server, token, { path: '/arch', storage_config_id: await mountableLocalConfig(server, token) });
    const root = mountedLocalRoot(server);
    mkdirSync(root, { recursive: true });
    writeFileSync(
      path.join(root, 'bundle.zip'),
      zipOf([
        { name: 'docs/' },
        { name: 'docs/readme.txt', data: readme, deflate: true },
        { name: '中文/说明.txt', data: Buffer.from('你好') },
        { name: '../evil.txt', data: Buffer.from('slip') },
        { name: '/etc/passwd', data: Buffer.from('abs') },
        { name: 'page.html', data: Buffer.from('<script>alert(1)</script>') },
        { name: 'bomb.bin', data: Buffer.from('x'), deflate: true, declaredSize: ARCHIVE_LIMITS.maxEntryBytes + 1 },
      ]),
    );
    writeFileSync(
      path.join(root, 'photos.tar.gz'),
      gzipSync(
        await tarOf([
          { name: 'photos', directory: true },
          { name: 'photos/a.txt', data: 'aaa' },
          { name: '../up.txt', data: 'up' },
        ]),
      ),
    );
    writeFileSync(
      path.join(root, 'many.zip'),
      zipOf(Array.from({ length: ARCHIVE_LIMITS.maxListedEntries + 5 }, (_, i) => ({ name: `f${i}` }))),
    );
    writeFileSync(path.join(root, 'broken.zip'), 'this is not a zip at all');
    writeFileSync(path.join(root, 'notes.txt'), 'plain');
  });

  const list = (p: string, auth: { token?: string; apiKey?: string } = { token }) =>
    server.call<ArchiveListing>('GET', `/api/fs/archive?path=${encodeURIComponent(p)}`, auth);
  const entry = (p: string, name: string, extra = '') =>
    fsRaw(server, `/api/fs/archive/entry?path=${encodeURIComponent(p)}&entry=${encodeURIComponent(name)}${extra}`, {
      token,
    });

  it('lists a zip from its directory: names as stored, sizes, dates, slip names flagged, nothing unpacked', async () => {
    const before = diskSnapshot(server);
    const res = await list('/arch/bundle.zip');
    expect(res.status).toBe(200);
    const listing = res.body.data!;
    expect(listing).toMatchObject({ format: 'zip', total_entries: 7, truncated: false });
    const byName = new Map(listing.entries.map((e) => [e.name, e]));
    expect(byName.get('docs/')).toMatchObject({ directory: true, unsafe: false });
    expect(byName.get('docs/readme.txt')).toMatchObject({ size: readme.length, directory: false, unsafe: false });
    expect(byName.get('docs/readme.txt')!.compressed_size).toBeLessThan(readme.length);
    expect(byName.get('docs/readme.txt')!.modified).toMatch(/^2026-11-28T/);
    expect(byName.get('中文/说明.txt')).toMatchObject({ size: 6, unsafe: false });
    expect(byName.get('../evil.txt')).toMatchObject({ unsafe: true });
    expect(byName.get('/etc/passwd')).toMatchObject({ unsafe: true });
    expect(diskSnapshot(server)).toEqual(before);
  });

  it('streams one entry out of a zip, expanded; a slip name is only a name; script-capable types are attachments', async () => {
    const doc = await entry('/arch/bundle.zip', 'docs/readme.txt');
    expect(doc.status).toBe(200);
    expect(Buffer.from(doc.bytes)).toEqual(readme);
    expect(doc.headers.get('content-type')).toContain('text/plain');

    const slip = await entry('/arch/bundle.zip', '../evil.txt', '&download=1');
    expect(slip.status).toBe(200);
    expect(Buffer.from(slip.bytes).toString()).toBe('slip');
    expect(slip.headers.get('content-disposition')).toContain('attachment');
    expect(slip.headers.get('content-disposition')).toContain('evil.txt');

    const html = await entry('/arch/bundle.zip', 'page.html');
    expect(html.headers.get('content-disposition')).toContain('attachment');
    expect(html.headers.get('content-security-policy')).toContain('sandbox');
    expect(html.headers.get('content-type')).not.toContain('text/html');
  });

  it('refuses an entry whose expanded size is over the limit, before reading it', async () => {
    const bomb = await entry('/arch/bundle.zip', 'bomb.bin');
    expect(bomb.status).toBe(400);
    expect(Buffer.from(bomb.bytes).toString()).toContain('more than');
  });

  it('lists a .tar.gz and streams an entry from it', async () => {
    const res = await list('/arch/photos.tar.gz');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ format: 'tar.gz', total_entries: 3, truncated: false });
    expect(res.body.data!.entries.map((e) => [e.name, e.directory, e.unsafe])).toEqual([
      ['photos/', true, false],
      ['photos/a.txt', false, false],
      ['../up.txt', false, true],
    ]);
    const a = await entry('/arch/photos.tar.gz', 'photos/a.txt');
    expect(a.status).toBe(200);
    expect(Buffer.from(a.bytes).toString()).toBe('aaa');
  });

  it('stops a long listing at the limit and says how many there are', async () => {
    const res = await list('/arch/many.zip');
    expect(res.status).toBe(200);
    expect(res.body.data!.entries).toHaveLength(ARCHIVE_LIMITS.maxListedEntries);
    expect(res.body.data).toMatchObject({ truncated: true, total_entries: ARCHIVE_LIMITS.maxListedEntries + 5 });
  });

  it('answers clear errors for bad input and callers without the right', async () => {
    expect((await list('/arch/broken.zip')).status).toBe(400);
    expect((await list('/arch/notes.txt')).status).toBe(400);
    expect((await list('/arch')).status).toBe(400);
    expect((await list('/arch/missing.zip')).status).toBe(404);
    expect((await entry('/arch/bundle.zip', 'no/such.txt')).status).toBe(404);
    expect((await entry('/arch/bundle.zip', 'docs/')).status).toBe(400);
    expect((await server.call('GET', '/api/fs/archive?path=/arch/bundle.zip')).status).toBe(401);
    expect((await server.call('GET', '/api/fs/archive', { token })).status).toBe(400);
    const textKey = await createApiKey(server, token, { name: 'no-mounts', permissions: Permission.TEXT });
    expect((await list('/arch/bundle.zip', { apiKey: textKey.key })).status).toBe(403);
  });
});
