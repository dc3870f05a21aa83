import { describe, expect, it } from 'vitest';
import { unzipAll } from '../../../../test/support/zipReader.js';
import { streamZip, zipEntryName, zipLength, type ZipSource } from './zipStream.js';

function source(name: string, bytes: Uint8Array, announced = bytes.byteLength): ZipSource {
  return {
    name,
    isDir: false,
    size: announced,
    lastModified: new Date('2024-05-06T07:08:10Z'),
    open: async () => new Blob([bytes]).stream(),
  };
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

describe('zipEntryName', () => {
  it('never leaves the archive root', () => {
    expect(zipEntryName(['..', 'a', '..', 'b.txt'])).toBe('a/b.txt');
    expect(zipEntryName(['/etc/passwd'])).toBe('etc/passwd');
    expect(zipEntryName(['a\\..\\b', 'c'])).toBe('a_.._b/c');
    expect(zipEntryName(['x\u0000y', ' . ', 'z:?'])).toBe('x_y/z__');
    expect(zipEntryName(['..', '.', ''])).toBe('');
    expect(zipEntryName(['报告', 'été.txt'])).toBe('报告/été.txt');
  });
});

describe('streamZip', () => {
  it('stores every entry byte for byte and answers the predicted length', async () => {
    const big = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7) & 0xff);
    const entries: ZipSource[] = [
      { name: 'folder', isDir: true, size: 0 },
      source('folder/报告.txt', new TextEncoder().encode('你好')),
      source('folder/empty.bin', new Uint8Array(0)),
      source('big.bin', big),
    ];
    const zip = await collect(streamZip(entries));
    expect(zip.byteLength).toBe(zipLength(entries));
    const files = await unzipAll(zip);
    expect([...files.keys()]).toEqual(['folder/', 'folder/报告.txt', 'folder/empty.bin', 'big.bin']);
    expect(files.get('folder/报告.txt')?.toString()).toBe('你好');
    expect(files.get('folder/empty.bin')?.byteLength).toBe(0);
    expect(files.get('big.bin')?.equals(Buffer.from(big))).toBe(true);
  });

  it('fails the stream when a source carries another size than announced', async () => {
    await expect(collect(streamZip([source('a.txt', new Uint8Array(10), 11)]))).rejects.toThrow(/shrank/);
    await expect(collect(streamZip([source('a.txt', new Uint8Array(12), 11)]))).rejects.toThrow(/grew/);
  });

  it('opens sources only when the archive reaches them, and stops when cancelled', async () => {
    const opened: string[] = [];
    const entries = ['a', 'b', 'c'].map((name) => ({
      ...source(name, new Uint8Array(1024 * 1024)),
      open: async () => {
        opened.push(name);
        return new Blob([new Uint8Array(1024 * 1024)]).stream();
      },
    }));
    const reader = streamZip(entries).getReader();
    await reader.read();
    expect(opened).toEqual(['a']);
    await reader.cancel();
    expect(opened).toEqual(['a']);
  });
});
