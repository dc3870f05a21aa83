// Multipart uploads for clients on S3: CreateMultipartUpload, presigned UploadPart (re-signed from one SDK URL),
// ListParts, Complete, Abort, ListMultipartUploads.
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { pipeline, type Readable } from 'node:stream';
import { ascendingParts, checkPartNumber } from '../multipartParts.js';
import { assertNormalized } from '../paths.js';
import { ByteMeter, nodeFromWeb } from '../streams.js';
import {
  StorageError,
  type Entry,
  type MultipartCapability,
  type MultipartStartOptions,
  type MultipartUploadInfo,
  type UploadedPart,
} from '../types.js';
import type { S3Driver } from './driver.js';
import { mapS3Error } from './errors.js';
import { type PartUrlSigner, partUrlTemplate, type PartUrlTemplate } from './partUrlSigner.js';
import { MAX_PRESIGN_TTL, MiB, quoteEtag, unquote } from './shared.js';

/** An UploadPart of unknown length is buffered (S3 needs Content-Length); above this it is refused. */
const MAX_BUFFERED_PART = 64 * MiB;

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

export class S3Multipart implements MultipartCapability {
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
    checkPartNumber(path, partNumber, this.maxParts);
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
    for (const part of ascendingParts(parts, path)) {
      if (!part.etag) throw new StorageError('invalid_part', 'no ETag obtained', { path });
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
