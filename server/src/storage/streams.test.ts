import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { ByteMeter, nodeFromWeb, resolveRange, sliceNode, webFromNode } from './streams.js';
import { isStorageError } from './types.js';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return isStorageError(err) ? err.code : 'other';
  }
  return undefined;
}

describe('resolveRange', () => {
  it.each([
    [{ start: 0, end: 0 }, 10, { start: 0, end: 0 }],
    [{ start: 9, end: 9 }, 10, { start: 9, end: 9 }],
    [{ start: 9 }, 10, { start: 9, end: 9 }],
    [{ start: 2, end: 100 }, 10, { start: 2, end: 9 }],
    [{ suffix: 1 }, 10, { start: 9, end: 9 }],
    [{ suffix: 10 }, 10, { start: 0, end: 9 }],
    [{ suffix: 11 }, 10, { start: 0, end: 9 }],
  ])('%j of %d bytes → %j', (range, size, expected) => {
    expect(resolveRange(range, size)).toEqual(expected);
  });

  it.each([
    [{ start: 10 }, 10],
    [{ start: 10, end: 12 }, 10],
    [{ start: 0 }, 0],
    [{ suffix: 1 }, 0],
    [{ suffix: 0 }, 10],
    [{ suffix: -1 }, 10],
    [{ start: -1 }, 10],
    [{ start: 5, end: 4 }, 10],
    [{ start: 1.5 }, 10],
    [{ start: Number.NaN }, 10],
  ])('%j of %d bytes → range', (range, size) => {
    expect(code(() => resolveRange(range, size))).toBe('range');
  });
});

describe('ByteMeter', () => {
  async function run(chunks: string[], opts: { size?: number; maxBytes?: number }) {
    const meter = new ByteMeter(opts);
    const out: Buffer[] = [];
    await pipeline(Readable.from(chunks.map((c) => Buffer.from(c))), meter, async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) out.push(chunk);
    });
    return { bytes: meter.bytes, text: Buffer.concat(out).toString() };
  }

  it('passes bytes through and counts them', async () => {
    expect(await run(['ab', 'cd'], {})).toEqual({ bytes: 4, text: 'abcd' });
    expect(await run(['ab', 'cd'], { size: 4, maxBytes: 4 })).toEqual({ bytes: 4, text: 'abcd' });
  });

  it('fails past maxBytes, and on a size mismatch either way', async () => {
    await expect(run(['ab', 'cd'], { maxBytes: 3 })).rejects.toMatchObject({ code: 'too_large' });
    await expect(run(['ab', 'cd'], { size: 3 })).rejects.toMatchObject({ code: 'size_mismatch' });
    await expect(run(['ab', 'cd'], { size: 5 })).rejects.toMatchObject({ code: 'size_mismatch' });
  });
});

describe('stream adapters', () => {
  it('webFromNode reads ahead only up to its limit (backpressure)', async () => {
    let produced = 0;
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < 100; i++) {
          produced++;
          yield Buffer.alloc(1024);
        }
      })(),
      { highWaterMark: 1, objectMode: false },
    );
    const reader = webFromNode(source, undefined, 4096).getReader();
    await reader.read();
    await new Promise((r) => setTimeout(r, 20));
    expect(produced).toBeLessThan(10);
    await reader.cancel();
    expect(source.destroyed).toBe(true);
  });

  it('nodeFromWeb of an erroring stream does not throw uncaught, and a later pipeline sees the error', async () => {
    const web = new ReadableStream<Uint8Array>({
      start(c) {
        c.error(new Error('boom'));
      },
    });
    const node = nodeFromWeb(web);
    await new Promise((r) => setTimeout(r, 10));
    await expect(
      pipeline(node, async function* (s) {
        for await (const c of s) yield c;
      }),
    ).rejects.toThrow('boom');
  });

  it('sliceNode keeps exactly the asked bytes across chunk borders', async () => {
    const source = Readable.from([Buffer.from('0123'), Buffer.from('4567'), Buffer.from('89')]);
    const chunks: Buffer[] = [];
    for await (const c of sliceNode(source, 3, 4)) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('3456');
  });
});
