// Multipart emulated on disk for the local driver: parts under `<root>/.clipnest-multipart/<uploadId>/`,
// concatenated as a stream into an atomic write on complete.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import nodePath from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ascendingParts, checkPartNumber } from '../multipartParts.js';
import { assertNormalized, RESERVED_PREFIX } from '../paths.js';
import { ByteMeter, nodeFromWeb } from '../streams.js';
import {
  StorageError,
  type Entry,
  type MultipartCapability,
  type MultipartStartOptions,
  type MultipartUploadInfo,
  type UploadedPart,
} from '../types.js';
import type { LocalDriver } from './driver.js';
import { mapFsError } from './errors.js';
import { etagOf, tempName, unquote, writingTemp } from './files.js';
import { READ_CHUNK } from './streams.js';

const STAGING = `${RESERVED_PREFIX}multipart`;
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const MAX_PARTS = 10_000;
const MAX_PART_SIZE = 5 * 1024 ** 3;

interface UploadMeta {
  path: string;
  contentType?: string;
  overwrite: boolean;
  initiated: string;
}

/** Multipart emulated on disk under `<root>/.clipnest-multipart/<uploadId>/`. */
export class LocalMultipart implements MultipartCapability {
  readonly minPartSize = 1;
  readonly maxParts = MAX_PARTS;
  readonly presignedParts = false;

  constructor(private readonly driver: LocalDriver) {}

  private stagingRoot(): string {
    return nodePath.join(this.driver.root, STAGING);
  }

  private dirOf(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw new StorageError('not_found', 'no such upload');
    return nodePath.join(this.stagingRoot(), uploadId);
  }

  private partFile(dir: string, partNumber: number): string {
    return nodePath.join(dir, `${String(partNumber).padStart(5, '0')}.part`);
  }

  private async meta(path: string, uploadId: string): Promise<{ dir: string; meta: UploadMeta }> {
    assertNormalized(path);
    const dir = this.dirOf(uploadId);
    await this.driver.confineAbs(dir, path);
    let meta: UploadMeta;
    try {
      meta = JSON.parse(await fs.readFile(nodePath.join(dir, 'meta.json'), 'utf8')) as UploadMeta;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new StorageError('not_found', 'no such upload', { path });
      }
      throw mapFsError(err, path);
    }
    if (meta.path !== path) throw new StorageError('not_found', 'no such upload for this path', { path });
    return { dir, meta };
  }

  async start(path: string, opts: MultipartStartOptions = {}): Promise<{ uploadId: string }> {
    assertNormalized(path);
    if (path === '') throw new StorageError('invalid_path', 'cannot write to the root', { path });
    const overwrite = opts.overwrite ?? true;
    const existing = await this.driver.stat(path).catch((err: unknown) => {
      if (err instanceof StorageError && err.code === 'invalid_path') throw err; // e.g. through an outward link
      return null;
    });
    if (existing?.isDir) throw new StorageError('is_a_directory', 'a directory has this name', { path });
    if (existing && !overwrite) throw new StorageError('exists', 'already exists', { path });
    const uploadId = randomBytes(16).toString('hex');
    const dir = this.dirOf(uploadId);
    await this.driver.confineAbs(dir, path);
    const meta: UploadMeta = {
      path,
      overwrite,
      initiated: new Date().toISOString(),
      ...(opts.contentType ? { contentType: opts.contentType } : {}),
    };
    try {
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(nodePath.join(dir, 'meta.json'), JSON.stringify(meta));
    } catch (err) {
      throw mapFsError(err, path);
    }
    return { uploadId };
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
      checkPartNumber(path, partNumber, MAX_PARTS);
      const { dir } = await this.meta(path, uploadId);
      const tmp = nodePath.join(dir, tempName());
      const target = this.partFile(dir, partNumber);
      try {
        const meter = new ByteMeter({ size: opts.size, maxBytes: MAX_PART_SIZE, path });
        await writingTemp(tmp, async () => {
          await pipeline(
            source,
            meter,
            createWriteStream(tmp, { flags: 'wx' }),
            ...(opts.signal ? [{ signal: opts.signal }] : []),
          );
          await fs.rename(tmp, target);
        });
      } catch (err) {
        await fs.rm(tmp, { force: true }).catch(() => undefined);
        throw err;
      }
      const st = await fs.stat(target, { bigint: true });
      return { partNumber, etag: etagOf(st), size: Number(st.size), lastModified: new Date(Number(st.mtimeMs)) };
    } catch (err) {
      source.destroy();
      if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path, cause: err });
      throw mapFsError(err, path);
    }
  }

  async listParts(path: string, uploadId: string): Promise<UploadedPart[]> {
    const { dir } = await this.meta(path, uploadId);
    const names = (await fs.readdir(dir)).filter((n) => /^\d{5}\.part$/.test(n)).sort();
    const parts = await Promise.all(
      names.map(async (name): Promise<UploadedPart | null> => {
        try {
          const st = await fs.stat(nodePath.join(dir, name), { bigint: true });
          return {
            partNumber: Number(name.slice(0, 5)),
            etag: etagOf(st),
            size: Number(st.size),
            lastModified: new Date(Number(st.mtimeMs)),
          };
        } catch {
          return null;
        }
      }),
    );
    return parts.filter((p): p is UploadedPart => p !== null);
  }

  async complete(path: string, uploadId: string, parts: Array<{ partNumber: number; etag: string }>): Promise<Entry> {
    const { dir, meta } = await this.meta(path, uploadId);
    if (parts.length === 0) throw new StorageError('invalid_part', 'no parts given', { path });
    const files: string[] = [];
    for (const part of ascendingParts(parts, path)) {
      const file = this.partFile(dir, part.partNumber);
      const st = await fs.stat(file, { bigint: true }).catch(() => null);
      if (!st) throw new StorageError('invalid_part', `part ${part.partNumber} was not uploaded`, { path });
      if (unquote(etagOf(st)) !== unquote(part.etag ?? '')) {
        throw new StorageError('invalid_part', `part ${part.partNumber} has a different ETag`, { path });
      }
      files.push(file);
    }
    async function* concatenated(): AsyncGenerator<Buffer> {
      for (const file of files) {
        for await (const chunk of createReadStream(file, { highWaterMark: READ_CHUNK })) yield chunk as Buffer;
      }
    }
    const entry = await this.driver.write(path, Readable.from(concatenated(), { objectMode: false }), {
      overwrite: meta.overwrite,
    });
    await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    return entry;
  }

  async abort(path: string, uploadId: string): Promise<void> {
    const { dir } = await this.meta(path, uploadId);
    await fs.rm(dir, { recursive: true, force: true });
  }

  async listUploads(): Promise<MultipartUploadInfo[]> {
    let ids: string[];
    try {
      await this.driver.confineAbs(this.stagingRoot());
      ids = (await fs.readdir(this.stagingRoot())).filter((n) => UPLOAD_ID.test(n));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw mapFsError(err);
    }
    const uploads = await Promise.all(
      ids.map(async (uploadId): Promise<MultipartUploadInfo | null> => {
        try {
          const raw = await fs.readFile(nodePath.join(this.stagingRoot(), uploadId, 'meta.json'), 'utf8');
          const meta = JSON.parse(raw) as UploadMeta;
          return { uploadId, path: meta.path, initiated: new Date(meta.initiated) };
        } catch {
          return null;
        }
      }),
    );
    return uploads.filter((u): u is MultipartUploadInfo => u !== null);
  }
}
