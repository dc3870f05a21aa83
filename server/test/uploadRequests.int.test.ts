// Upload requests: a public link others upload into, with limits reserved atomically, names that never leave
// the target folder nor overwrite, the one password limiter, revocation and expiry.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  Permission,
  type DashboardStats,
  type FileView,
  type ListPage,
  type PublicUploadRequestInfo,
  type UploadRequestReceipt,
  type UploadRequestView,
} from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount, createPathKey, mountableLocalConfig, mountedLocalRoot } from './support/mounts.js';

describe.each(dbTargets)('upload requests on %s', (target) => {
  let server: TestServer;
  let token: string;
  let root: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    await createMount(server, token, {
      path: '/local',
      storage_config_id: await mountableLocalConfig(server, token),
      cache_ttl: 0,
    });
    root = mountedLocalRoot(server);
    for (const d of ['inbox', 'team/in', 'other']) mkdirSync(path.join(root, d), { recursive: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  const create = async (body: Record<string, unknown>, auth: { token?: string; apiKey?: string } = { token }) =>
    server.call<UploadRequestView>('POST', '/api/upload-requests', { ...auth, body });
  const request = async (body: Record<string, unknown>) => {
    const res = await create(body);
    expect(res.status, res.body.message).toBe(201);
    return res.body.data!;
  };
  const send = async (slug: string, files: [string, string][], headers: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [name, text] of files) form.append('file', new Blob([text]), name);
    const res = await fetch(`${server.url}/api/upload-requests/${slug}/upload`, {
      method: 'POST',
      headers,
      body: form,
    });
    const body = (await res.json()) as {
      data?: UploadRequestReceipt & { reason?: string };
      kind?: string;
      message: string;
    };
    return { status: res.status, body };
  };
  const folder = (name: string) => mkdirSync(path.join(root, name), { recursive: true });
  const listing = (name: string) => readdirSync(path.join(root, name)).sort();

  it('receives files into a folder of the tree, never overwriting, and counts them', async () => {
    folder('inbox/a');
    writeFileSync(path.join(root, 'inbox/a/report.txt'), 'old');
    const r = await request({ target_path: '/local/inbox/a', note: 'Send the reports', max_files: 10 });
    expect(r).toMatchObject({ url: `/r/${r.slug}`, state: 'open', files_received: 0, has_password: false });
    const info = await server.call<PublicUploadRequestInfo>('GET', `/api/upload-requests/${r.slug}`);
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({ note: 'Send the reports', files_remaining: 10, requires_password: false });
    const up = await send(r.slug, [
      ['report.txt', 'new one'],
      ['report.txt', 'second'],
      ['b.bin', 'bb'],
    ]);
    expect(up.status, up.body.message).toBe(201);
    expect(up.body.data?.files.map((f) => f.name)).toEqual(['report (1).txt', 'report (2).txt', 'b.bin']);
    expect(readFileSync(path.join(root, 'inbox/a/report.txt'), 'utf8')).toBe('old');
    expect(readFileSync(path.join(root, 'inbox/a/report (1).txt'), 'utf8')).toBe('new one');
    const owned = await server.call<ListPage<UploadRequestView>>('GET', '/api/upload-requests', { token });
    expect(owned.body.data?.items.find((i) => i.id === r.id)).toMatchObject({
      files_received: 3,
      bytes_received: 7 + 6 + 2,
    });
    const after = await server.call<PublicUploadRequestInfo>('GET', `/api/upload-requests/${r.slug}`);
    expect(after.body.data?.files_remaining).toBe(7);
  });

  it('stores files as file shares of the creator when there is no target folder', async () => {
    const r = await request({ note: 'anything' });
    const up = await send(r.slug, [['photo.jpg', 'JPEGDATA']]);
    expect(up.status, up.body.message).toBe(201);
    const files = await server.call<ListPage<FileView>>('GET', '/api/files?limit=50', { token });
    expect(files.body.data?.items.some((f) => f.filename === 'photo.jpg' && f.size === 8)).toBe(true);
  });

  it('keeps names inside the target folder', async () => {
    folder('inbox/walk');
    const r = await request({ target_path: '/local/inbox/walk' });
    for (const name of ['../escape.txt', '..\\..\\escape2.txt', '/etc/escape3.txt', 'sub/../../escape4.txt']) {
      const up = await send(r.slug, [[name, 'x']]);
      expect(up.status, `${name}: ${up.body.message}`).toBe(201);
    }
    for (const bad of ['..', '.']) {
      const up = await send(r.slug, [[bad, 'x']]);
      expect(up.status, bad).toBe(400);
    }
    expect(existsSync(path.join(root, 'inbox/escape.txt'))).toBe(false);
    expect(existsSync(path.join(root, 'escape.txt'))).toBe(false);
    expect(listing('inbox/walk')).toEqual(['escape.txt', 'escape2.txt', 'escape3.txt', 'escape4.txt']);
  });

  it('refuses files over max_file_bytes and max_bytes with 413 quota_exceeded, storing nothing', async () => {
    folder('inbox/limits');
    const r = await request({ target_path: '/local/inbox/limits', max_file_bytes: 10, max_bytes: 25 });
    const big = await send(r.slug, [
      ['ok.txt', '12345'],
      ['big.txt', 'x'.repeat(11)],
    ]);
    expect(big.status).toBe(413);
    expect(big.body.kind).toBe('quota_exceeded');
    expect(listing('inbox/limits')).toEqual([]);
    const fits = await send(r.slug, [
      ['one.txt', 'x'.repeat(10)],
      ['two.txt', 'x'.repeat(10)],
    ]);
    expect(fits.status).toBe(201);
    const over = await send(r.slug, [['three.txt', 'x'.repeat(6)]]);
    expect(over.status).toBe(413);
    expect(over.body.kind).toBe('quota_exceeded');
    expect(listing('inbox/limits')).toEqual(['one.txt', 'two.txt']);
    const last = await send(r.slug, [['three.txt', 'x'.repeat(5)]]);
    expect(last.status).toBe(201);
    const info = await server.call<PublicUploadRequestInfo>('GET', `/api/upload-requests/${r.slug}`);
    expect(info.body.data?.bytes_remaining).toBe(0);
  });

  it('lets exactly max_files through when parallel uploads race at the limit', async () => {
    folder('inbox/race');
    const r = await request({ target_path: '/local/inbox/race', max_files: 3 });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => send(r.slug, [[`f${i}.txt`, `file ${i}`]])));
    const statuses = results.map((x) => x.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 413)).toHaveLength(5);
    expect(listing('inbox/race')).toHaveLength(3);
    const owned = await server.call<ListPage<UploadRequestView>>('GET', '/api/upload-requests', { token });
    expect(owned.body.data?.items.find((i) => i.id === r.id)).toMatchObject({ files_received: 3, state: 'full' });
  });

  it('asks for the password, counts wrong ones in the one limiter (11th → 429)', async () => {
    folder('inbox/pw');
    const r = await request({ target_path: '/local/inbox/pw', password: 'open sesame', note: 'secret note' });
    const locked = await server.call<PublicUploadRequestInfo>('GET', `/api/upload-requests/${r.slug}`);
    expect(locked.body.data).toMatchObject({ requires_password: true });
    expect(locked.body.data?.note).toBeUndefined();
    const none = await send(r.slug, [['a.txt', 'a']]);
    expect(none.status).toBe(401);
    expect(none.body.kind).toBe('password_required');
    const right = await send(r.slug, [['a.txt', 'a']], { 'X-Share-Password': 'open sesame' });
    expect(right.status).toBe(201);
    for (let i = 0; i < 10; i++) {
      const wrong = await send(r.slug, [['w.txt', 'w']], { 'X-Share-Password': `wrong ${i}` });
      expect(wrong.status).toBe(401);
      expect(wrong.body.kind).toBe('password_wrong');
    }
    const blocked = await send(r.slug, [['w.txt', 'w']], { 'X-Share-Password': 'wrong again' });
    expect(blocked.status).toBe(429);
    expect(listing('inbox/pw')).toEqual(['a.txt']);
  });

  it('answers 410 once revoked or expired', async () => {
    folder('inbox/gone');
    const r = await request({ target_path: '/local/inbox/gone' });
    expect((await server.call('DELETE', `/api/upload-requests/${r.id}`, { token })).status).toBe(200);
    const revoked = await send(r.slug, [['a.txt', 'a']]);
    expect(revoked.status).toBe(410);
    expect(revoked.body.data?.reason).toBe('revoked');
    expect((await server.call('GET', `/api/upload-requests/${r.slug}`)).status).toBe(410);
    const e = await request({ target_path: '/local/inbox/gone', expires_in: 1 });
    server.clock.advance(3600_000 + 1000);
    const expired = await send(e.slug, [['a.txt', 'a']]);
    expect(expired.status).toBe(410);
    expect(expired.body.kind).toBe('expired');
    expect(listing('inbox/gone')).toEqual([]);
    expect((await send('no-such-link', [['a.txt', 'a']])).status).toBe(404);
  });

  it('lets keys with FILE_SHARE and MOUNT_UPLOAD create requests inside their base path only', async () => {
    const key = await createPathKey(
      server,
      token,
      Permission.FILE_SHARE | Permission.MOUNT_UPLOAD | Permission.MOUNT_VIEW,
      '/local/team',
    );
    const inside = await create({ target_path: '/local/team/in' }, { apiKey: key });
    expect(inside.status, inside.body.message).toBe(201);
    expect((await create({ target_path: '/local/other' }, { apiKey: key })).status).toBe(403);
    const noUpload = await createPathKey(server, token, Permission.FILE_SHARE | Permission.MOUNT_VIEW, '/local/team');
    expect((await create({ target_path: '/local/team/in' }, { apiKey: noUpload })).status).toBe(403);
    const noShare = await createPathKey(server, token, Permission.MOUNT_UPLOAD | Permission.MOUNT_VIEW, '/local/team');
    expect((await create({ target_path: '/local/team/in' }, { apiKey: noShare })).status).toBe(403);
    // The key sees only its own requests.
    const mine = await server.call<ListPage<UploadRequestView>>('GET', '/api/upload-requests', { apiKey: key });
    expect(mine.body.data?.items.map((i) => i.id)).toEqual([inside.body.data?.id]);
  });

  it('shows counts and the files received on the dashboard', async () => {
    folder('inbox/dash');
    const r = await request({ target_path: '/local/inbox/dash' });
    expect((await send(r.slug, [['dash-file.txt', 'dash']])).status).toBe(201);
    const stats = await server.call<DashboardStats>('GET', '/api/admin/dashboard/stats?fresh=1', { token });
    expect(stats.status).toBe(200);
    const shares = stats.body.data!.shares;
    expect(shares.upload_requests).toBeGreaterThanOrEqual(1);
    expect(shares.folder_shares).toBe(0);
    expect(shares.received[0]).toMatchObject({ name: 'dash-file.txt', size: 4, request_slug: r.slug });
  });

  it('refuses bad input with a clear 400', async () => {
    for (const body of [
      { max_files: -1 },
      { max_bytes: 'many' },
      { target_path: '/local/../etc' },
      { target_path: '/local/inbox/nope-missing' },
      { unknown: 1 },
      { note: 'x'.repeat(3000) },
    ]) {
      const res = await create(body);
      expect([400, 404], JSON.stringify(body)).toContain(res.status);
    }
    const r = await request({});
    const notMultipart = await fetch(`${server.url}/api/upload-requests/${r.slug}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(notMultipart.status).toBe(415);
  });
});
