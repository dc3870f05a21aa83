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
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type HeadObjectCommandOutput,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertNormalized, normalizePath } from '../paths.js';
import {
  StorageError,
  type Entry,
  type ListPage,
  type ListResult,
  type MultipartCapability,
  type PresignOptions,
  type ReadOptions,
  type ReadResult,
  type StorageDriver,
  type WriteOptions,
  type WriteBody,
} from '../types.js';
import { copyKey, copyTree } from './copy.js';
import { mapS3Error } from './errors.js';
import { dirEntry, fileEntry, listDir } from './listing.js';
import { S3Multipart } from './multipart.js';
import { PartUrlSigner } from './partUrlSigner.js';
import { eachLimit, MAX_LIST, MAX_PRESIGN_TTL, MiB } from './shared.js';
import { readObject, writeObject } from './streams.js';

export { mapS3Error } from './errors.js';

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

const SILENT_LOGGER = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

export class S3Driver implements StorageDriver {
  readonly kind = 's3';
  readonly client: S3Client;
  readonly bucket: string;
  /** '' or 'folder/' (normalised, with the trailing slash). */
  readonly prefix: string;
  readonly multipart: MultipartCapability;
  /** Part size and parts in flight of one streamed write (streams.ts). */
  readonly partSize: number;
  readonly queueSize: number;

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
    if (path === '') return dirEntry('');
    const head = await this.head(path);
    if (head) return fileEntry(path, head);
    if (await this.isDir(path)) return dirEntry(path);
    throw new StorageError('not_found', 'not found', { path });
  }

  /**
   * One page of a directory. The cursor is our own (the last key of the page, for StartAfter) rather
   * than the backend's continuation token, so a page is never longer than `limit` even on backends
   * that count only objects, not common prefixes, against MaxKeys (s3rver).
   */
  async list(dir: string, page: ListPage = {}): Promise<ListResult> {
    return listDir(this, dir, page);
  }

  async read(path: string, opts: ReadOptions = {}): Promise<ReadResult> {
    return readObject(this, path, opts);
  }

  async write(path: string, body: WriteBody, opts: WriteOptions = {}): Promise<Entry> {
    return writeObject(this, path, body, opts);
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
    return copyKey(this, from, to, size);
  }

  async move(from: string, to: string, opts: { overwrite?: boolean } = {}): Promise<void> {
    const sources = await copyTree(this, from, to, opts.overwrite ?? false);
    await this.deleteKeys(sources, from);
  }

  async copy(from: string, to: string, opts: { overwrite?: boolean } = {}): Promise<void> {
    await copyTree(this, from, to, opts.overwrite ?? false);
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
