// S3-compatible driver (AWS, R2, B2, MinIO, OSS, s3rver, moto) on @aws-sdk/client-s3.
//
// - Keys are `<prefix>/<path>`; directories are key prefixes (plus an empty `dir/` marker object that
//   mkdir writes so an empty directory can exist). list uses Delimiter '/' and the continuation token
//   as cursor.
// - Checksums 'WHEN_REQUIRED' both ways (TOOLING.md): with the SDK default a streamed body goes out
//   aws-chunked and emulators store the framing verbatim.
// - Writes of known length stream in one PutObject (up to 5 GiB);
//   writes of unknown length go through lib-storage's Upload (multipart above one part, at most
//   (queueSize + 1) × partSize bytes in memory); a failed, oversize or aborted write leaves no object.
// - move = copy + delete; copy = CopyObject (UploadPartCopy above 5 GiB); recursive remove = batched
//   DeleteObjects.
// - Multipart for clients: CreateMultipartUpload, presigned UploadPart, ListParts, Complete, Abort.
//   Backends without ListParts / Abort / ListMultipartUploads (s3rver) → StorageError('unsupported').
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
  type HeadObjectCommandOutput,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { pipeline, type Readable } from 'node:stream';
import { assertNormalized, baseName, isWithin, normalizePath } from '../paths.js';
import {
  ByteMeter,
  isAbortError,
  nodeFromBody,
  nodeFromWeb,
  resolveRange,
  sliceNode,
  webFromNode,
} from '../streams.js';
import { PartUrlSigner, partUrlTemplate, type PartUrlTemplate } from './partUrlSigner.js';
import {
  StorageError,
  type Entry,
  type ListPage,
  type ListResult,
  type MultipartCapability,
  type MultipartStartOptions,
  type MultipartUploadInfo,
  type PresignOptions,
  type ReadOptions,
  type ReadResult,
  type StorageDriver,
  type UploadedPart,
  type WriteOptions,
  type WriteBody,
} from '../types.js';

export interface S3DriverOptions {
  /** e.g. https://s3.us-east-1.amazonaws.com, https://<account>.r2.cloudflarestorage.com, http://127.0.0.1:9000 */
  endpoint?: string;
  /** Default 'us-east-1' (R2 wants 'auto'). */
  region?: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (http://host/bucket/key): emulators, MinIO and most self-hosted S3. */
  forcePathStyle?: boolean;
  /** Key prefix ("default folder") every path lives under; '' for the bucket root. */
  prefix?: string;
  /** Part size of streamed writes (default 8 MiB, at least 5 MiB). */
  partSize?: number;
  /** Parts of one streamed write in flight (default 2). */
  queueSize?: number;
  /** TCP connect timeout (default 10 s). */
  connectionTimeoutMs?: number;
  /** How the client's sockets resolve host names (the app refuses metadata addresses here). */
  lookup?: LookupFunction;
}

const MiB = 1024 * 1024;
const MAX_LIST = 1000;
const MAX_COPY_SINGLE = 5 * 1024 * MiB;
const SILENT_LOGGER = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
/** S3's limit for one PutObject. */
const MAX_SINGLE_PUT = 5 * 1024 * MiB;
const COPY_PART = 512 * MiB;
const MAX_PRESIGN_TTL = 7 * 24 * 3600;
/** An UploadPart of unknown length is buffered (S3 needs Content-Length); above this it is refused. */
const MAX_BUFFERED_PART = 64 * MiB;

interface S3ErrorLike {
  name?: string;
  code?: string;
  Code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

/** Maps SDK / network errors to StorageError. */
export function mapS3Error(err: unknown, path?: string): StorageError {
  if (err instanceof StorageError) return err;
  if (isAbortError(err)) return new StorageError('aborted', 'aborted', { path, cause: err });
  const e = (err ?? {}) as S3ErrorLike;
  const name = e.name ?? e.Code ?? '';
  const status = e.$metadata?.httpStatusCode;
  const message = e.message && e.message !== 'UnknownError' ? e.message : name || `HTTP ${status ?? '?'}`;
  const make = (code: StorageError['code'], text = message) => new StorageError(code, text, { path, cause: err });
  switch (name) {
    case 'NoSuchKey':
    case 'NotFound':
    case 'NoSuchUpload':
      return make('not_found', name === 'NoSuchUpload' ? 'no such upload' : 'not found');
    case 'NoSuchBucket':
      return make('unavailable', 'the bucket does not exist');
    case 'InvalidRange':
      return make('range');
    case 'InvalidPart':
    case 'InvalidPartOrder':
    case 'EntityTooSmall':
      return make('invalid_part');
    case 'EntityTooLarge':
      return make('too_large');
    case 'AccessDenied':
    case 'InvalidAccessKeyId':
    case 'SignatureDoesNotMatch':
    case 'AuthorizationHeaderMalformed':
    case 'InvalidToken':
    case 'ExpiredToken':
      return make('denied');
    case 'NotImplemented':
    case 'MethodNotAllowed':
      return make('unsupported');
    case 'TimeoutError':
    case 'RequestTimeout':
    case 'SlowDown':
    case 'ServiceUnavailable':
    case 'InternalError':
      return make('unavailable');
  }
  const code = e.code ?? '';
  if (['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE'].includes(code)) {
    return make('unavailable', `storage unreachable: ${code}`);
  }
  if (status === 404) return make('not_found', 'not found');
  if (status === 416) return make('range');
  if (status === 403 || status === 401) return make('denied');
  if (status === 405 || status === 501) return make('unsupported');
  if (status !== undefined && status >= 500) return make('unavailable');
  return make('io');
}

function encodeCopySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

function quoteEtag(etag: string | undefined): string | undefined {
  if (!etag) return undefined;
  return etag.startsWith('"') || etag.startsWith('W/') ? etag : `"${etag}"`;
}

function unquote(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"|"$/g, '');
}

/** Runs `fn` over `items` with at most `limit` in flight. */
async function eachLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  });
  await Promise.all(workers);
}

export class S3Driver implements StorageDriver {
  readonly kind = 's3';
  readonly client: S3Client;
  readonly bucket: string;
  /** '' or 'folder/' (normalised, with the trailing slash). */
  readonly prefix: string;
  readonly multipart: MultipartCapability;
  private readonly partSize: number;
  private readonly queueSize: number;

  constructor(options: S3DriverOptions) {
    if (!options.bucket) throw new StorageError('invalid_path', 's3 driver needs a bucket');
    this.bucket = options.bucket;
    const prefix = normalizePath(options.prefix ?? '');
    this.prefix = prefix === '' ? '' : `${prefix}/`;
    this.partSize = Math.max(5 * MiB, options.partSize ?? 8 * MiB);
    this.queueSize = Math.max(1, options.queueSize ?? 2);
    this.client = new S3Client({
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      region: options.region || 'us-east-1',
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      requestHandler: {
        connectionTimeout: options.connectionTimeoutMs ?? 10_000,
        // The SDK's own agent settings (keep-alive, 50 sockets), plus the resolver when one is given.
        ...(options.lookup
          ? {
              httpAgent: new http.Agent({ keepAlive: true, maxSockets: 50, lookup: options.lookup }),
              httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 50, lookup: options.lookup }),
            }
          : {}),
      },
      // Every failure reaches the caller as a StorageError; the SDK's own console notes would only repeat it.
      logger: SILENT_LOGGER,
    });
    this.multipart = new S3Multipart(
      this,
      new PartUrlSigner({ accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }),
    );
  }

  /** Object key of a driver path. */
  key(path: string): string {
    assertNormalized(path);
    return this.prefix + path;
  }

  /** Key prefix of a directory ('folder/dir/'; the driver prefix for the root). */
  dirKey(path: string): string {
    assertNormalized(path);
    return path === '' ? this.prefix : `${this.prefix}${path}/`;
  }

  private pathOfKey(key: string): string | null {
    if (!key.startsWith(this.prefix)) return null;
    const rest = key.slice(this.prefix.length).replace(/\/$/, '');
    try {
      return normalizePath(rest) === rest ? rest : null; // keys our paths cannot address are not listed
    } catch {
      return null;
    }
  }

  private fileEntry(
    path: string,
    head: Pick<HeadObjectCommandOutput, 'ContentLength' | 'LastModified' | 'ETag' | 'ContentType'>,
  ): Entry {
    return {
      path,
      name: baseName(path),
      isDir: false,
      size: head.ContentLength ?? 0,
      ...(head.LastModified ? { lastModified: head.LastModified } : {}),
      ...(head.ETag ? { etag: quoteEtag(head.ETag) } : {}),
      ...(head.ContentType ? { contentType: head.ContentType } : {}),
    };
  }

  private dirEntry(path: string): Entry {
    return { path, name: baseName(path), isDir: true, size: 0 };
  }

  /** HEAD of the file at `path`, or null when there is none. */
  async head(path: string, signal?: AbortSignal): Promise<HeadObjectCommandOutput | null> {
    if (path === '') return null;
    try {
      return await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(path) }), {
        abortSignal: signal,
      });
    } catch (err) {
      const mapped = mapS3Error(err, path);
      if (mapped.code === 'not_found') return null;
      throw mapped;
    }
  }

  /** true when any key lies below the directory `path` (its marker included). */
  async isDir(path: string): Promise<boolean> {
    if (path === '') return true;
    const out = await this.send<ListObjectsV2CommandOutput>(
      new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.dirKey(path), MaxKeys: 1 }),
      path,
    );
    return (out.KeyCount ?? out.Contents?.length ?? 0) > 0 || (out.CommonPrefixes?.length ?? 0) > 0;
  }

  /** client.send with error mapping. */
  async send<T = unknown>(command: object, path?: string, signal?: AbortSignal): Promise<T> {
    try {
      return (await this.client.send(command as never, { abortSignal: signal })) as T;
    } catch (err) {
      throw mapS3Error(err, path);
    }
  }

  async stat(path: string): Promise<Entry> {
    if (path === '') return this.dirEntry('');
    const head = await this.head(path);
    if (head) return this.fileEntry(path, head);
    if (await this.isDir(path)) return this.dirEntry(path);
    throw new StorageError('not_found', 'not found', { path });
  }

  /**
   * One page of a directory. The cursor is our own (the last key of the page, for StartAfter) rather
   * than the backend's continuation token, so a page is never longer than `limit` even on backends
   * that count only objects, not common prefixes, against MaxKeys (s3rver).
   */
  async list(dir: string, page: ListPage = {}): Promise<ListResult> {
    const prefix = this.dirKey(dir);
    const limit = Math.max(1, Math.min(page.limit ?? MAX_LIST, MAX_LIST));
    let startAfter: string | undefined;
    if (page.cursor) {
      startAfter = Buffer.from(page.cursor, 'base64url').toString('utf8');
      if (!startAfter.startsWith(prefix)) throw new StorageError('invalid_path', 'bad list cursor', { path: dir });
    }
    const out = await this.send<ListObjectsV2CommandOutput>(
      new ListObjectsV2Command({
        Bucket: this.bucket,
        Prefix: prefix,
        Delimiter: '/',
        MaxKeys: limit,
        ...(startAfter ? { StartAfter: startAfter } : {}),
      }),
      dir,
    );
    const contents = out.Contents ?? [];
    const prefixes = out.CommonPrefixes ?? [];
    if (!page.cursor && dir !== '' && contents.length === 0 && prefixes.length === 0) {
      if (await this.head(dir)) throw new StorageError('not_a_directory', 'not a directory', { path: dir });
      throw new StorageError('not_found', 'not found', { path: dir });
    }
    // Every key of the answer in key order; entries our paths cannot address (or the dir marker) are null.
    const raw: Array<{ key: string; cursorKey: string; entry: Entry | null }> = [];
    for (const object of contents) {
      if (!object.Key) continue;
      const path = object.Key === prefix || object.Key.endsWith('/') ? null : this.pathOfKey(object.Key);
      raw.push({
        key: object.Key,
        cursorKey: object.Key,
        entry:
          path === null
            ? null
            : this.fileEntry(path, {
                ContentLength: object.Size,
                LastModified: object.LastModified,
                ETag: object.ETag,
              }),
      });
    }
    for (const common of prefixes) {
      if (!common.Prefix) continue;
      const path = this.pathOfKey(common.Prefix);
      // StartAfter past everything below this prefix.
      raw.push({
        key: common.Prefix,
        cursorKey: `${common.Prefix}\u{10FFFF}`,
        entry: path ? this.dirEntry(path) : null,
      });
    }
    raw.sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
    const taken = raw.slice(0, limit);
    const entries = taken.map((r) => r.entry).filter((e): e is Entry => e !== null);
    const last = taken[taken.length - 1];
    const more = Boolean(out.IsTruncated) || raw.length > limit;
    return more && last ? { entries, cursor: Buffer.from(last.cursorKey, 'utf8').toString('base64url') } : { entries };
  }

  async read(path: string, opts: ReadOptions = {}): Promise<ReadResult> {
    if (path === '') throw new StorageError('is_a_directory', 'is a directory', { path });
    let rangeHeader: string | undefined;
    let wanted: { start: number; end: number } | undefined;
    if (opts.range) {
      // Resolve against the real size first, so every backend answers the same edge cases.
      const head = await this.head(path, opts.signal);
      if (!head) {
        if (await this.isDir(path)) throw new StorageError('is_a_directory', 'is a directory', { path });
        throw new StorageError('not_found', 'not found', { path });
      }
      wanted = resolveRange(opts.range, head.ContentLength ?? 0, path);
      rangeHeader = `bytes=${wanted.start}-${wanted.end}`;
    }
    let out;
    try {
      out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.key(path),
          ...(rangeHeader ? { Range: rangeHeader } : {}),
        }),
        { abortSignal: opts.signal },
      );
    } catch (err) {
      const mapped = mapS3Error(err, path);
      if (mapped.code === 'not_found' && (await this.isDir(path))) {
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

  async write(path: string, body: WriteBody, opts: WriteOptions = {}): Promise<Entry> {
    const source = nodeFromBody(body);
    try {
      if (path === '') throw new StorageError('invalid_path', 'cannot write to the root', { path });
      const [existing, dir] = await Promise.all([
        opts.overwrite === false ? this.head(path) : Promise.resolve(null),
        this.isDir(path),
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
        Bucket: this.bucket,
        Key: this.key(path),
        Body: metered,
        ...(opts.contentType ? { ContentType: opts.contentType } : {}),
      };
      let done: Promise<unknown>;
      let onAbort: () => void;
      // A known size streams in one PUT: no part buffers in memory, and the bytes cross once. Only for new
      // keys: some backends (s3rver) keep a cut-off PUT's bytes, so a failure must be cleaned up by a delete.
      const single = opts.size !== undefined && opts.size <= MAX_SINGLE_PUT && opts.overwrite === false;
      if (single) {
        done = this.client.send(new PutObjectCommand({ ...params, ContentLength: opts.size }), {
          abortSignal: sending.signal,
        });
        onAbort = () => {
          sending.abort();
          source.destroy();
        };
      } else {
        const upload = new Upload({
          client: this.client,
          params,
          // Known sizes get parts big enough to stay under 10,000 parts (S3's limit).
          partSize: opts.size !== undefined ? Math.max(this.partSize, Math.ceil(opts.size / 9_000)) : this.partSize,
          queueSize: this.queueSize,
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
        if (single) await this.removeCutOffPut(path);
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
    return this.stat(path);
  }

  /**
   * Deletes what a cut-off single PUT may have left. s3rver stores the bytes it got, at times after the
   * client has given up, so the delete is repeated until the key stays gone (failure path only).
   */
  private async removeCutOffPut(path: string): Promise<void> {
    const Key = this.key(path);
    for (let attempt = 0; attempt < 4; attempt++) {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key })).catch(() => null);
      await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      if (!(await this.head(path).catch(() => null))) return;
    }
  }

  async mkdir(path: string): Promise<void> {
    if (path === '') return;
    if (await this.head(path)) throw new StorageError('exists', 'a file has this name', { path });
    await this.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: this.dirKey(path), Body: new Uint8Array(0), ContentLength: 0 }),
      path,
    );
  }

  /** Every key below a directory (its marker included), page by page. */
  async *keysUnder(path: string): AsyncGenerator<{ key: string; size: number }> {
    let token: string | undefined;
    do {
      const out = await this.send<ListObjectsV2CommandOutput>(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.dirKey(path),
          MaxKeys: MAX_LIST,
          ...(token ? { ContinuationToken: token } : {}),
        }),
        path,
      );
      for (const o of out.Contents ?? []) if (o.Key) yield { key: o.Key, size: o.Size ?? 0 };
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  }

  /** Deletes keys in batches of 1000 (DeleteObjects), one by one where the backend lacks it. */
  async deleteKeys(keys: string[], path?: string): Promise<void> {
    for (let i = 0; i < keys.length; i += MAX_LIST) {
      const batch = keys.slice(i, i + MAX_LIST);
      try {
        const out = await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
        if (failed.length > 0) {
          throw new StorageError('io', `could not delete ${failed.length} objects: ${failed[0]?.Message ?? ''}`, {
            path,
          });
        }
      } catch (err) {
        const mapped = mapS3Error(err, path);
        if (mapped.code !== 'unsupported') throw mapped;
        await eachLimit(batch, 8, async (Key) => {
          await this.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }), path);
        });
      }
    }
  }

  async remove(path: string, opts: { recursive?: boolean } = {}): Promise<void> {
    if (path === '') throw new StorageError('invalid_path', 'cannot remove the root', { path });
    if (await this.head(path)) {
      await this.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(path) }), path);
      return;
    }
    const marker = this.dirKey(path);
    const keys: string[] = [];
    for await (const { key } of this.keysUnder(path)) {
      if (!opts.recursive && key !== marker) throw new StorageError('not_empty', 'directory not empty', { path });
      keys.push(key);
    }
    if (keys.length === 0) throw new StorageError('not_found', 'not found', { path });
    await this.deleteKeys(keys, path);
  }

  /** Server-side copy of one object (multipart UploadPartCopy above 5 GiB). */
  async copyKey(from: string, to: string, size: number): Promise<void> {
    const CopySource = encodeCopySource(this.bucket, from);
    if (size <= MAX_COPY_SINGLE) {
      try {
        await this.send(new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource }), to);
      } catch (err) {
        // The caller has just seen the source: a backend that mis-decodes x-amz-copy-source (s3rver
        // decodes it with decodeURI, so `+ & #` and friends never match) gets a streamed copy instead.
        if (!(err instanceof StorageError && err.code === 'not_found')) throw err;
        await this.streamCopyKey(from, to, size);
      }
      return;
    }
    const head = await this.send<HeadObjectCommandOutput>(new HeadObjectCommand({ Bucket: this.bucket, Key: from }));
    const created = await this.send<{ UploadId?: string }>(
      new CreateMultipartUploadCommand({
        Bucket: this.bucket,
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
        const out = await this.send<{ CopyPartResult?: { ETag?: string } }>(
          new UploadPartCopyCommand({
            Bucket: this.bucket,
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
      await this.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: to,
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
        to,
      );
    } catch (err) {
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: to, UploadId }))
        .catch(() => undefined);
      throw mapS3Error(err, to);
    }
  }

  /** GET → PUT through this process (Content-Length known, so nothing is buffered). */
  private async streamCopyKey(from: string, to: string, size: number): Promise<void> {
    const out = await this.send<{ Body?: Readable; ContentType?: string }>(
      new GetObjectCommand({ Bucket: this.bucket, Key: from }),
      from,
    );
    const Body = out.Body as Readable;
    try {
      await this.send(
        new PutObjectCommand({
          Bucket: this.bucket,
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
  private async copyTree(from: string, to: string, overwrite: boolean): Promise<string[]> {
    if (from === '' || to === '') throw new StorageError('invalid_path', 'cannot move or copy the root');
    if (from !== to && isWithin(to, from)) {
      throw new StorageError('invalid_path', 'cannot move or copy a directory into itself', { path: to });
    }
    const src = await this.stat(from);
    if (from === to) return [];
    const dest = await this.stat(to).catch((err: unknown) => {
      if (err instanceof StorageError && err.code === 'not_found') return null;
      throw err;
    });
    if (dest) {
      if (!overwrite) throw new StorageError('exists', 'already exists', { path: to });
      if (dest.isDir || src.isDir) await this.remove(to, { recursive: true });
    }
    if (!src.isDir) {
      await this.copyKey(this.key(from), this.key(to), src.size);
      return [this.key(from)];
    }
    const fromPrefix = this.dirKey(from);
    const toPrefix = this.dirKey(to);
    const objects: Array<{ key: string; size: number }> = [];
    for await (const object of this.keysUnder(from)) objects.push(object);
    await eachLimit(objects, 8, async ({ key, size }) => {
      await this.copyKey(key, toPrefix + key.slice(fromPrefix.length), size);
    });
    return objects.map((o) => o.key);
  }

  async move(from: string, to: string, opts: { overwrite?: boolean } = {}): Promise<void> {
    const sources = await this.copyTree(from, to, opts.overwrite ?? false);
    await this.deleteKeys(sources, from);
  }

  async copy(from: string, to: string, opts: { overwrite?: boolean } = {}): Promise<void> {
    await this.copyTree(from, to, opts.overwrite ?? false);
  }

  async presign(path: string, op: 'get' | 'put', ttlSeconds: number, opts: PresignOptions = {}): Promise<string> {
    if (path === '') throw new StorageError('invalid_path', 'cannot presign the root', { path });
    const expiresIn = Math.max(1, Math.min(Math.floor(ttlSeconds), MAX_PRESIGN_TTL));
    const command =
      op === 'get'
        ? new GetObjectCommand({
            Bucket: this.bucket,
            Key: this.key(path),
            ...(opts.contentDisposition ? { ResponseContentDisposition: opts.contentDisposition } : {}),
            ...(opts.contentType ? { ResponseContentType: opts.contentType } : {}),
          })
        : new PutObjectCommand({
            Bucket: this.bucket,
            Key: this.key(path),
            ...(opts.contentType ? { ContentType: opts.contentType } : {}),
            ...(opts.contentLength !== undefined ? { ContentLength: opts.contentLength } : {}),
          });
    // The presigner leaves Content-Type unsigned by default and signs only headers the request carries:
    // naming both makes S3 refuse a PUT whose length or type differs from the announced ones.
    const signableHeaders = new Set<string>();
    if (op === 'put' && opts.contentType) signableHeaders.add('content-type');
    if (op === 'put' && opts.contentLength !== undefined) signableHeaders.add('content-length');
    try {
      return await getSignedUrl(this.client, command, { expiresIn, signableHeaders });
    } catch (err) {
      throw mapS3Error(err, path);
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

/** Reads a whole (small) stream into memory, refusing more than `max` bytes. */
async function bufferPart(source: Readable, max: number, path: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of source) {
    total += (chunk as Buffer).length;
    if (total > max) {
      throw new StorageError('too_large', `a part of unknown length may be at most ${max} bytes`, { path });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Uploads whose part URL template is kept (one SDK-signed URL each; the oldest are dropped). */
const MAX_PART_TEMPLATES = 256;

class S3Multipart implements MultipartCapability {
  readonly minPartSize = 5 * MiB;
  readonly maxParts = 10_000;
  readonly presignedParts = true;
  /** key + uploadId → the first SDK-signed part URL, re-signed for the other parts (partUrlSigner.ts). */
  private readonly templates = new Map<string, PartUrlTemplate | null>();

  constructor(
    private readonly d: S3Driver,
    private readonly signer: PartUrlSigner,
  ) {}

  private forgetTemplates(path: string, uploadId: string): void {
    for (const variant of ['', 'length']) this.templates.delete(`${this.d.key(path)}\n${uploadId}\n${variant}`);
  }

  private check(path: string, uploadId: string): void {
    assertNormalized(path);
    if (path === '') throw new StorageError('invalid_path', 'cannot write to the root', { path });
    if (!uploadId || uploadId.length > 1024) throw new StorageError('not_found', 'no such upload', { path });
  }

  private checkPartNumber(path: string, partNumber: number): void {
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > this.maxParts) {
      throw new StorageError('invalid_part', `part number must be 1..${this.maxParts}`, { path });
    }
  }

  async start(path: string, opts: MultipartStartOptions = {}): Promise<{ uploadId: string }> {
    assertNormalized(path);
    if (path === '') throw new StorageError('invalid_path', 'cannot write to the root', { path });
    const [existing, dir] = await Promise.all([
      opts.overwrite === false ? this.d.head(path) : Promise.resolve(null),
      this.d.isDir(path),
    ]);
    if (dir) throw new StorageError('is_a_directory', 'a directory has this name', { path });
    if (existing) throw new StorageError('exists', 'already exists', { path });
    const out = await this.d.send<{ UploadId?: string }>(
      new CreateMultipartUploadCommand({
        Bucket: this.d.bucket,
        Key: this.d.key(path),
        ...(opts.contentType ? { ContentType: opts.contentType } : {}),
      }),
      path,
    );
    if (!out.UploadId) throw new StorageError('io', 'the backend gave no upload id', { path });
    return { uploadId: out.UploadId };
  }

  async signPart(
    path: string,
    uploadId: string,
    partNumber: number,
    ttlSeconds: number,
    opts: { contentLength?: number } = {},
  ): Promise<string> {
    this.check(path, uploadId);
    this.checkPartNumber(path, partNumber);
    const expiresIn = Math.max(1, Math.min(Math.floor(ttlSeconds), MAX_PRESIGN_TTL));
    const { contentLength } = opts;
    const cacheKey = `${this.d.key(path)}\n${uploadId}\n${contentLength === undefined ? '' : 'length'}`;
    const template = this.templates.get(cacheKey);
    if (template) return this.signer.sign(template, partNumber, expiresIn, new Date(), contentLength);
    let url: string;
    try {
      url = await getSignedUrl(
        this.d.client,
        new UploadPartCommand({
          Bucket: this.d.bucket,
          Key: this.d.key(path),
          UploadId: uploadId,
          PartNumber: partNumber,
          ...(contentLength !== undefined ? { ContentLength: contentLength } : {}),
        }),
        // A signed length: S3 refuses a part of any other size.
        { expiresIn, ...(contentLength !== undefined ? { signableHeaders: new Set(['content-length']) } : {}) },
      );
    } catch (err) {
      throw mapS3Error(err, path);
    }
    if (template === undefined) {
      // null remembers a URL shape the signer does not reproduce: the SDK signs every part then.
      if (this.templates.size >= MAX_PART_TEMPLATES) this.templates.delete(this.templates.keys().next().value!);
      this.templates.set(cacheKey, partUrlTemplate(url));
    }
    return url;
  }

  async uploadPart(
    path: string,
    uploadId: string,
    partNumber: number,
    body: ReadableStream<Uint8Array>,
    opts: { size?: number; signal?: AbortSignal } = {},
  ): Promise<UploadedPart> {
    const source = nodeFromWeb(body);
    try {
      this.check(path, uploadId);
      this.checkPartNumber(path, partNumber);
      let Body: Readable | Buffer;
      let size: number;
      if (opts.size !== undefined) {
        size = opts.size;
        const meter = new ByteMeter({ size, path });
        Body = pipeline(source, meter, () => undefined);
      } else {
        Body = await bufferPart(source, MAX_BUFFERED_PART, path);
        size = Body.length;
      }
      const out = await this.d.send<{ ETag?: string }>(
        new UploadPartCommand({
          Bucket: this.d.bucket,
          Key: this.d.key(path),
          UploadId: uploadId,
          PartNumber: partNumber,
          Body,
          ContentLength: size,
        }),
        path,
        opts.signal,
      );
      if (!out.ETag) throw new StorageError('io', 'no ETag obtained', { path });
      return { partNumber, etag: quoteEtag(out.ETag) as string, size };
    } catch (err) {
      source.destroy();
      throw mapS3Error(err, path);
    }
  }

  async listParts(path: string, uploadId: string): Promise<UploadedPart[]> {
    this.check(path, uploadId);
    const parts: UploadedPart[] = [];
    let marker: string | undefined;
    for (;;) {
      const out = await this.d.send<{
        Parts?: Array<{ PartNumber?: number; ETag?: string; Size?: number; LastModified?: Date }>;
        IsTruncated?: boolean;
        NextPartNumberMarker?: string;
        UploadId?: string;
      }>(
        new ListPartsCommand({
          Bucket: this.d.bucket,
          Key: this.d.key(path),
          UploadId: uploadId,
          ...(marker ? { PartNumberMarker: marker } : {}),
        }),
        path,
      );
      // A backend that ignores ?uploadId answers as if it were a GET of the object: no UploadId echoed.
      if (out.UploadId === undefined && out.Parts === undefined) {
        throw new StorageError('unsupported', 'the backend does not list multipart parts', { path });
      }
      for (const p of out.Parts ?? []) {
        if (p.PartNumber === undefined || !p.ETag) continue;
        parts.push({
          partNumber: p.PartNumber,
          etag: quoteEtag(p.ETag) as string,
          size: p.Size ?? 0,
          ...(p.LastModified ? { lastModified: p.LastModified } : {}),
        });
      }
      if (!out.IsTruncated || !out.NextPartNumberMarker) break;
      marker = out.NextPartNumberMarker;
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async complete(path: string, uploadId: string, parts: Array<{ partNumber: number; etag: string }>): Promise<Entry> {
    this.check(path, uploadId);
    if (parts.length === 0) throw new StorageError('invalid_part', 'no parts given', { path });
    this.forgetTemplates(path, uploadId);
    let previous = 0;
    for (const part of parts) {
      if (!Number.isInteger(part.partNumber) || part.partNumber <= previous) {
        throw new StorageError('invalid_part', 'part numbers must ascend', { path });
      }
      if (!part.etag) throw new StorageError('invalid_part', 'no ETag obtained', { path });
      previous = part.partNumber;
    }
    await this.d.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.d.bucket,
        Key: this.d.key(path),
        UploadId: uploadId,
        MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: `"${unquote(p.etag)}"` })) },
      }),
      path,
    );
    return this.d.stat(path);
  }

  async abort(path: string, uploadId: string): Promise<void> {
    this.check(path, uploadId);
    this.forgetTemplates(path, uploadId);
    await this.d.send(
      new AbortMultipartUploadCommand({ Bucket: this.d.bucket, Key: this.d.key(path), UploadId: uploadId }),
      path,
    );
  }

  async listUploads(): Promise<MultipartUploadInfo[]> {
    const uploads: MultipartUploadInfo[] = [];
    let keyMarker: string | undefined;
    let idMarker: string | undefined;
    for (;;) {
      const out = await this.d.send<{
        Uploads?: Array<{ Key?: string; UploadId?: string; Initiated?: Date }>;
        IsTruncated?: boolean;
        NextKeyMarker?: string;
        NextUploadIdMarker?: string;
        Bucket?: string;
      }>(
        new ListMultipartUploadsCommand({
          Bucket: this.d.bucket,
          ...(this.d.prefix ? { Prefix: this.d.prefix } : {}),
          ...(keyMarker ? { KeyMarker: keyMarker } : {}),
          ...(idMarker ? { UploadIdMarker: idMarker } : {}),
        }),
      );
      if (out.Bucket === undefined && out.Uploads === undefined) {
        throw new StorageError('unsupported', 'the backend does not list multipart uploads');
      }
      for (const u of out.Uploads ?? []) {
        if (!u.Key || !u.UploadId || !u.Key.startsWith(this.d.prefix)) continue;
        uploads.push({
          uploadId: u.UploadId,
          path: u.Key.slice(this.d.prefix.length),
          ...(u.Initiated ? { initiated: u.Initiated } : {}),
        });
      }
      if (!out.IsTruncated) break;
      keyMarker = out.NextKeyMarker;
      idMarker = out.NextUploadIdMarker;
    }
    return uploads;
  }
}
