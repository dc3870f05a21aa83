// Driver contract suite: one set of behaviours every StorageDriver must show, run against
//   - local   (a temp directory)
//   - s3rver  (npm s3rver 3.7.1 in a child process, always available)
//   - moto    (python3 -m moto.server; skipped with the reason when it is not installed)
// Tests a backend cannot pass are skipped by name with the reason (see `lacks` per target).
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LocalDriver,
  S3Driver,
  StorageError,
  type ByteRange,
  type StorageDriver,
  type StorageErrorCode,
} from '../src/storage/index.js';
import { motoAvailable, startMoto, startS3rver, type S3Emulator } from './support/s3Emulator.js';

type Lack = 'listParts' | 'abort' | 'listUploads' | 'partChecks' | 'unknownUpload';

interface Target {
  name: string;
  /** Why the whole target is skipped, if it is. */
  skip?: string;
  /** Operations the backend lacks, with the reason; their tests are skipped and 'unsupported' is asserted. */
  lacks: Partial<Record<Lack, string>>;
  start(): Promise<{ driver: StorageDriver; stop(): Promise<void>; root?: string }>;
}

const S3RVER_LACKS =
  's3rver 3.7.1 does not implement ListParts, AbortMultipartUpload or ListMultipartUploads (TOOLING.md)';
const S3RVER_NO_PART_CHECKS = 's3rver 3.7.1 completes an upload without checking part ETags or part numbers';
const S3RVER_UNKNOWN_UPLOAD = 's3rver 3.7.1 answers 500 InternalError, not NoSuchUpload, for an unknown upload id';
const MOTO_UNKNOWN_UPLOAD = 'moto 5.2.1 answers an HTML 500 to CompleteMultipartUpload with an unknown upload id';

function s3Target(name: 's3rver' | 'moto', start: () => Promise<S3Emulator>, skip?: string): Target {
  return {
    name,
    ...(skip ? { skip } : {}),
    lacks:
      name === 's3rver'
        ? {
            listParts: S3RVER_LACKS,
            abort: S3RVER_LACKS,
            listUploads: S3RVER_LACKS,
            partChecks: S3RVER_NO_PART_CHECKS,
            unknownUpload: S3RVER_UNKNOWN_UPLOAD,
          }
        : { unknownUpload: MOTO_UNKNOWN_UPLOAD },
    async start() {
      const emulator = await start();
      // A key prefix ("default folder") so the suite also proves nothing escapes it.
      const driver = new S3Driver(emulator.driverOptions('contract-suite'));
      return {
        driver,
        async stop() {
          await driver.close();
          await emulator.stop();
        },
      };
    },
  };
}

const targets: Target[] = [
  {
    name: 'local',
    lacks: {},
    async start() {
      const root = mkdtempSync(path.join(tmpdir(), 'clipnest-driver-'));
      return {
        driver: new LocalDriver({ root }),
        root,
        stop: async () => rmSync(root, { recursive: true, force: true }),
      };
    },
  },
  s3Target('s3rver', () => startS3rver()),
  s3Target(
    'moto',
    () => startMoto(),
    motoAvailable()
      ? undefined
      : 'moto unavailable: python3 -m moto.server cannot run here (CI has it) or CLIPNEST_NO_MOTO=1',
  ),
];

// ---------- helpers ----------

function streamOf(data: string | Uint8Array): ReadableStream<Uint8Array> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.length > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** A generated stream of `total` bytes in 1 MiB chunks, hashing what it produces (never one buffer). */
function generated(total: number, chunk = 1024 * 1024): { stream: ReadableStream<Uint8Array>; digest(): string } {
  const hash = createHash('sha256');
  let sent = 0;
  let counter = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= total) {
          controller.close();
          return;
        }
        const n = Math.min(chunk, total - sent);
        const buf = Buffer.allocUnsafe(n);
        buf.fill(counter++ % 251);
        buf.writeUInt32BE(counter, 0);
        hash.update(buf);
        sent += n;
        controller.enqueue(buf);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, digest: () => hash.digest('hex') };
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

async function digestOf(stream: ReadableStream<Uint8Array>): Promise<{ bytes: number; hash: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, hash: hash.digest('hex') };
}

async function expectCode(promise: Promise<unknown>, code: StorageErrorCode): Promise<void> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected StorageError('${code}')`).toBeInstanceOf(StorageError);
  expect((err as StorageError).code).toBe(code);
}

async function names(driver: StorageDriver, dir: string): Promise<string[]> {
  const all: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await driver.list(dir, cursor ? { cursor } : {});
    all.push(...page.entries.map((e) => (e.isDir ? `${e.name}/` : e.name)));
    cursor = page.cursor;
  } while (cursor);
  return all;
}

async function readRange(driver: StorageDriver, p: string, range: ByteRange) {
  const r = await driver.read(p, { range });
  return { ...r, body: await text(r.stream) };
}

// ---------- the contract ----------

for (const target of targets) {
  const suite = target.skip ? describe.skip : describe;
  const title = target.skip
    ? `driver contract: ${target.name} (skipped: ${target.skip})`
    : `driver contract: ${target.name}`;

  suite(title, () => {
    let driver: StorageDriver;
    let stop: () => Promise<void>;
    let localRoot: string | undefined;
    let n = 0;
    /** A fresh directory name per test. */
    const dir = () => `t${++n}`;

    beforeAll(async () => {
      const started = await target.start();
      driver = started.driver;
      stop = started.stop;
      localRoot = started.root;
    }, 90_000);

    afterAll(async () => {
      await stop?.();
    }, 30_000);

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
      expect(await names(driver, d)).toEqual(['atomic.txt']);
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

    describe('multipart', () => {
      const FIVE_MIB = 5 * 1024 * 1024;
      const lack = (op: Lack) => target.lacks[op];

      async function uploadTwoParts(p: string) {
        const mp = driver.multipart!;
        const { uploadId } = await mp.start(p, { contentType: 'application/octet-stream' });
        expect(uploadId).toBeTruthy();
        const first = Buffer.alloc(Math.max(mp.minPartSize, FIVE_MIB), 'a');
        const second = Buffer.from('the end');
        // Out of order on purpose.
        const p2 = await mp.uploadPart(p, uploadId, 2, streamOf(second), { size: second.length });
        const p1 = await mp.uploadPart(p, uploadId, 1, streamOf(first), { size: first.length });
        expect(p1).toMatchObject({ partNumber: 1, size: first.length });
        expect(p1.etag).toMatch(/^".+"$/);
        const expected = createHash('sha256').update(first).update(second).digest('hex');
        return { uploadId, parts: [p1, p2], expected, size: first.length + second.length };
      }

      it('start, parts (out of order), complete → one file with the parts joined', async () => {
        const d = dir();
        const { uploadId, parts, expected, size } = await uploadTwoParts(`${d}/mp.bin`);
        const entry = await driver.multipart!.complete(`${d}/mp.bin`, uploadId, parts);
        expect(entry).toMatchObject({ size, isDir: false });
        expect(await digestOf((await driver.read(`${d}/mp.bin`)).stream)).toEqual({ bytes: size, hash: expected });
      });

      const skipNote = (op: Lack) => (lack(op) ? ` (skipped on ${target.name}: ${lack(op)})` : '');

      it.skipIf(lack('partChecks'))(
        `complete with a wrong ETag or a missing part → invalid_part, nothing written${skipNote('partChecks')}`,
        async () => {
          const d = dir();
          const { uploadId, parts } = await uploadTwoParts(`${d}/bad.bin`);
          const [p1, p2] = parts as [(typeof parts)[0], (typeof parts)[0]];
          await expectCode(
            driver.multipart!.complete(`${d}/bad.bin`, uploadId, [p1, { partNumber: 2, etag: '"0123456789abcdef"' }]),
            'invalid_part',
          );
          await expectCode(
            driver.multipart!.complete(`${d}/bad.bin`, uploadId, [p1, { ...p2, partNumber: 3 }]),
            'invalid_part',
          );
          await expectCode(driver.multipart!.complete(`${d}/bad.bin`, uploadId, [p2, p1]), 'invalid_part');
          await expectCode(driver.multipart!.complete(`${d}/bad.bin`, uploadId, []), 'invalid_part');
          await expectCode(driver.stat(`${d}/bad.bin`), 'not_found');
          // Still completable with the right list.
          expect((await driver.multipart!.complete(`${d}/bad.bin`, uploadId, parts)).size).toBe(FIVE_MIB + 7);
        },
      );

      const unknownChecks = (['unknownUpload', 'abort', 'listParts'] as const).filter((op) => !lack(op));
      it.runIf(unknownChecks.length > 0)(
        `an unknown upload id → not_found${lack('unknownUpload') ? ` (complete not checked on ${target.name}: ${lack('unknownUpload')})` : ''}`,
        async () => {
          const d = dir();
          const id = 'ffffffffffffffffffffffffffffffff';
          const mp = driver.multipart!;
          if (!lack('unknownUpload')) {
            await expectCode(mp.complete(`${d}/x.bin`, id, [{ partNumber: 1, etag: '"x"' }]), 'not_found');
          }
          if (!lack('abort')) await expectCode(mp.abort(`${d}/x.bin`, id), 'not_found');
          if (!lack('listParts')) await expectCode(mp.listParts(`${d}/x.bin`, id), 'not_found');
        },
      );

      it.skipIf(lack('listParts'))(
        `listParts answers the uploaded parts${lack('listParts') ? ` (skipped on ${target.name}: ${lack('listParts')})` : ''}`,
        async () => {
          const d = dir();
          const { uploadId, parts } = await uploadTwoParts(`${d}/lp.bin`);
          const listed = await driver.multipart!.listParts(`${d}/lp.bin`, uploadId);
          expect(listed.map((p) => [p.partNumber, p.etag, p.size])).toEqual(
            parts.map((p) => [p.partNumber, p.etag, p.size]),
          );
          await driver.multipart!.complete(`${d}/lp.bin`, uploadId, parts);
        },
      );

      it.skipIf(lack('abort'))(
        `abort drops the upload; complete afterwards fails${lack('abort') ? ` (skipped on ${target.name}: ${lack('abort')})` : ''}`,
        async () => {
          const d = dir();
          const { uploadId, parts } = await uploadTwoParts(`${d}/ab.bin`);
          await driver.multipart!.abort(`${d}/ab.bin`, uploadId);
          await expect(driver.multipart!.complete(`${d}/ab.bin`, uploadId, parts)).rejects.toBeInstanceOf(StorageError);
          await expectCode(driver.stat(`${d}/ab.bin`), 'not_found');
          await expectCode(driver.multipart!.abort(`${d}/ab.bin`, uploadId), 'not_found');
        },
      );

      it.skipIf(lack('listUploads'))(
        `listUploads shows unfinished uploads${lack('listUploads') ? ` (skipped on ${target.name}: ${lack('listUploads')})` : ''}`,
        async () => {
          const d = dir();
          const { uploadId } = await driver.multipart!.start(`${d}/pending.bin`);
          const uploads = await driver.multipart!.listUploads!();
          expect(uploads).toContainEqual(expect.objectContaining({ uploadId, path: `${d}/pending.bin` }));
        },
      );

      const lacking = (['listParts', 'abort', 'listUploads'] as const).filter((op) => lack(op));
      it.runIf(lacking.length > 0)(
        lacking.length > 0
          ? `degrades cleanly: ${lacking.join(', ')} → StorageError('unsupported') on ${target.name}`
          : `degrades cleanly (nothing lacking on ${target.name})`,
        async () => {
          const d = dir();
          const { uploadId, parts } = await uploadTwoParts(`${d}/deg.bin`);
          if (lack('listParts')) await expectCode(driver.multipart!.listParts(`${d}/deg.bin`, uploadId), 'unsupported');
          if (lack('listUploads')) await expectCode(driver.multipart!.listUploads!(), 'unsupported');
          if (lack('abort')) await expectCode(driver.multipart!.abort(`${d}/deg.bin`, uploadId), 'unsupported');
          // The upload is still whole and completable.
          expect((await driver.multipart!.complete(`${d}/deg.bin`, uploadId, parts)).size).toBe(FIVE_MIB + 7);
        },
      );

      it.runIf(target.name !== 'local')('presigned parts: the client PUTs straight to the backend', async () => {
        const d = dir();
        const mp = driver.multipart!;
        expect(mp.presignedParts).toBe(true);
        const { uploadId } = await mp.start(`${d}/direct.bin`);
        const bodies = [Buffer.alloc(FIVE_MIB, 'x'), Buffer.from('tail')];
        const parts = [];
        for (const [i, body] of bodies.entries()) {
          const url = await mp.signPart!(`${d}/direct.bin`, uploadId, i + 1, 300);
          const res = await fetch(url, { method: 'PUT', body });
          expect(res.status).toBe(200);
          const etag = res.headers.get('etag');
          expect(etag).toBeTruthy();
          parts.push({ partNumber: i + 1, etag: etag as string });
        }
        await mp.complete(`${d}/direct.bin`, uploadId, parts);
        const expected = createHash('sha256').update(bodies[0]!).update(bodies[1]!).digest('hex');
        expect((await digestOf((await driver.read(`${d}/direct.bin`)).stream)).hash).toBe(expected);
      });
    });

    it.runIf(target.name !== 'local')('presign: GET and PUT URLs work without the server', async () => {
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

    it.runIf(target.name !== 'local')(
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
      const before = process.memoryUsage().rss;
      let peak = before;
      const timer = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      let entry;
      try {
        entry = await driver.write(`${d}/big.bin`, source.stream, { size: total });
      } finally {
        clearInterval(timer);
      }
      const growthMb = (peak - before) / 1024 / 1024;
      console.log(`[${target.name}] 200 MB write: RSS growth ${growthMb.toFixed(1)} MB`);
      expect(entry.size).toBe(total);
      expect(growthMb).toBeLessThan(100);
      const readBefore = process.memoryUsage().rss;
      let readPeak = readBefore;
      const readTimer = setInterval(() => {
        readPeak = Math.max(readPeak, process.memoryUsage().rss);
      }, 20);
      try {
        const back = await digestOf((await driver.read(`${d}/big.bin`)).stream);
        expect(back).toEqual({ bytes: total, hash: source.digest() });
      } finally {
        clearInterval(readTimer);
      }
      expect((readPeak - readBefore) / 1024 / 1024).toBeLessThan(100);
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
}

describe('s3Emulator support: s3rver with open CORS (for presigned browser uploads)', () => {
  let emulator: S3Emulator;
  beforeAll(async () => {
    emulator = await startS3rver({ bucket: 'cors-bucket', cors: true });
  }, 60_000);
  afterAll(async () => {
    await emulator?.stop();
  });

  it('answers a preflight for PUT and exposes ETag on a presigned part upload', async () => {
    const driver = new S3Driver(emulator.driverOptions());
    try {
      const { uploadId } = await driver.multipart.start('browser.bin');
      const url = await driver.multipart.signPart!('browser.bin', uploadId, 1, 60);
      const preflight = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://127.0.0.1:5173',
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.status).toBe(200);
      expect(preflight.headers.get('access-control-allow-origin')).toBeTruthy();
      const put = await fetch(url, { method: 'PUT', body: 'part', headers: { origin: 'http://127.0.0.1:5173' } });
      expect(put.status).toBe(200);
      expect(put.headers.get('access-control-expose-headers') ?? '').toMatch(/etag/i);
      const etag = put.headers.get('etag') as string;
      expect((await driver.multipart.complete('browser.bin', uploadId, [{ partNumber: 1, etag }])).size).toBe(4);
    } finally {
      await driver.close();
    }
  });
});
