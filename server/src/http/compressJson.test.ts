import zlib from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { compress, compressOptions, sendDataJson, sendJson, windowBitsFor } from './compressJson.js';

const C = zlib.constants;

function appSending(value: unknown) {
  const app = new Hono();
  app.get('/', (c) => sendJson(c, value, 200));
  return app;
}

async function fetchDecoded(app: Hono, acceptEncoding?: string, method = 'GET') {
  const res = await app.request('/', { method, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
  const body = Buffer.from(await res.arrayBuffer());
  const coding = res.headers.get('content-encoding');
  const text =
    coding === 'br'
      ? zlib.brotliDecompressSync(body).toString()
      : coding === 'gzip'
        ? zlib.gunzipSync(body).toString()
        : body.toString();
  return { coding, vary: res.headers.get('vary'), bytes: body.byteLength, text };
}

describe('windowBitsFor', () => {
  it('is the log2 of the smallest window holding the size, within its bounds', () => {
    expect(windowBitsFor(1500, 10, 24)).toBe(11);
    expect(windowBitsFor(2048, 10, 24)).toBe(11);
    expect(windowBitsFor(2049, 10, 24)).toBe(12);
    expect(windowBitsFor(0, 10, 24)).toBe(10);
    expect(windowBitsFor(100, 10, 24)).toBe(10);
    expect(windowBitsFor(1 << 30, 10, 24)).toBe(24);
  });
});

describe('compressOptions', () => {
  it('fits brotli to the body: quality 1 and a small window for a small answer, 2 for a mid-sized one, 1 for a large one', () => {
    const small = compressOptions('br', 1500) as zlib.BrotliOptions;
    expect(small.params?.[C.BROTLI_PARAM_QUALITY]).toBe(1);
    expect(small.params?.[C.BROTLI_PARAM_LGWIN]).toBe(11);
    expect(small.params?.[C.BROTLI_PARAM_SIZE_HINT]).toBe(1500);
    const listing = compressOptions('br', 28 * 1024) as zlib.BrotliOptions;
    expect(listing.params?.[C.BROTLI_PARAM_QUALITY]).toBe(2);
    const large = compressOptions('br', 5 * 1024 * 1024) as zlib.BrotliOptions;
    expect(large.params?.[C.BROTLI_PARAM_QUALITY]).toBe(1);
    expect(large.params?.[C.BROTLI_PARAM_LGWIN]).toBe(23);
  });

  it('fits gzip to the body within zlib limits (windowBits 9–15, memLevel 1–8)', () => {
    expect(compressOptions('gzip', 1500)).toEqual({ level: 6, windowBits: 11, memLevel: 4 });
    expect(compressOptions('gzip', 100)).toEqual({ level: 6, windowBits: 10, memLevel: 3 });
    expect(compressOptions('gzip', 1 << 20)).toEqual({ level: 1, windowBits: 15, memLevel: 8 });
  });
});

describe('sendJson', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ i, name: `row ${i}`, note: 'x'.repeat(i % 13) }));

  it('sends the same JSON with every coding, from a small answer to one over 64 KB (the fastest settings)', async () => {
    for (const value of [rows(40), rows(20_000)]) {
      const json = JSON.stringify(value);
      const app = appSending(value);
      for (const [accept, coding] of [
        ['br, gzip', 'br'],
        ['gzip', 'gzip'],
        [undefined, null],
      ] as const) {
        const res = await fetchDecoded(app, accept);
        expect(res.coding, accept).toBe(coding);
        expect(res.text, accept).toBe(json);
        if (coding) expect(res.bytes, accept).toBeLessThan(json.length / 3);
      }
    }
  });

  it('answers each Accept-Encoding for itself, refusals (q=0) included, in any order', async () => {
    const app = appSending(rows(40));
    const cases: [string | undefined, string | null][] = [
      ['br, gzip', 'br'],
      ['br, gzip', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0, gzip;q=0', null],
      ['br, gzip', 'br'],
      ['identity', null],
      [undefined, null],
      ['gzip;q=0.5, br;q=0.4', 'gzip'],
      ['*;q=0', null],
    ];
    for (const [accept, coding] of cases) {
      const res = await fetchDecoded(app, accept);
      expect(res.coding, accept).toBe(coding);
      expect(res.vary, accept).toBe('Accept-Encoding');
    }
  });

  it('leaves small answers alone, without Vary', async () => {
    const res = await fetchDecoded(appSending({ ok: true }), 'br, gzip');
    expect(res.coding).toBeNull();
    expect(res.vary).toBeNull();
  });

  it('answers HEAD uncompressed, with Vary', async () => {
    const app = new Hono();
    app.on(['GET', 'HEAD'], '/', (c) => sendJson(c, rows(40), 200));
    const res = await fetchDecoded(app, 'br, gzip', 'HEAD');
    expect(res.coding).toBeNull();
    expect(res.vary).toBe('Accept-Encoding');
  });
});

describe('compress', () => {
  const json = (size: number) =>
    Buffer.from(
      JSON.stringify(Array.from({ length: size / 20 + 1 }, (_, i) => ({ i, name: `row ${i}` }))).slice(0, size),
    );

  it('writes what node:zlib writes with the on-the-fly settings, for every size class, again and again', () => {
    // A paste view, below and above 8 KB (brotli quality changes) and up to 64 KB (larger ones go to the pool).
    for (const size of [1533, 7000, 8 * 1024 + 1, 40_000, 64 * 1024 - 1]) {
      const body = json(size);
      for (const coding of ['br', 'gzip'] as const) {
        const options = compressOptions(coding, size);
        const expected =
          coding === 'gzip'
            ? zlib.gzipSync(body, options)
            : zlib.brotliCompressSync(body, options as zlib.BrotliOptions);
        const first = compress(coding, body);
        // Buffer.equals, not toEqual: a deep equality walks the bytes one by one.
        expect(first.equals(expected), `${coding} ${size}`).toBe(true);
        expect(compress(coding, body).equals(first), `${coding} ${size}`).toBe(true);
      }
    }
    expect(zlib.brotliDecompressSync(compress('br', Buffer.alloc(0)))).toHaveLength(0);
    expect(zlib.gunzipSync(compress('gzip', Buffer.alloc(0)))).toHaveLength(0);
  });

  it('returns answers of their own: a later one does not overwrite an earlier one', () => {
    const a = compress('br', json(2000));
    const copy = Buffer.from(a);
    compress('br', json(3000));
    compress('gzip', json(3000));
    expect(a).toEqual(copy);
    expect(zlib.brotliDecompressSync(a)).toEqual(json(2000));
  });
});

describe('sendDataJson', () => {
  const listing = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ i, name: `file ${i}.txt` })));

  it('compresses a kept answer once per coding, large ones off the event loop, and sends the same bytes again', async () => {
    for (const dataJson of [listing(100), listing(5000)]) {
      const keep = {};
      const app = new Hono();
      app.get('/', (c) => sendDataJson(c, dataJson, { keep }));
      const expected = `{"code":200,"message":"success","data":${dataJson},"success":true}`;
      for (const coding of ['br', 'gzip'] as const) {
        const answers: Buffer[] = [];
        for (let i = 0; i < 2; i++) {
          const res = await app.request('/', { headers: { 'accept-encoding': coding } });
          expect(res.headers.get('content-encoding')).toBe(coding);
          answers.push(Buffer.from(await res.arrayBuffer()));
        }
        expect(answers[1]!.equals(answers[0]!)).toBe(true);
        const text = coding === 'br' ? zlib.brotliDecompressSync(answers[0]!) : zlib.gunzipSync(answers[0]!);
        expect(text.toString()).toBe(expected);
      }
      const plain = await app.request('/');
      expect(await plain.text()).toBe(expected);
    }
  });
});
