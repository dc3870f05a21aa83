import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Permission, type PublicShareInfo, type PublicShareListing, type ShareView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download } from './support/backups.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { createMount, createPathKey, mountableLocalConfig, mountedLocalRoot } from './support/mounts.js';
import { unzipAll } from './support/zipReader.js';

describe.each(dbTargets)('folder shares on %s', (target) => {
  let server: TestServer;
  let token: string;
  let root: string;
  const q = encodeURIComponent;

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    await createMount(server, token, {
      path: '/local',
      storage_config_id: await mountableLocalConfig(server, token),
      cache_ttl: 0,
    });
    root = mountedLocalRoot(server);
    for (const d of ['photos/trip/day1', 'secret', 'team/docs']) mkdirSync(path.join(root, d), { recursive: true });
    writeFileSync(path.join(root, 'photos/readme.txt'), 'hello photos');
    writeFileSync(path.join(root, 'photos/page.html'), '<script>alert(1)</script>');
    writeFileSync(path.join(root, 'photos/trip/day1/a.txt'), 'A'.repeat(1000));
    writeFileSync(path.join(root, 'secret/s.txt'), 'SECRET-CONTENT');
    writeFileSync(path.join(root, 'team/docs/t.txt'), 'team');
    symlinkSync('../secret', path.join(root, 'photos/lnk'));
    symlinkSync('../secret/s.txt', path.join(root, 'photos/lnk.txt'));
    symlinkSync('trip', path.join(root, 'photos/inner'));
    symlinkSync('photos', path.join(root, 'photos-link'));
  });
  afterAll(async () => {
    await server?.close();
  });

  const create = (body: Record<string, unknown>, auth: { token?: string; apiKey?: string } = { token }) =>
    server.call<ShareView>('POST', '/api/shares', { ...auth, body });
  const share = async (body: Record<string, unknown> = {}) => {
    const res = await create({ path: '/local/photos', ...body });
    expect(res.status, res.body.message).toBe(201);
    return res.body.data as ShareView;
  };
  const get = (url: string, headers: Record<string, string> = {}) => fetch(server.url + url, { headers });

  it('creates a share of a folder and browses it without logging in', async () => {
    const s = await share({ remark: 'trip', max_downloads: 0 });
    expect(s).toMatchObject({ type: 'folder', name: 'photos', path: '/local/photos', has_password: false });
    expect(s.url).toBe(`/s/${s.slug}`);
    const info = await server.call<PublicShareInfo>('GET', `/api/shares/${s.slug}`);
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({ name: 'photos', requires_password: false, remark: 'trip' });
    const list = await server.call<PublicShareListing>('GET', `/api/shares/${s.slug}/list?path=/`);
    expect(list.status).toBe(200);
    const names = list.body.data?.items.map((i) => i.name).sort();
    // A link leading out of the folder is not listed; links inside it are.
    expect(names).toEqual(['inner', 'lnk.txt', 'page.html', 'readme.txt', 'trip'].filter((n) => n !== 'lnk.txt'));
    const sub = await server.call<PublicShareListing>('GET', `/api/shares/${s.slug}/list?path=/trip/day1/`);
    expect(sub.body.data?.path).toBe('/trip/day1');
    expect(sub.body.data?.items).toEqual([
      expect.objectContaining({ name: 'a.txt', path: '/trip/day1/a.txt', size: 1000 }),
    ]);
    const paged = await server.call<PublicShareListing>('GET', `/api/shares/${s.slug}/list?path=/&limit=2&offset=1`);
    expect(paged.body.data).toMatchObject({ total: 4, limit: 2, offset: 1 });
    expect(paged.body.data?.items).toHaveLength(2);
  });

  it('serves files with Range and the safe content rules, and zips a folder', async () => {
    const s = await share();
    const text = await get(`/api/shares/${s.slug}/file?path=/readme.txt`);
    expect(text.status).toBe(200);
    expect(await text.text()).toBe('hello photos');
    expect(text.headers.get('x-content-type-options')).toBe('nosniff');
    const ranged = await get(`/api/shares/${s.slug}/file?path=${q('/trip/day1/a.txt')}`, { range: 'bytes=10-19' });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe('bytes 10-19/1000');
    const html = await get(`/api/shares/${s.slug}/file?path=/page.html`);
    expect(html.headers.get('content-type')).toBe('application/octet-stream');
    expect(html.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(html.headers.get('content-security-policy')).toContain('sandbox');
    const zip = await get(`/api/shares/${s.slug}/zip?path=/`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-disposition')).toContain('photos.zip');
    const entries = await unzipAll(Buffer.from(await zip.arrayBuffer()));
    expect(entries.get('photos/trip/day1/a.txt')?.toString()).toBe('A'.repeat(1000));
    expect([...entries.keys()].some((n) => n.includes('s.txt'))).toBe(false);
    const subZip = await get(`/api/shares/${s.slug}/zip?path=/trip`);
    expect([...(await unzipAll(Buffer.from(await subZip.arrayBuffer()))).keys()]).toContain('trip/day1/a.txt');
  });

  it('never leaves the shared folder: .., encoded forms and symlinks', async () => {
    const s = await share();
    const cases: Array<[string, number[]]> = [
      ['/../secret/s.txt', [400]],
      ['/trip/../../secret/s.txt', [400]],
      ['/%2e%2e/secret/s.txt', [400]],
      ['/%252e%252e/secret/s.txt', [400]],
      ['/..%2fsecret%2fs.txt', [400]],
      ['\\..\\secret\\s.txt', [400]],
      ['/lnk/s.txt', [404]],
      ['/lnk.txt', [404]],
      ['/missing.txt', [404]],
    ];
    for (const [p, statuses] of cases) {
      for (const route of ['file', 'list', 'zip']) {
        const res = await get(`/api/shares/${s.slug}/${route}?path=${q(p)}`);
        const body = await res.text();
        expect(statuses, `${route} ${p}: ${res.status} ${body}`).toContain(res.status);
        expect(body).not.toContain('SECRET-CONTENT');
      }
    }
    // The wrong kind of entry for a route is a 4xx, never a 500: a file listed answers as in /fs/list (409).
    expect((await get(`/api/shares/${s.slug}/list?path=/readme.txt`)).status).toBe(409);
    for (const url of ['/file?path=/', '/file?path=/trip', '/zip?path=/readme.txt']) {
      const res = await server.call('GET', `/api/shares/${s.slug}${url}`);
      expect(res.status, `${url}: ${res.body.message}`).toBe(400);
    }
    expect((await get(`/api/shares/${s.slug}/list?path=/&limit=0`)).status).toBe(400);
    expect((await get(`/api/shares/${s.slug}/list?path=/&limit=abc`)).status).toBe(400);
    const lnkList = await get(`/api/shares/${s.slug}/list?path=/lnk`);
    expect(lnkList.status).toBe(404);
    // A link inside the folder works.
    const inner = await get(`/api/shares/${s.slug}/file?path=${q('/inner/day1/a.txt')}`);
    expect(inner.status).toBe(200);
  });

  it('refuses bad creations: a file, a virtual folder, a link, a key outside its base path or without the bits', async () => {
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ path: '/local/photos/readme.txt' }, 400],
      [{ path: '/' }, 400],
      [{ path: '/local/../secret' }, 400],
      [{ path: '/local/nothing' }, 404],
      [{ path: '/local/photos-link' }, 400],
      [{ path: '/local/photos', slug: 'bad slug!' }, 400],
      [{ path: '/local/photos', max_downloads: -1 }, 400],
      [{ path: '/local/photos', extra: 1 }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await create(body);
      expectEnvelope(res.body, status);
    }
    expect((await server.call('POST', '/api/shares', { body: { path: '/local/photos' } })).status).toBe(401);
    const bits = Permission.FILE_SHARE | Permission.MOUNT_VIEW;
    const team = await createPathKey(server, token, bits, '/local/team');
    expect((await create({ path: '/local/photos' }, { apiKey: team })).status).toBe(403);
    const ok = await create({ path: '/local/team/docs' }, { apiKey: team });
    expect(ok.status).toBe(201);
    const viewOnly = await createPathKey(server, token, Permission.MOUNT_VIEW, '/');
    expect((await create({ path: '/local/photos' }, { apiKey: viewOnly })).status).toBe(403);
    const shareOnly = await createPathKey(server, token, Permission.FILE_SHARE, '/');
    expect((await create({ path: '/local/photos' }, { apiKey: shareOnly })).status).toBe(403);
    // The key manages its own shares only; the admin sees all.
    const mine = await server.call<{ items: ShareView[]; total: number }>('GET', '/api/shares', { apiKey: team });
    expect(mine.body.data?.items.map((i) => i.id)).toEqual([ok.body.data?.id]);
    const all = await server.call<{ items: ShareView[]; total: number }>('GET', '/api/shares', { token });
    expect(all.body.data?.total).toBeGreaterThan(1);
    const other = all.body.data?.items.find((i) => i.id !== ok.body.data?.id) as ShareView;
    expect((await server.call('DELETE', `/api/shares/${other.id}`, { apiKey: team })).status).toBe(403);
    expect((await server.call('DELETE', `/api/shares/${ok.body.data?.id}`, { apiKey: team })).status).toBe(200);
    expect((await get(`/api/shares/${ok.body.data?.slug}`)).status).toBe(404);
  });

  it('custom slugs are unique', async () => {
    await share({ slug: 'my-photos' });
    const again = await create({ path: '/local/photos', slug: 'my-photos' });
    expect(again.status).toBe(409);
  });

  it('a password share shows nothing without it; header, query and token open it; the 11th wrong answers 429', async () => {
    const s = await share({ password: 'open sesame' });
    const info = await server.call<PublicShareInfo>('GET', `/api/shares/${s.slug}`);
    expect(info.body.data).toEqual({
      slug: s.slug,
      name: 'photos',
      type: 'folder',
      requires_password: true,
      has_password: true,
      expires_at: null,
      max_downloads: 0,
      downloads: 0,
    });
    const bare = await server.call('GET', `/api/shares/${s.slug}/list?path=/`);
    expect(bare.status).toBe(401);
    expect(bare.body.kind).toBe('password_required');
    const header = await server.call<PublicShareListing>('GET', `/api/shares/${s.slug}/list?path=/`, {
      headers: { 'X-Share-Password': 'open sesame' },
    });
    expect(header.status).toBe(200);
    const byQuery = await get(`/api/shares/${s.slug}/file?path=/readme.txt&password=${q('open sesame')}`);
    expect(await byQuery.text()).toBe('hello photos');
    const opened = await server.call<PublicShareInfo>('GET', `/api/shares/${s.slug}`, {
      headers: { 'X-Share-Password': 'open sesame' },
    });
    const accessToken = opened.body.data?.access_token as string;
    expect(accessToken).toBeTruthy();
    expect((await get(`/api/shares/${s.slug}/file?path=/readme.txt&token=${q(accessToken)}`)).status).toBe(200);
    expect((await get(`/api/shares/${s.slug}/file?path=/readme.txt&token=bogus.token`)).status).toBe(401);

    const wrong = () =>
      server.call('GET', `/api/shares/${s.slug}/list?path=/`, {
        headers: { 'X-Share-Password': 'nope', 'X-Forwarded-For': '203.0.113.9' },
      });
    for (let i = 0; i < 10; i++) expect((await wrong()).status).toBe(401);
    const eleventh = await wrong();
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.kind).toBe('rate_limited');
  });

  it('counts downloads exactly under parallel requests and answers 410 past the limit', async () => {
    const s = await share({ max_downloads: 5 });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        get(i % 2 ? `/api/shares/${s.slug}/file?path=/readme.txt` : `/api/shares/${s.slug}/zip?path=/trip`).then(
          async (res) => ({ status: res.status, body: await res.arrayBuffer() }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 410)).toHaveLength(7);
    const after = await server.call('GET', `/api/shares/${s.slug}`);
    expect(after.status).toBe(410);
    expect(after.body.kind).toBe('expired');
    expect(after.body.data).toEqual({ reason: 'download_limit' });
    const view = await server.call<ShareView>('GET', '/api/shares', { token });
    expect((view.body.data as unknown as { items: ShareView[] }).items.find((i) => i.id === s.id)?.downloads).toBe(5);
  });

  it('a Range request after the first byte and HEAD do not count', async () => {
    const s = await share({ max_downloads: 1 });
    const url = `/api/shares/${s.slug}/file?path=${q('/trip/day1/a.txt')}`;
    expect((await fetch(server.url + url, { method: 'HEAD' })).status).toBe(200);
    expect((await get(url, { range: 'bytes=500-' })).status).toBe(206);
    expect((await get(url)).status).toBe(200);
    expect((await get(url)).status).toBe(410);
  });

  it('an expired share answers 410 everywhere', async () => {
    const s = await share({ expires_in: 1 });
    expect((await get(`/api/shares/${s.slug}/list?path=/`)).status).toBe(200);
    server.clock.advance(3601_000);
    for (const route of ['', '/list?path=/', '/file?path=/readme.txt', '/zip?path=/']) {
      const res = await server.call('GET', `/api/shares/${s.slug}${route}`);
      expect(res.status, route).toBe(410);
      expect(res.body.kind).toBe('expired');
      expect(res.body.data).toEqual({ reason: 'expired' });
    }
  });

  it('a share of a key stops working once the key loses the folder', async () => {
    const bits = Permission.FILE_SHARE | Permission.MOUNT_VIEW;
    const keyRes = await server.call<{ id: string; key: string }>('POST', '/api/admin/api-keys', {
      token,
      body: { name: 'sharer', permissions: bits, basic_path: '/local/team' },
    });
    const key = keyRes.body.data as { id: string; key: string };
    const s = (await create({ path: '/local/team/docs' }, { apiKey: key.key })).body.data as ShareView;
    expect((await get(`/api/shares/${s.slug}/file?path=/t.txt`)).status).toBe(200);
    await server.call('DELETE', `/api/admin/api-keys/${key.id}`, { token });
    const res = await server.call('GET', `/api/shares/${s.slug}/list?path=/`);
    expect(res.status).toBe(410);
    expect(res.body.kind).toBe('gone');
  });

  it('backs up and restores its shares with the file management module', async () => {
    const s = await share({ password: 'pw', max_downloads: 9, remark: 'kept' });
    const { file } = await download(server, token, { backup_type: 'modules', selected_modules: ['file_management'] });
    const rows = file.tables.folder_shares?.rows as Array<Record<string, unknown>>;
    expect(rows.find((r) => r.id === s.id)).toMatchObject({ slug: s.slug, path: '/local/photos', max_downloads: 9 });
    await server.call('DELETE', `/api/shares/${s.id}`, { token });
    expect((await get(`/api/shares/${s.slug}`)).status).toBe(404);
    await server.built.services.backups.restore(JSON.parse(JSON.stringify(file)), 'merge');
    const info = await server.call<PublicShareInfo>('GET', `/api/shares/${s.slug}`, {
      headers: { 'X-Share-Password': 'pw' },
    });
    expect(info.body.data).toMatchObject({ name: 'photos', remark: 'kept', max_downloads: 9 });
    const bad = JSON.parse(JSON.stringify(file)) as typeof file;
    (bad.tables.folder_shares?.rows as Array<Record<string, unknown>>)[0]!.path = '/local/../etc';
    await expect(server.built.services.backups.restore(bad, 'merge')).rejects.toThrow(/path/);
  });

  it('unknown and malformed slugs are 404', async () => {
    expect((await get('/api/shares/nope-nope')).status).toBe(404);
    expect((await get(`/api/shares/${q('a b')}/list`)).status).toBe(404);
  });
});
