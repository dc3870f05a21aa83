// Driver contract suite, multipart part: start, parts, list, complete, abort and uploads on every driver
// (targets and helpers in support/driverContract.ts); and the s3rver emulator's CORS for browser part uploads.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Driver, StorageError, type StorageDriver } from '../src/storage/index.js';
import { describeTargets, digestOf, expectCode, streamOf, type Lack } from './support/driverContract.js';
import { startS3rver, type S3Emulator } from './support/s3Emulator.js';

describeTargets((target, ctx) => {
  let driver: StorageDriver;
  const dir = ctx.dir;
  beforeAll(() => {
    driver = ctx.driver;
  });

  describe.skipIf(target.noMultipart !== undefined)(
    `multipart${target.noMultipart ? ` (skipped: ${target.noMultipart})` : ''}`,
    () => {
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

      it.runIf(target.s3 === true)('presigned parts: the client PUTs straight to the backend', async () => {
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
    },
  );
});

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
