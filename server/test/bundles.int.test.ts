// Bundles: POST /api/upload with several `file` parts and bundle=true → one share (/s/{slug}) listing them
// all, served by the folder share routes (/list, /file, /zip) with the share's password, expiry and limits.
import type { FileView, PublicShareInfo, PublicShareListing, ShareView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { unzipAll } from './support/zipReader.js';

describe.each(dbTargets)('bundles on %s', (target) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A form in the order given: [name, value] for fields, [name, Blob, filename] for files. */
  const upload = async (parts: ([string, string] | [string, Blob, string])[]) => {
    const form = new FormData();
    for (const part of parts) {
      if (part.length === 3) form.append(part[0], part[1], part[2]);
      else form.append(part[0], part[1]);
    }
    const res = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as { data?: unknown; message: string; kind?: string } };
  };
  const blob = (text: string) => new Blob([text], { type: 'text/plain' });
  const get = (url: string, headers: Record<string, string> = {}) => fetch(server.url + url, { headers });
  const fileCount = async () => {
    const res = await server.call<{ total: number }>('GET', '/api/files?limit=1', { token });
    return res.body.data!.total;
  };

  it('bundles several files under one link, with bundle=true before the files', async () => {
    const res = await upload([
      ['bundle', 'true'],
      ['remark', 'holiday'],
      ['file', blob('alpha'), 'a.txt'],
      ['file', blob('beta-beta'), 'b.txt'],
      ['file', blob('gamma'), 'a.txt'],
    ]);
    expect(res.status, res.body.message).toBe(201);
    const share = res.body.data as ShareView;
    expect(share).toMatchObject({ type: 'bundle', remark: 'holiday', has_password: false, url: `/s/${share.slug}` });
    const info = await server.call<PublicShareInfo>('GET', `/api/shares/${share.slug}`);
    expect(info.body.data).toMatchObject({ type: 'bundle', requires_password: false, remark: 'holiday' });
    const list = await server.call<PublicShareListing>('GET', `/api/shares/${share.slug}/list`);
    expect(list.status).toBe(200);
    expect(list.body.data?.items.map((i) => [i.name, i.path, i.size])).toEqual([
      ['a.txt', '/a.txt', 5],
      ['b.txt', '/b.txt', 9],
      ['a (1).txt', '/a (1).txt', 5],
    ]);
    const file = await get(`/api/shares/${share.slug}/file?path=${encodeURIComponent('/a (1).txt')}`);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('gamma');
    const ranged = await get(`/api/shares/${share.slug}/file?path=/b.txt`, { range: 'bytes=5-8' });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe('beta');
    const zip = await get(`/api/shares/${share.slug}/zip`);
    expect(zip.status).toBe(200);
    const entries = await unzipAll(Buffer.from(await zip.arrayBuffer()));
    expect([...entries.keys()].sort()).toEqual(['a (1).txt', 'a.txt', 'b.txt']);
    expect(entries.get('b.txt')?.toString()).toBe('beta-beta');
  });

  it('accepts bundle=true after the files, like curl -F file=@a -F file=@b -F bundle=true', async () => {
    const res = await upload([
      ['file', blob('one'), 'one.txt'],
      ['file', blob('two'), 'two.txt'],
      ['bundle', 'true'],
      ['password', 's3cret'],
      ['max_downloads', '1'],
    ]);
    expect(res.status, res.body.message).toBe(201);
    const share = res.body.data as ShareView;
    expect(share).toMatchObject({ type: 'bundle', has_password: true, max_downloads: 1 });
    const locked = await server.call<PublicShareInfo>('GET', `/api/shares/${share.slug}`);
    expect(locked.body.data).toMatchObject({ requires_password: true });
    expect(locked.body.data?.remark).toBeUndefined();
    expect((await get(`/api/shares/${share.slug}/list`)).status).toBe(401);
    expect((await get(`/api/shares/${share.slug}/list`, { 'x-share-password': 'nope' })).status).toBe(401);
    const list = await get(`/api/shares/${share.slug}/list`, { 'x-share-password': 's3cret' });
    expect(list.status).toBe(200);
    const one = await get(`/api/shares/${share.slug}/file?path=/one.txt`, { 'x-share-password': 's3cret' });
    expect(await one.text()).toBe('one');
    // max_downloads 1: the next download is past the limit.
    const again = await get(`/api/shares/${share.slug}/file?path=/two.txt`, { 'x-share-password': 's3cret' });
    expect(again.status).toBe(410);
  });

  it('keeps a single upload as it was, and refuses several files without bundle=true (nothing stays)', async () => {
    const single = await upload([['file', blob('solo'), 'solo.txt']]);
    expect(single.status).toBe(201);
    expect(single.body.data as FileView).toMatchObject({ filename: 'solo.txt', size: 4 });
    const before = await fileCount();
    const several = await upload([
      ['file', blob('x'), 'x.txt'],
      ['file', blob('y'), 'y.txt'],
    ]);
    expect(several.status).toBe(400);
    expect(several.body.message).toMatch(/bundle=true/);
    expect(await fileCount()).toBe(before);
  });

  it('answers 404 for names outside the bundle and 400 for walk-outs', async () => {
    const res = await upload([
      ['bundle', 'true'],
      ['file', blob('p'), 'p.txt'],
      ['file', blob('q'), 'q.txt'],
    ]);
    const share = res.body.data as ShareView;
    expect((await get(`/api/shares/${share.slug}/file?path=/nope.txt`)).status).toBe(404);
    expect((await get(`/api/shares/${share.slug}/file?path=${encodeURIComponent('/../p.txt')}`)).status).toBe(400);
    expect((await get(`/api/shares/${share.slug}/list?path=/sub/`)).status).toBe(404);
    expect((await get(`/api/shares/${share.slug}/file?path=/`)).status).toBe(400);
  });

  it('lists bundles with the owner shares and deletes them (the link then answers 404)', async () => {
    const res = await upload([
      ['bundle', 'true'],
      ['slug', 'my-bundle'],
      ['file', blob('1'), '1.txt'],
      ['file', blob('2'), '2.txt'],
    ]);
    expect(res.status, res.body.message).toBe(201);
    const share = res.body.data as ShareView;
    expect(share.slug).toBe('my-bundle');
    const owned = await server.call<{ items: ShareView[] }>('GET', '/api/shares', { token });
    expect(owned.body.data?.items.some((s) => s.id === share.id && s.type === 'bundle')).toBe(true);
    const taken = await upload([
      ['bundle', 'true'],
      ['slug', 'my-bundle'],
      ['file', blob('3'), '3.txt'],
    ]);
    expect(taken.status).toBe(409);
    expect((await server.call('DELETE', `/api/shares/${share.id}`, { token })).status).toBe(200);
    expect((await get(`/api/shares/my-bundle`)).status).toBe(404);
  });
});
