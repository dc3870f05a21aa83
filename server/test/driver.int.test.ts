// Driver contract suite: one set of behaviours every StorageDriver must show, run against
//   - local   (a temp directory)
//   - s3rver  (npm s3rver 3.7.1 in a child process, always available)
//   - moto    (python3 -m moto.server; skipped with the reason when it is not installed)
// Tests a backend cannot pass are skipped by name with the reason (see `lacks` per target).
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, expect, it } from 'vitest';
import { StorageError, type S3Driver, type StorageDriver } from '../src/storage/index.js';
import {
  describeTargets,
  digestOf,
  expectCode,
  generated,
  names,
  readRange,
  streamOf,
  text,
} from './support/driverContract.js';
import { liveMemoryGrowth } from './support/liveMemory.js';

// ---------- the contract ----------

describeTargets((target, ctx) => {
  let driver: StorageDriver;
  let localRoot: string | undefined;
  const dir = ctx.dir;
  beforeAll(() => {
    driver = ctx.driver;
    localRoot = ctx.localRoot;
  });

  it('stat: files, directories, the root, missing paths', async () => {
    const d = dir();
    const entry = await driver.write(`${d}/a.txt`, streamOf('hello'), { contentType: 'text/plain' });
    expect(entry).toMatchObject({ path: `${d}/a.txt`, name: 'a.txt', isDir: false, size: 5 });
    expect(entry.etag).toMatch(/^".+"$/);
    const st = await driver.stat(`${d}/a.txt`);
    expect(st).toMatchObject({ isDir: false, size: 5, etag: entry.etag });
    expect(st.lastModified).toBeInstanceOf(Date);
    expect(await driver.stat(d)).toMatchObject({ path: d, name: d, isDir: true });
    expect(await driver.stat('')).toMatchObject({ path: '', isDir: true });
    await expectCode(driver.stat(`${d}/missing`), 'not_found');
    // Below a file is simply missing, on every backend.
    await expectCode(driver.stat(`${d}/a.txt/below`), 'not_found');
    await expectCode(driver.read(`${d}/a.txt/below`), 'not_found');
    await expectCode(driver.remove(`${d}/a.txt/below`), 'not_found');
  });

  it('read: whole file with size, length and etag', async () => {
    const d = dir();
    const written = await driver.write(`${d}/f.bin`, streamOf('0123456789'));
    const r = await driver.read(`${d}/f.bin`);
    expect(r).toMatchObject({ size: 10, contentLength: 10, etag: written.etag });
    expect(r.range).toBeUndefined();
    expect(await text(r.stream)).toBe('0123456789');
    await expectCode(driver.read(`${d}/nope`), 'not_found');
    await expectCode(driver.read(d), 'is_a_directory');
  });

  it('read: ranges (first byte, last byte, open end, suffix, clamped end)', async () => {
    const d = dir();
    const p = `${d}/r.txt`;
    await driver.write(p, streamOf('0123456789'));
    expect(await readRange(driver, p, { start: 0, end: 0 })).toMatchObject({
      body: '0',
      range: { start: 0, end: 0 },
      contentLength: 1,
      size: 10,
    });
    expect(await readRange(driver, p, { start: 9, end: 9 })).toMatchObject({
      body: '9',
      range: { start: 9, end: 9 },
    });
    expect(await readRange(driver, p, { start: 9 })).toMatchObject({ body: '9', contentLength: 1 });
    expect(await readRange(driver, p, { start: 3, end: 5 })).toMatchObject({ body: '345', contentLength: 3 });
    expect(await readRange(driver, p, { suffix: 3 })).toMatchObject({ body: '789', range: { start: 7, end: 9 } });
    expect(await readRange(driver, p, { suffix: 50 })).toMatchObject({
      body: '0123456789',
      range: { start: 0, end: 9 },
    });
    expect(await readRange(driver, p, { start: 8, end: 100 })).toMatchObject({
      body: '89',
      range: { start: 8, end: 9 },
    });
  });

  it('read: unsatisfiable ranges → range', async () => {
    const d = dir();
    await driver.write(`${d}/r.txt`, streamOf('0123456789'));
    await driver.write(`${d}/empty`, streamOf(''));
    await expectCode(driver.read(`${d}/r.txt`, { range: { start: 10 } }), 'range');
    await expectCode(driver.read(`${d}/r.txt`, { range: { start: 11, end: 20 } }), 'range');
    await expectCode(driver.read(`${d}/r.txt`, { range: { suffix: 0 } }), 'range');
    await expectCode(driver.read(`${d}/r.txt`, { range: { start: 5, end: 4 } }), 'range');
    await expectCode(driver.read(`${d}/r.txt`, { range: { start: -1 } }), 'range');
    await expectCode(driver.read(`${d}/empty`, { range: { start: 0 } }), 'range');
    await expectCode(driver.read(`${d}/empty`, { range: { suffix: 1 } }), 'range');
  });

  it('write: replaces by default, refuses with overwrite false and keeps the old bytes', async () => {
    const d = dir();
    await driver.write(`${d}/w.txt`, streamOf('first'));
    await driver.write(`${d}/w.txt`, streamOf('second!'));
    expect(await text((await driver.read(`${d}/w.txt`)).stream)).toBe('second!');
    await expectCode(driver.write(`${d}/w.txt`, streamOf('third'), { overwrite: false }), 'exists');
    expect(await text((await driver.read(`${d}/w.txt`)).stream)).toBe('second!');
    await driver.write(`${d}/new.txt`, streamOf('x'), { overwrite: false });
    expect((await driver.stat(`${d}/new.txt`)).size).toBe(1);
  });

  it('write: creates parents; a directory in the way → is_a_directory; the root → invalid_path', async () => {
    const d = dir();
    await driver.write(`${d}/deep/er/still/f.txt`, streamOf('x'));
    expect((await driver.stat(`${d}/deep/er`)).isDir).toBe(true);
    await expectCode(driver.write(`${d}/deep`, streamOf('x')), 'is_a_directory');
    await expectCode(driver.write('', streamOf('x')), 'invalid_path');
  });

  it('write: maxBytes and size are enforced while streaming and leave nothing behind', async () => {
    const d = dir();
    await expectCode(
      driver.write(`${d}/big`, generated(3 * 1024 * 1024).stream, { maxBytes: 1024 * 1024 }),
      'too_large',
    );
    await expectCode(driver.stat(`${d}/big`), 'not_found');
    await expectCode(driver.write(`${d}/short`, streamOf('abc'), { size: 4 }), 'size_mismatch');
    await expectCode(driver.stat(`${d}/short`), 'not_found');
    await expectCode(driver.write(`${d}/long`, streamOf('abcde'), { size: 4 }), 'size_mismatch');
    await expectCode(driver.stat(`${d}/long`), 'not_found');
    // An existing file survives a failed overwrite.
    await driver.write(`${d}/keep`, streamOf('keep me'));
    await expectCode(driver.write(`${d}/keep`, streamOf('too long'), { maxBytes: 3 }), 'too_large');
    expect(await text((await driver.read(`${d}/keep`)).stream)).toBe('keep me');
    expect(await driver.write(`${d}/exact`, streamOf('abcd'), { size: 4, maxBytes: 4 })).toMatchObject({ size: 4 });
    expect(await names(driver, d)).toEqual(['exact', 'keep']);
  });

  it('write: a new file of known size (one PUT on S3) enforces size and maxBytes and leaves nothing behind', async () => {
    const d = dir();
    const once = { overwrite: false } as const;
    await expectCode(driver.write(`${d}/short`, streamOf('abc'), { ...once, size: 4 }), 'size_mismatch');
    await expectCode(driver.stat(`${d}/short`), 'not_found');
    await expectCode(driver.write(`${d}/long`, streamOf('abcde'), { ...once, size: 4 }), 'size_mismatch');
    await expectCode(driver.stat(`${d}/long`), 'not_found');
    const big = generated(3 * 1024 * 1024);
    await expectCode(
      driver.write(`${d}/big`, big.stream, { ...once, size: 3 * 1024 * 1024, maxBytes: 1024 * 1024 }),
      'too_large',
    );
    await expectCode(driver.stat(`${d}/big`), 'not_found');
    expect(await driver.write(`${d}/exact`, streamOf('abcd'), { ...once, size: 4 })).toMatchObject({ size: 4 });
    expect(await text((await driver.read(`${d}/exact`)).stream)).toBe('abcd');
    expect(await driver.write(`${d}/empty`, streamOf(''), { ...once, size: 0 })).toMatchObject({ size: 0 });
    expect(await names(driver, d)).toEqual(['empty', 'exact']);
  });

  it('write: an aborted stream leaves no file and no temp file', async () => {
    const d = dir();
    const controller = new AbortController();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (sent === 2) {
          controller.abort();
          await new Promise((r) => setTimeout(r, 50));
        }
        sent++;
        c.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const err = await driver.write(`${d}/aborted`, body, { signal: controller.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect(['aborted', 'io']).toContain((err as StorageError).code);
    await expectCode(driver.stat(`${d}/aborted`), 'not_found');
    // A failing source stream too.
    const failing = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(1000));
        c.error(new Error('client went away'));
      },
    });
    await expect(driver.write(`${d}/failed`, failing)).rejects.toBeInstanceOf(StorageError);
    await expectCode(driver.stat(`${d}/failed`), 'not_found');
    if (localRoot) {
      const leftovers = readdirSync(path.join(localRoot, d)).filter((f) => f.startsWith('.clipnest-'));
      expect(leftovers).toEqual([]);
    }
  });

  it('write: a Node readable body is written as it is, with the same limits and clean-up', async () => {
    const d = dir();
    const bytes = randomBytes(3 * 1024 * 1024 + 7);
    const chunks = (n: number) =>
      Array.from({ length: Math.ceil(bytes.length / n) }, (_, i) => bytes.subarray(i * n, (i + 1) * n));
    const entry = await driver.write(`${d}/node.bin`, Readable.from(chunks(64 * 1024)), { size: bytes.length });
    expect(entry.size).toBe(bytes.length);
    expect(await digestOf((await driver.read(`${d}/node.bin`)).stream)).toEqual({
      bytes: bytes.length,
      hash: createHash('sha256').update(bytes).digest('hex'),
    });
    for (const overwrite of [true, false]) {
      await expectCode(
        driver.write(`${d}/big-${overwrite}`, Readable.from(chunks(256 * 1024)), {
          overwrite,
          maxBytes: 1024 * 1024,
        }),
        'too_large',
      );
      await expectCode(driver.stat(`${d}/big-${overwrite}`), 'not_found');
      await expectCode(
        driver.write(`${d}/short-${overwrite}`, Readable.from([Buffer.from('abc')]), { overwrite, size: 4 }),
        'size_mismatch',
      );
      await expectCode(driver.stat(`${d}/short-${overwrite}`), 'not_found');
      const failing = new Readable({
        read() {
          this.push(Buffer.alloc(1000));
          this.destroy(new Error('client went away'));
        },
      });
      await expect(driver.write(`${d}/failed-${overwrite}`, failing, { overwrite })).rejects.toBeInstanceOf(
        StorageError,
      );
      await expectCode(driver.stat(`${d}/failed-${overwrite}`), 'not_found');
    }
    expect(await names(driver, d)).toEqual(['node.bin']);
    if (localRoot) {
      const leftovers = readdirSync(path.join(localRoot, d)).filter((f) => f.startsWith('.clipnest-'));
      expect(leftovers).toEqual([]);
    }
  });

  it('a reader never sees half a file: old bytes until the new write completes', async () => {
    const d = dir();
    const p = `${d}/atomic.txt`;
    await driver.write(p, streamOf('old content'));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let step = 0;
    const slow = new ReadableStream<Uint8Array>({
      async pull(c) {
        step++;
        if (step === 1) c.enqueue(new TextEncoder().encode('new '));
        else if (step === 2) {
          await gate;
          c.enqueue(new TextEncoder().encode('content!'));
        } else c.close();
      },
    });
    const writing = driver.write(p, slow);
    await new Promise((r) => setTimeout(r, 100));
    expect(await text((await driver.read(p)).stream)).toBe('old content');
    expect((await driver.stat(p)).size).toBe(11);
    if (!target.lacks.listDuringWrite) expect(await names(driver, d)).toEqual(['atomic.txt']);
    release();
    expect((await writing).size).toBe(12);
    expect(await text((await driver.read(p)).stream)).toBe('new content!');
  });

  it('read: an abort signal stops the stream; cancelling releases it', async () => {
    const d = dir();
    await driver.write(`${d}/long.bin`, generated(4 * 1024 * 1024).stream);
    const controller = new AbortController();
    const r = await driver.read(`${d}/long.bin`, { signal: controller.signal });
    const reader = r.stream.getReader();
    await reader.read();
    controller.abort();
    const err = await (async () => {
      for (;;) {
        const { done } = await reader.read();
        if (done) return null;
      }
    })().catch((e: unknown) => e);
    expect(err).toBeTruthy();
    const again = await driver.read(`${d}/long.bin`);
    await again.stream.cancel();
    expect((await driver.stat(`${d}/long.bin`)).size).toBe(4 * 1024 * 1024);
  });

  it('list: files and directories, pagination without gaps or repeats', async () => {
    const d = dir();
    for (const name of ['c.txt', 'a.txt', 'e.txt', 'b.txt']) await driver.write(`${d}/${name}`, streamOf(name));
    await driver.write(`${d}/sub/inner.txt`, streamOf('x'));
    await driver.mkdir(`${d}/dir2`);
    const all = await driver.list(d);
    expect(all.cursor).toBeUndefined();
    expect(all.entries.map((e) => e.name).sort()).toEqual(['a.txt', 'b.txt', 'c.txt', 'dir2', 'e.txt', 'sub']);
    expect(all.entries.find((e) => e.name === 'sub')).toMatchObject({ isDir: true, path: `${d}/sub` });
    expect(all.entries.find((e) => e.name === 'a.txt')).toMatchObject({ isDir: false, size: 5, path: `${d}/a.txt` });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await driver.list(d, { limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.entries.length).toBeLessThanOrEqual(2);
      seen.push(...page.entries.map((e) => e.name));
      cursor = page.cursor;
      pages++;
    } while (cursor && pages < 20);
    expect(seen.sort()).toEqual(['a.txt', 'b.txt', 'c.txt', 'dir2', 'e.txt', 'sub']);
    expect(pages).toBeGreaterThanOrEqual(3);
    await expectCode(driver.list(`${d}/missing`), 'not_found');
    await expectCode(driver.list(`${d}/a.txt`), 'not_a_directory');
    expect((await driver.list('')).entries.some((e) => e.name === d && e.isDir)).toBe(true);
  });

  it('mkdir: empty directories exist, repeat is fine, a file in the way → exists', async () => {
    const d = dir();
    await driver.mkdir(`${d}/empty/nested`);
    expect(await driver.stat(`${d}/empty/nested`)).toMatchObject({ isDir: true });
    expect((await driver.list(`${d}/empty/nested`)).entries).toEqual([]);
    await driver.mkdir(`${d}/empty/nested`);
    await driver.write(`${d}/file`, streamOf('x'));
    await expectCode(driver.mkdir(`${d}/file`), 'exists');
  });

  it('remove: files, empty and non-empty directories, recursive, missing, root', async () => {
    const d = dir();
    await driver.write(`${d}/f.txt`, streamOf('x'));
    await driver.write(`${d}/tree/a/b.txt`, streamOf('x'));
    await driver.write(`${d}/tree/c.txt`, streamOf('x'));
    await driver.mkdir(`${d}/tree/empty`);
    await driver.mkdir(`${d}/lonely`);
    await driver.remove(`${d}/f.txt`);
    await expectCode(driver.stat(`${d}/f.txt`), 'not_found');
    await expectCode(driver.remove(`${d}/tree`), 'not_empty');
    expect((await driver.stat(`${d}/tree/c.txt`)).size).toBe(1);
    await driver.remove(`${d}/lonely`);
    await expectCode(driver.stat(`${d}/lonely`), 'not_found');
    await driver.remove(`${d}/tree`, { recursive: true });
    await expectCode(driver.stat(`${d}/tree`), 'not_found');
    await expectCode(driver.stat(`${d}/tree/a/b.txt`), 'not_found');
    await expectCode(driver.remove(`${d}/missing`), 'not_found');
    await expectCode(driver.remove(''), 'invalid_path');
  });

  it('move: files and trees, overwrite rules, into itself', async () => {
    const d = dir();
    await driver.write(`${d}/a.txt`, streamOf('A'));
    await driver.move(`${d}/a.txt`, `${d}/moved/b.txt`);
    await expectCode(driver.stat(`${d}/a.txt`), 'not_found');
    expect(await text((await driver.read(`${d}/moved/b.txt`)).stream)).toBe('A');
    await driver.write(`${d}/tree/x/1.txt`, streamOf('1'));
    await driver.write(`${d}/tree/2.txt`, streamOf('2'));
    await driver.move(`${d}/tree`, `${d}/tree2`);
    await expectCode(driver.stat(`${d}/tree`), 'not_found');
    expect(await text((await driver.read(`${d}/tree2/x/1.txt`)).stream)).toBe('1');
    expect(await text((await driver.read(`${d}/tree2/2.txt`)).stream)).toBe('2');
    await driver.write(`${d}/c.txt`, streamOf('C'));
    await expectCode(driver.move(`${d}/c.txt`, `${d}/moved/b.txt`), 'exists');
    expect(await text((await driver.read(`${d}/c.txt`)).stream)).toBe('C');
    await driver.move(`${d}/c.txt`, `${d}/moved/b.txt`, { overwrite: true });
    expect(await text((await driver.read(`${d}/moved/b.txt`)).stream)).toBe('C');
    await expectCode(driver.move(`${d}/tree2`, `${d}/tree2/inside`), 'invalid_path');
    await expectCode(driver.move(`${d}/missing`, `${d}/x`), 'not_found');
    await driver.move(`${d}/moved/b.txt`, `${d}/moved/b.txt`);
    expect((await driver.stat(`${d}/moved/b.txt`)).size).toBe(1);
  });

  it('copy: files and trees stay at the source too', async () => {
    const d = dir();
    if (!driver.copy) return;
    await driver.write(`${d}/src/a.txt`, streamOf('A'));
    await driver.write(`${d}/src/deep/b.txt`, streamOf('B'));
    await driver.copy(`${d}/src/a.txt`, `${d}/a-copy.txt`);
    expect(await text((await driver.read(`${d}/a-copy.txt`)).stream)).toBe('A');
    expect(await text((await driver.read(`${d}/src/a.txt`)).stream)).toBe('A');
    await driver.copy(`${d}/src`, `${d}/dst`);
    expect(await text((await driver.read(`${d}/dst/deep/b.txt`)).stream)).toBe('B');
    expect(await text((await driver.read(`${d}/src/deep/b.txt`)).stream)).toBe('B');
    await expectCode(driver.copy(`${d}/src/a.txt`, `${d}/a-copy.txt`), 'exists');
    await driver.copy(`${d}/src/deep/b.txt`, `${d}/a-copy.txt`, { overwrite: true });
    expect(await text((await driver.read(`${d}/a-copy.txt`)).stream)).toBe('B');
  });

  it('unicode and space-laden names survive write, list, read, range, move and copy', async () => {
    const d = dir();
    const folder = `${d}/dossier été 文件夹 🎉`;
    const file = `${folder}/报告 final (v2) ü+%20&#.txt`;
    await driver.write(file, streamOf('données ✓'));
    expect(await names(driver, folder)).toEqual(['报告 final (v2) ü+%20&#.txt']);
    expect(await names(driver, d)).toEqual(['dossier été 文件夹 🎉/']);
    expect(await text((await driver.read(file)).stream)).toBe('données ✓');
    expect((await readRange(driver, file, { suffix: 3 })).body).toBe('✓');
    const moved = `${d}/ça marche/ñ ü é.txt`;
    await driver.move(file, moved);
    expect((await driver.stat(moved)).size).toBe(Buffer.byteLength('données ✓'));
    if (driver.copy) {
      await driver.copy(moved, `${d}/ça marche/copie ✓.txt`);
      expect(await text((await driver.read(`${d}/ça marche/copie ✓.txt`)).stream)).toBe('données ✓');
    }
  });

  it('0-byte files: write, stat, list, read, copy', async () => {
    const d = dir();
    const entry = await driver.write(`${d}/empty.txt`, streamOf(''));
    expect(entry).toMatchObject({ size: 0, isDir: false });
    expect((await driver.stat(`${d}/empty.txt`)).size).toBe(0);
    expect((await driver.list(d)).entries).toMatchObject([{ name: 'empty.txt', size: 0, isDir: false }]);
    const r = await driver.read(`${d}/empty.txt`);
    expect(r).toMatchObject({ size: 0, contentLength: 0 });
    expect(await text(r.stream)).toBe('');
    if (driver.copy) {
      await driver.copy(`${d}/empty.txt`, `${d}/empty2.txt`);
      expect((await driver.stat(`${d}/empty2.txt`)).size).toBe(0);
    }
  });

  it('paths: traversal, encoded dots, backslashes and NUL never reach the backend', async () => {
    for (const bad of ['../x', 'a/../../x', '%2e%2e/x', 'a\\b', 'a\u0000b', '/abs', 'a/', '.clipnest-multipart/x']) {
      await expectCode(driver.stat(bad), 'invalid_path');
      await expectCode(driver.write(bad, streamOf('x')), 'invalid_path');
      await expectCode(driver.remove(bad, { recursive: true }), 'invalid_path');
    }
  });

  it.runIf(target.s3 === true)('presign: GET and PUT URLs work without the server', async () => {
    const d = dir();
    const putUrl = await driver.presign!(`${d}/pre.txt`, 'put', 60, { contentType: 'text/plain' });
    const put = await fetch(putUrl, {
      method: 'PUT',
      body: 'presigned body',
      headers: { 'content-type': 'text/plain' },
    });
    expect(put.status).toBe(200);
    const getUrl = await driver.presign!(`${d}/pre.txt`, 'get', 60, {
      contentDisposition: "attachment; filename*=UTF-8''pre.txt",
    });
    const get = await fetch(getUrl);
    expect(get.status).toBe(200);
    expect(await get.text()).toBe('presigned body');
  });

  it.runIf(target.s3 === true)(
    'S3 prefix: keys outside the default folder and keys no clean path can address are never listed',
    async () => {
      const d = dir();
      const s3 = driver as S3Driver;
      expect(s3.prefix).toBe('contract-suite/');
      const put = (Key: string) =>
        s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key, Body: 'x', ContentLength: 1 }));
      await put('outside-the-prefix.txt');
      await put(`contract-suite/${d}/ok.txt`);
      await put(`contract-suite/${d}/back\\slash.txt`);
      expect(await names(driver, d)).toEqual(['ok.txt']);
      expect(await names(driver, '')).not.toContain('outside-the-prefix.txt');
      await expectCode(driver.stat('outside-the-prefix.txt'), 'not_found');
    },
  );

  it.runIf(target.name === 'local')('local: no presign; multipart goes through the server', () => {
    expect(driver.presign).toBeUndefined();
    expect(driver.multipart?.presignedParts).toBe(false);
  });

  it('a 200 MB streamed write keeps process memory flat and reads back intact', { timeout: 240_000 }, async () => {
    const d = dir();
    const total = 200 * 1024 * 1024;
    // Warm-up (HTTP agent, SDK, lib-storage, first heap growth) so the measurement shows what a big
    // write costs, not what the first write of any size costs.
    await driver.write(`${d}/warm-up.bin`, generated(20 * 1024 * 1024).stream);
    await driver.remove(`${d}/warm-up.bin`);
    const source = generated(total);
    let entry: Awaited<ReturnType<typeof driver.write>> | undefined;
    const writeGrowth = await liveMemoryGrowth(async () => {
      entry = await driver.write(`${d}/big.bin`, source.stream, { size: total });
    });
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    expect(entry?.size).toBe(total);
    const readGrowth = await liveMemoryGrowth(async () => {
      const back = await digestOf((await driver.read(`${d}/big.bin`)).stream);
      expect(back).toEqual({ bytes: total, hash: source.digest() });
    });
    console.log(
      `[${target.name}] 200 MB: live memory growth ${mb(writeGrowth)} MB writing, ${mb(readGrowth)} MB reading`,
    );
    // A buffered copy would hold 200 MB; S3 uploads keep a few parts in flight (37-46 MB measured here, with the
    // emulator in this process too).
    expect(writeGrowth).toBeLessThan(96 * 1024 * 1024);
    expect(readGrowth).toBeLessThan(64 * 1024 * 1024);
    await driver.remove(`${d}/big.bin`);
  });

  it('random bytes survive a round trip byte for byte', async () => {
    const d = dir();
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    await driver.write(`${d}/rand.bin`, streamOf(bytes));
    const back = Buffer.from(await new Response((await driver.read(`${d}/rand.bin`)).stream).arrayBuffer());
    expect(back.equals(bytes)).toBe(true);
  });
});
