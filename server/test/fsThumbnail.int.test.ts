import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Permission } from '@clipnest/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.js';
import { ThumbnailService } from '../src/services/fs/thumbnails/thumbnailService.js';
import { createS3Config, startS3rver, type S3rverHandle } from './support/fileShares.js';
import { fsRaw, fsUpload, type Auth } from './support/fsApi.js';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount, createPathKey, mountableLocalConfig } from './support/mounts.js';

const KINDS = ['local', 's3'] as const;
const q = (p: string) => encodeURIComponent(p);

/** A noisy photo-like JPEG (noise keeps it from compressing to nothing, like a real photo). */
async function photo(width: number, height: number, seed = 1): Promise<Uint8Array> {
  const raw = Buffer.alloc(width * height * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    raw[i] = (i % 3) * 60 + ((x >>> 24) & 63);
  }
  return new Uint8Array(
    await sharp(raw, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer(),
  );
}

function filesUnder(dir: string): { file: string; size: number }[] {
  const out: { file: string; size: number }[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const p = path.join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out.push({ file: p, size: st.size });
    }
  };
  walk(dir);
  return out;
}

describe.each(dbTargets)('fs thumbnails on %s', (target) => {
  let server: TestServer;
  let token: string;
  let admin: Auth;
  let s3: S3rverHandle;
  let jpeg: Uint8Array;

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    token = await server.login();
    admin = { token };
    const localId = await mountableLocalConfig(server, token);
    const s3Config = await createS3Config(server, token, s3);
    await createMount(server, token, { path: '/local', storage_config_id: localId, cache_ttl: 0 });
    await createMount(server, token, { path: '/s3', storage_config_id: s3Config.id, cache_ttl: 0 });
    jpeg = await photo(1200, 800);
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const thumb = (p: string, auth: Auth | null = admin, extra = '', headers: Record<string, string> = {}) =>
    fsRaw(server, `/api/fs/thumbnail?path=${q(p)}${extra}`, auth ?? undefined, headers);
  const errorOf = (bytes: Uint8Array) =>
    JSON.parse(new TextDecoder().decode(bytes)) as { code: number; message: string };

  describe.each(KINDS)('on a %s mount', (kind) => {
    const base = `/${kind}/thumbs`;

    it('answers a small WebP at the asked size, cached per object and ETag, with 304 on If-None-Match', async () => {
      expect((await fsUpload(server, admin, jpeg, { before: { path: `${base}/photo.jpg` } })).status).toBe(201);
      const first = await thumb(`${base}/photo.jpg`, admin, '&size=256');
      expect(first.status, new TextDecoder().decode(first.bytes)).toBe(200);
      expect(first.headers.get('content-type')).toBe('image/webp');
      expect(first.headers.get('x-thumbnail-cache')).toBe('miss');
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
      expect(first.bytes.length).toBeLessThan(jpeg.length / 5);
      expect(first.bytes.length).toBeLessThan(30 * 1024);
      const meta = await sharp(first.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 171]);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"t[0-9a-f]{40}"$/);

      const second = await thumb(`${base}/photo.jpg`, admin, '&size=256&v=abc');
      expect(second.status).toBe(200);
      expect(second.headers.get('x-thumbnail-cache')).toBe('hit');
      expect(second.headers.get('etag')).toBe(etag);
      expect(second.headers.get('cache-control')).toContain('max-age=');
      expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
      const cacheFiles = filesUnder(path.join(server.dataDir, 'cache', 'thumbnails'));
      expect(cacheFiles.some((f) => f.file.endsWith('.webp'))).toBe(true);

      const notModified = await thumb(`${base}/photo.jpg`, admin, '&size=256', { 'if-none-match': etag });
      expect(notModified.status).toBe(304);
      expect(notModified.bytes.length).toBe(0);

      // Sizes round up to 64 / 128 / 256 / 512; JPEG on request.
      const small = await thumb(`${base}/photo.jpg`, admin, '&size=100&format=jpeg');
      expect(small.status).toBe(200);
      expect(small.headers.get('content-type')).toBe('image/jpeg');
      const smallMeta = await sharp(small.bytes).metadata();
      expect([smallMeta.format, smallMeta.width]).toEqual(['jpeg', 128]);
      expect(small.headers.get('etag')).not.toBe(etag);
      const big = await thumb(`${base}/photo.jpg`, admin, '&size=512');
      expect((await sharp(big.bytes).metadata()).width).toBe(512);
      const dflt = await thumb(`${base}/photo.jpg`);
      expect((await sharp(dflt.bytes).metadata()).width).toBe(256);

      // A changed object gets a new ETag and a new thumbnail.
      await fsUpload(server, admin, await photo(400, 600, 7), { before: { path: `${base}/photo.jpg` } });
      const changed = await thumb(`${base}/photo.jpg`, admin, '&size=256');
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      expect(changed.headers.get('x-thumbnail-cache')).toBe('miss');
      const changedMeta = await sharp(changed.bytes).metadata();
      expect([changedMeta.width, changedMeta.height]).toEqual([171, 256]);
      // An image smaller than the size is not enlarged; PNG works too.
      const png = await sharp({ create: { width: 40, height: 30, channels: 4, background: '#3366ff' } })
        .png()
        .toBuffer();
      await fsUpload(server, admin, new Uint8Array(png), { before: { path: `${base}/tiny.png` } });
      const tiny = await thumb(`${base}/tiny.png`, admin, '&size=256');
      expect(tiny.status).toBe(200);
      expect((await sharp(tiny.bytes).metadata()).width).toBe(40);
    });

    it('refuses what is not an image (415), a folder or bad sizes (400), a missing file (404), with nothing cached', async () => {
      await fsUpload(server, admin, 'just text', { before: { path: `${base}/notes.txt` } });
      await fsUpload(server, admin, 'not really a jpeg', { before: { path: `${base}/broken.jpg` } });
      await fsUpload(server, admin, '<svg xmlns="http://www.w3.org/2000/svg"/>', { before: { path: `${base}/x.svg` } });
      await fsUpload(server, admin, 'mp4', { before: { path: `${base}/clip.mp4` } });
      const cacheBefore = filesUnder(path.join(server.dataDir, 'cache', 'thumbnails')).length;
      const cases: Array<[string, string, number]> = [
        [`${base}/notes.txt`, '', 415],
        [`${base}/x.svg`, '', 415],
        [`${base}/clip.mp4`, '', 415],
        [`${base}/broken.jpg`, '', 415],
        [base, '', 400],
        [`${base}/missing.jpg`, '', 404],
        [`${base}/broken.jpg`, '&size=0', 400],
        [`${base}/broken.jpg`, '&size=513', 400],
        [`${base}/broken.jpg`, '&size=abc', 400],
        [`${base}/broken.jpg`, '&format=gif', 400],
        [`${base}/broken.jpg`, '&extra=1', 400],
        [`${base}/../etc/passwd`, '', 400],
      ];
      for (const [p, extra, status] of cases) {
        const res = await thumb(p, admin, extra);
        expect(res.status, `${p}${extra}`).toBe(status);
        const body = errorOf(res.bytes);
        expect(body.code).toBe(status);
        expect(body.message.length).toBeGreaterThan(0);
      }
      expect(filesUnder(path.join(server.dataDir, 'cache', 'thumbnails')).length).toBe(cacheBefore);
    });

    it('checks rights exactly like download: MOUNT_VIEW and the key base path', async () => {
      await fsUpload(server, admin, jpeg, { before: { path: `${base}/team/a.jpg` } });
      await fsUpload(server, admin, jpeg, { before: { path: `${base}/other/b.jpg` } });
      const keys: Record<string, Auth | undefined> = {
        none: undefined,
        view: { apiKey: await createPathKey(server, token, Permission.MOUNT_VIEW) },
        upload: { apiKey: await createPathKey(server, token, Permission.MOUNT_UPLOAD) },
        team: { apiKey: await createPathKey(server, token, Permission.MOUNT_VIEW, `${base}/team`) },
      };
      const expected: Record<string, [number, number]> = {
        none: [401, 401],
        view: [200, 200],
        upload: [403, 403],
        team: [200, 403],
      };
      for (const [name, auth] of Object.entries(keys)) {
        const statuses: number[] = [];
        for (const p of [`${base}/team/a.jpg`, `${base}/other/b.jpg`]) {
          const download = (await fsRaw(server, `/api/fs/download?path=${q(p)}`, auth)).status;
          const t = (await thumb(p, auth ?? null)).status;
          expect(t, `${name} ${p}: thumbnail ${t}, download ${download}`).toBe(download);
          statuses.push(t);
        }
        expect(statuses, name).toEqual(expected[name]);
      }
    });
  });

  it('makes one object asked for many times at once only once, and many objects side by side', async () => {
    const paths = await Promise.all(
      [1, 2, 3, 4, 5].map(async (i) => {
        const p = `/local/many/p${i}.jpg`;
        await fsUpload(server, admin, await photo(640, 480, i), { before: { path: p } });
        return p;
      }),
    );
    const results = await Promise.all([
      ...paths.map((p) => thumb(p)),
      ...[1, 2, 3, 4].map(() => thumb('/s3/thumbs/team/a.jpg', admin, '&size=64')),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(9).fill(200));
    const same = results.slice(5);
    expect(new Set(same.map((r) => r.headers.get('etag'))).size).toBe(1);
    expect(same.every((r) => Buffer.from(r.bytes).equals(Buffer.from(same[0]!.bytes)))).toBe(true);
  });

  it('skips originals over the input cap (413) and keeps its disk cache within its bound', async () => {
    const { vfs } = server.built.services;
    const principal = (await server.built.services.auth.verifyToken(token))!;
    const cacheDir = path.join(server.dataDir, 'cache', 'thumbs-bounded');
    const small = new ThumbnailService(
      { vfs, logger: createLogger('silent') },
      { cacheDir, maxInputBytes: 10_000, maxCacheBytes: 6_000 },
    );
    await expect(small.thumbnail(principal, '/local/thumbs/team/a.jpg', { fresh: () => false })).rejects.toMatchObject({
      kind: 'PAYLOAD_TOO_LARGE',
    });
    expect(filesUnder(cacheDir)).toEqual([]);

    const bounded = new ThumbnailService({ vfs, logger: createLogger('silent') }, { cacheDir, maxCacheBytes: 6_000 });
    for (let i = 1; i <= 5; i++) {
      const made = await bounded.thumbnail(principal, `/local/many/p${i}.jpg`, { size: 256, fresh: () => false });
      expect(made.bytes!.length).toBeGreaterThan(1000);
      const total = filesUnder(cacheDir).reduce((sum, f) => sum + f.size, 0);
      expect(total, `after ${i}`).toBeLessThanOrEqual(6_000);
    }
    expect(filesUnder(cacheDir).length).toBeGreaterThan(0);
  });
});
