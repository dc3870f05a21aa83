// Bytes in and out of the S3 driver: ranged GetObject reads and streamed writes (one PUT or lib-storage's Upload).
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { pipeline, type Readable } from 'node:stream';
import { ByteMeter, nodeFromBody, resolveRange, sliceNode, webFromNode } from '../streams.js';
import {
  StorageError,
  type Entry,
  type ReadOptions,
  type ReadResult,
  type WriteBody,
  type WriteOptions,
} from '../types.js';
import type { S3Driver } from './driver.js';
import { mapS3Error } from './errors.js';
import { MiB, quoteEtag } from './shared.js';

/** S3's limit for one PutObject. */
const MAX_SINGLE_PUT = 5 * 1024 * MiB;

export async function readObject(d: S3Driver, path: string, opts: ReadOptions = {}): Promise<ReadResult> {
  if (path === '') throw new StorageError('is_a_directory', 'is a directory', { path });
  let rangeHeader: string | undefined;
  let wanted: { start: number; end: number } | undefined;
  if (opts.range) {
    // Resolve against the real size first, so every backend answers the same edge cases.
    const head = await d.head(path, opts.signal);
    if (!head) {
      if (await d.isDir(path)) throw new StorageError('is_a_directory', 'is a directory', { path });
      throw new StorageError('not_found', 'not found', { path });
    }
    wanted = resolveRange(opts.range, head.ContentLength ?? 0, path);
    rangeHeader = `bytes=${wanted.start}-${wanted.end}`;
  }
  let out;
  try {
    out = await d.client.send(
      new GetObjectCommand({
        Bucket: d.bucket,
        Key: d.key(path),
        ...(rangeHeader ? { Range: rangeHeader } : {}),
      }),
      { abortSignal: opts.signal },
    );
  } catch (err) {
    const mapped = mapS3Error(err, path);
    if (mapped.code === 'not_found' && (await d.isDir(path))) {
      throw new StorageError('is_a_directory', 'is a directory', { path });
    }
    throw mapped;
  }
  let body = out.Body as Readable | undefined;
  let contentLength = out.ContentLength ?? 0;
  let size = contentLength;
  let range: { start: number; end: number } | undefined;
  if (wanted) {
    // What the backend actually sent: its Content-Range, or the whole object when it ignored Range.
    const m = /bytes (\d+)-(\d+)\/(\d+|\*)/.exec(out.ContentRange ?? '');
    const sent = m ? { start: Number(m[1]), end: Number(m[2]) } : { start: 0, end: contentLength - 1 };
    if (m && m[3] !== '*') size = Number(m[3]);
    else if (!m) size = contentLength;
    if (sent.start > wanted.start || sent.end < wanted.end) {
      body?.destroy();
      throw new StorageError('io', 'the backend answered a different range', { path });
    }
    if (body && (sent.start !== wanted.start || sent.end !== wanted.end)) {
      body = sliceNode(body, wanted.start - sent.start, wanted.end - wanted.start + 1);
    }
    range = wanted;
    contentLength = wanted.end - wanted.start + 1;
  }
  const stream = body
    ? webFromNode(body, (err) => mapS3Error(err, path))
    : new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  if (opts.signal && body) {
    const b = body;
    opts.signal.addEventListener('abort', () => b.destroy(new StorageError('aborted', 'aborted', { path })), {
      once: true,
    });
  }
  return {
    stream,
    size,
    contentLength,
    ...(range ? { range } : {}),
    ...(out.ETag ? { etag: quoteEtag(out.ETag) } : {}),
    ...(out.LastModified ? { lastModified: out.LastModified } : {}),
    ...(out.ContentType ? { contentType: out.ContentType } : {}),
  };
}

export async function writeObject(d: S3Driver, path: string, body: WriteBody, opts: WriteOptions = {}): Promise<Entry> {
  const source = nodeFromBody(body);
  try {
    if (path === '') throw new StorageError('invalid_path', 'cannot write to the root', { path });
    const [existing, dir] = await Promise.all([
      opts.overwrite === false ? d.head(path) : Promise.resolve(null),
      d.isDir(path),
    ]);
    if (dir) throw new StorageError('is_a_directory', 'a directory has this name', { path });
    if (existing) throw new StorageError('exists', 'already exists', { path });
    if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path });
    const meter = new ByteMeter({ size: opts.size, maxBytes: opts.maxBytes, path });
    let streamError: unknown;
    // A single PUT does not notice its body failing (the SDK pipes it): such a failure aborts the request.
    const sending = new AbortController();
    const metered = pipeline(source, meter, (err) => {
      if (!err) return;
      streamError = err;
      sending.abort();
    });
    const params = {
      Bucket: d.bucket,
      Key: d.key(path),
      Body: metered,
      ...(opts.contentType ? { ContentType: opts.contentType } : {}),
    };
    let done: Promise<unknown>;
    let onAbort: () => void;
    // A known size streams in one PUT: no part buffers in memory, and the bytes cross once. Only for new
    // keys: some backends (s3rver) keep a cut-off PUT's bytes, so a failure must be cleaned up by a delete.
    const single = opts.size !== undefined && opts.size <= MAX_SINGLE_PUT && opts.overwrite === false;
    if (single) {
      done = d.client.send(new PutObjectCommand({ ...params, ContentLength: opts.size }), {
        abortSignal: sending.signal,
      });
      onAbort = () => {
        sending.abort();
        source.destroy();
      };
    } else {
      const upload = new Upload({
        client: d.client,
        params,
        // Known sizes get parts big enough to stay under 10,000 parts (S3's limit).
        partSize: opts.size !== undefined ? Math.max(d.partSize, Math.ceil(opts.size / 9_000)) : d.partSize,
        queueSize: d.queueSize,
        leavePartsOnError: false,
      });
      done = upload.done();
      onAbort = () => {
        void upload.abort().catch(() => undefined);
        source.destroy();
      };
    }
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await done;
    } catch (err) {
      if (single) await removeCutOffPut(d, path);
      if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path, cause: err });
      throw mapS3Error(streamError ?? err, path);
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
    }
    if (streamError) throw mapS3Error(streamError, path);
  } catch (err) {
    source.destroy();
    throw mapS3Error(err, path);
  }
  return d.stat(path);
}

/**
 * Deletes what a cut-off single PUT may have left. s3rver stores the bytes it got, at times after the
 * client has given up, so the delete is repeated until the key stays gone (failure path only).
 */
async function removeCutOffPut(d: S3Driver, path: string): Promise<void> {
  const Key = d.key(path);
  for (let attempt = 0; attempt < 4; attempt++) {
    await d.client.send(new DeleteObjectCommand({ Bucket: d.bucket, Key })).catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    if (!(await d.head(path).catch(() => null))) return;
  }
}
