// Server-side copies of the S3 driver: CopyObject, UploadPartCopy above 5 GiB, a streamed GET → PUT where the
// backend mis-reads the copy source; and the copy of a whole tree (move = copy + delete).
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCopyCommand,
  type HeadObjectCommandOutput,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { isWithin } from '../paths.js';
import { StorageError } from '../types.js';
import type { S3Driver } from './driver.js';
import { mapS3Error } from './errors.js';
import { eachLimit, MiB } from './shared.js';

const MAX_COPY_SINGLE = 5 * 1024 * MiB;
const COPY_PART = 512 * MiB;

function encodeCopySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/** Server-side copy of one object (multipart UploadPartCopy above 5 GiB). */
export async function copyKey(d: S3Driver, from: string, to: string, size: number): Promise<void> {
  const CopySource = encodeCopySource(d.bucket, from);
  if (size <= MAX_COPY_SINGLE) {
    try {
      await d.send(new CopyObjectCommand({ Bucket: d.bucket, Key: to, CopySource }), to);
    } catch (err) {
      // The caller has just seen the source: a backend that mis-decodes x-amz-copy-source (s3rver
      // decodes it with decodeURI, so `+ & #` and friends never match) gets a streamed copy instead.
      if (!(err instanceof StorageError && err.code === 'not_found')) throw err;
      await streamCopyKey(d, from, to, size);
    }
    return;
  }
  const head = await d.send<HeadObjectCommandOutput>(new HeadObjectCommand({ Bucket: d.bucket, Key: from }));
  const created = await d.send<{ UploadId?: string }>(
    new CreateMultipartUploadCommand({
      Bucket: d.bucket,
      Key: to,
      ...(head.ContentType ? { ContentType: head.ContentType } : {}),
    }),
    to,
  );
  const UploadId = created.UploadId as string;
  try {
    const parts: Array<{ PartNumber: number; ETag?: string }> = [];
    const ranges: Array<{ n: number; start: number; end: number }> = [];
    for (let start = 0, n = 1; start < size; start += COPY_PART, n++) {
      ranges.push({ n, start, end: Math.min(start + COPY_PART, size) - 1 });
    }
    await eachLimit(ranges, 4, async ({ n, start, end }) => {
      const out = await d.send<{ CopyPartResult?: { ETag?: string } }>(
        new UploadPartCopyCommand({
          Bucket: d.bucket,
          Key: to,
          UploadId,
          PartNumber: n,
          CopySource,
          CopySourceRange: `bytes=${start}-${end}`,
        }),
        to,
      );
      parts.push({ PartNumber: n, ETag: out.CopyPartResult?.ETag });
    });
    parts.sort((a, b) => a.PartNumber - b.PartNumber);
    await d.send(
      new CompleteMultipartUploadCommand({
        Bucket: d.bucket,
        Key: to,
        UploadId,
        MultipartUpload: { Parts: parts },
      }),
      to,
    );
  } catch (err) {
    await d.client
      .send(new AbortMultipartUploadCommand({ Bucket: d.bucket, Key: to, UploadId }))
      .catch(() => undefined);
    throw mapS3Error(err, to);
  }
}

/** GET → PUT through this process (Content-Length known, so nothing is buffered). */
async function streamCopyKey(d: S3Driver, from: string, to: string, size: number): Promise<void> {
  const out = await d.send<{ Body?: Readable; ContentType?: string }>(
    new GetObjectCommand({ Bucket: d.bucket, Key: from }),
    from,
  );
  const Body = out.Body as Readable;
  try {
    await d.send(
      new PutObjectCommand({
        Bucket: d.bucket,
        Key: to,
        Body,
        ContentLength: size,
        ...(out.ContentType ? { ContentType: out.ContentType } : {}),
      }),
      to,
    );
  } finally {
    Body.destroy();
  }
}

/** Copies a file or a directory tree; answers the source keys (for move). */
export async function copyTree(d: S3Driver, from: string, to: string, overwrite: boolean): Promise<string[]> {
  if (from === '' || to === '') throw new StorageError('invalid_path', 'cannot move or copy the root');
  if (from !== to && isWithin(to, from)) {
    throw new StorageError('invalid_path', 'cannot move or copy a directory into itself', { path: to });
  }
  const src = await d.stat(from);
  if (from === to) return [];
  const dest = await d.stat(to).catch((err: unknown) => {
    if (err instanceof StorageError && err.code === 'not_found') return null;
    throw err;
  });
  if (dest) {
    if (!overwrite) throw new StorageError('exists', 'already exists', { path: to });
    if (dest.isDir || src.isDir) await d.remove(to, { recursive: true });
  }
  if (!src.isDir) {
    await copyKey(d, d.key(from), d.key(to), src.size);
    return [d.key(from)];
  }
  const fromPrefix = d.dirKey(from);
  const toPrefix = d.dirKey(to);
  const objects: Array<{ key: string; size: number }> = [];
  for await (const object of d.keysUnder(from)) objects.push(object);
  await eachLimit(objects, 8, async ({ key, size }) => {
    await copyKey(d, key, toPrefix + key.slice(fromPrefix.length), size);
  });
  return objects.map((o) => o.key);
}
