// Issue 34 point 8: a 35-byte GIF announcing 16384 × 16384 pixels cost 1.1 GB per thumbnail decode (four at
// once: 2.6 GB). The header is read before decoding: over THUMBNAIL_MAX_INPUT_PIXELS the answer is 413 in the
// envelope (the explorer's placeholder icon), never a decode and never a 500; decodes run one at a time.
import { Permission } from '@clipnest/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fsRaw, fsUpload, type Auth } from '../support/fsApi.js';
import { dbTargets, startTestServer, type TestServer } from '../support/harness.js';
import { createMount, createPathKey, mountableLocalConfig } from '../support/mounts.js';

/** A valid GIF whose header announces `w` × `h` pixels, with one LZW clear + end code as its image data. */
function hugeGif(w: number, h: number): Uint8Array {
  const lsd = Buffer.alloc(7);
  lsd.writeUInt16LE(w, 0);
  lsd.writeUInt16LE(h, 2);
  lsd[4] = 0x80; // a global colour table of 2 entries
  const image = Buffer.alloc(10);
  image[0] = 0x2c;
  image.writeUInt16LE(w, 5);
  image.writeUInt16LE(h, 7);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from('GIF89a'),
      lsd,
      Buffer.from([0, 0, 0, 255, 255, 255]),
      image,
      Buffer.from([2, 2, 0x44, 0x01, 0, 0x3b]),
    ]),
  );
}

describe.each(dbTargets)('thumbnail decode limits on %s', (target) => {
  let server: TestServer;
  let admin: Auth;
  let key: Auth;

  beforeAll(async () => {
    server = await startTestServer(target);
    const token = await server.login();
    admin = { token };
    await createMount(server, token, {
      path: '/local',
      storage_config_id: await mountableLocalConfig(server, token),
      cache_ttl: 0,
    });
    key = { apiKey: await createPathKey(server, token, Permission.MOUNT_VIEW, '/local') };
  });
  afterAll(async () => {
    await server?.close();
  });

  const thumb = (p: string, auth: Auth = admin) =>
    fsRaw(server, `/api/fs/thumbnail?path=${encodeURIComponent(p)}`, auth);

  it('refuses a tiny file announcing 16384² pixels with 413 (placeholder), undecoded, in the envelope', async () => {
    const gif = hugeGif(16384, 16384);
    expect(gif.length).toBeLessThan(64);
    expect((await fsUpload(server, admin, gif, { before: { path: '/local/bomb/huge.gif' } })).status).toBe(201);
    // Just over the 40-megapixel limit too, as a PNG (a real file, a few KB).
    const side = 6400;
    const png = await sharp({ create: { width: side, height: side, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(
      (await fsUpload(server, admin, new Uint8Array(png), { before: { path: '/local/bomb/big.png' } })).status,
    ).toBe(201);

    let peakRss = process.memoryUsage().rss;
    const baseline = peakRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
    try {
      for (const p of ['/local/bomb/huge.gif', '/local/bomb/big.png']) {
        const answers = await Promise.all([thumb(p), thumb(p), thumb(p, key), thumb(p, key)]);
        for (const res of answers) {
          expect(res.status, p).toBe(413);
          const body = JSON.parse(new TextDecoder().decode(res.bytes)) as { code: number; message: string };
          expect(body.code).toBe(413);
          expect(body.message).toMatch(/pixels/);
        }
        // Asked again: still the placeholder answer.
        expect((await thumb(p)).status).toBe(413);
      }
    } finally {
      clearInterval(sampler);
    }
    // One decode of the GIF alone costs ~1.1 GB; reading headers costs next to nothing.
    expect((peakRss - baseline) / 1024 / 1024).toBeLessThan(300);
  });

  it('decodes one image at a time per instance, the others queue and all succeed', async () => {
    const paths = await Promise.all(
      [1, 2, 3, 4].map(async (i) => {
        const png = await sharp({ create: { width: 1500, height: 1000 + i, channels: 3, background: '#369' } })
          .png()
          .toBuffer();
        const p = `/local/queue/p${i}.png`;
        await fsUpload(server, admin, new Uint8Array(png), { before: { path: p } });
        return p;
      }),
    );
    const { thumbnails } = server.built.services;
    const results = await Promise.all(paths.map((p) => thumb(p)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(thumbnails.peakDecodes).toBe(1);
  });
});
