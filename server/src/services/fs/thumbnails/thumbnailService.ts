import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  FS_THUMBNAIL_MAX_INPUT_BYTES,
  FS_THUMBNAIL_TYPES,
  Permission,
  thumbnailSizeFor,
  type FsThumbnailSize,
} from '@clipnest/contract';
import type { Metadata } from 'sharp';
import { AppError } from '../../../errors.js';
import { ConcurrencyGate } from '../../../lib/concurrencyGate.js';
import type { Logger } from '../../../lib/logger.js';
import { onFirstUse } from '../../../lib/optionalModules.js';
import type { Vfs } from '../../../vfs/vfs.js';
import { etagOf, mimetypeOf } from '../fsService.js';
import type { Principal } from '../../../auth/principal.js';

const loadSharp = onFirstUse(async () => {
  const { default: sharp } = await import('sharp');
  // One libvips thread per image: the gate decides how many images run side by side.
  sharp.concurrency(1);
  sharp.cache(false);
  return sharp;
});

/** Bumped when the way thumbnails are made changes, so old cache files are never served again. */
const RECIPE = 'v1';

/**
 * Most pixels an original may have (width × height of the first frame): 40 megapixels, about a 7,700 × 5,200
 * photo. Decoding costs ~4 bytes per pixel whatever the file size (a 62-byte GIF can announce 16384², 1.1 GB
 * decoded), so the header is read first and anything bigger gets the client's placeholder (413), undecoded.
 */
export const THUMBNAIL_MAX_INPUT_PIXELS = 40_000_000;
/** Refusals remembered per object (so a tile asked for again is not read again), at most this many. */
const REFUSED_MAX = 1000;

export type ThumbnailFormat = 'webp' | 'jpeg';

export interface Thumbnail {
  etag: string;
  contentType: string;
  /** Absent when the client's copy is current (304). */
  bytes?: Buffer;
  /** Whether the bytes came from the disk cache. */
  cached: boolean;
}

export interface ThumbnailOptions {
  /** Where thumbnails are kept (DATA_DIR/cache/thumbnails). */
  cacheDir: string;
  /** The cache is swept back to 80 % of this when it grows past it. */
  maxCacheBytes?: number;
  /** Originals larger than this are refused (413): the client shows an icon. */
  maxInputBytes?: number;
  /** Most pixels an original may have (default THUMBNAIL_MAX_INPUT_PIXELS); more: 413 (the client's placeholder). */
  maxInputPixels?: number;
  /** Images decoded at once (default 1: one decode's memory at a time); more wait in line, up to `queue`, then 503. */
  concurrency?: number;
  queue?: number;
}

/** Image types the bundled libvips decodes (no SVG: a thumbnail never renders a document; no HEIC/video). */
function canThumbnail(mimetype: string): boolean {
  return FS_THUMBNAIL_TYPES.includes(mimetype);
}

/**
 * Small WebP / JPEG thumbnails of images in the mount tree (GET /api/fs/thumbnail), made with sharp and
 * cached on disk per object, ETag and size. Reading needs exactly what a download needs (MOUNT_VIEW inside
 * the key's base path: the Vfs checks both). Originals stream into sharp, capped at `maxInputBytes` and at
 * `maxInputPixels` (read from the header before decoding); one image is decoded at a time per instance (the
 * rest queue), and one object asked for twice at the same time is made once. What is over a limit is
 * refused with 413 (the explorer shows the type's icon as the placeholder), never decoded.
 */
export class ThumbnailService {
  private readonly gate: ConcurrencyGate;
  private readonly inflight = new Map<string, Promise<Buffer>>();
  private readonly maxCacheBytes: number;
  private readonly maxInputBytes: number;
  private readonly maxInputPixels: number;
  /** Objects (cache keys) refused for their pixel count, least recently refused first. */
  private readonly refused = new Map<string, AppError>();
  private decodingNow = 0;
  /** The most decodes that ever ran at once in this instance (observability and tests). */
  peakDecodes = 0;
  /** Bytes in the cache as far as this process knows (scanned on first use). */
  private cacheBytes: number | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly deps: { vfs: Vfs; logger: Logger },
    private readonly options: ThumbnailOptions,
  ) {
    this.maxCacheBytes = options.maxCacheBytes ?? 256 * 1024 * 1024;
    this.maxInputBytes = options.maxInputBytes ?? FS_THUMBNAIL_MAX_INPUT_BYTES;
    this.maxInputPixels = options.maxInputPixels ?? THUMBNAIL_MAX_INPUT_PIXELS;
    this.gate = new ConcurrencyGate({
      max: options.concurrency ?? 1,
      queue: options.queue ?? 256,
      onFull: () => new AppError('UNAVAILABLE', 'too many thumbnails are being made; try again shortly'),
    });
  }

  async thumbnail(
    principal: Principal,
    path: string,
    request: { size?: number; format?: ThumbnailFormat; fresh: (etag: string) => boolean },
  ): Promise<Thumbnail> {
    const entry = await this.deps.vfs.stat(principal, path, Permission.MOUNT_VIEW);
    if (entry.isDir) throw AppError.validation(`${entry.path} is a folder: a thumbnail needs an image`);
    const mimetype = mimetypeOf(entry.name, entry.contentType);
    if (!canThumbnail(mimetype)) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        `${entry.name} (${mimetype}) is not an image a thumbnail can be made of`,
      );
    }
    if (entry.size > this.maxInputBytes) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `${entry.name} is larger than ${Math.round(this.maxInputBytes / 1024 / 1024)} MB: no thumbnail is made`,
      );
    }
    const size = thumbnailSizeFor(request.size);
    const format = request.format ?? 'webp';
    const key = createHash('sha256')
      .update([RECIPE, entry.mountId ?? '', entry.path, etagOf(entry), size, format].join('\n'))
      .digest('hex');
    const etag = `"t${key.slice(0, 40)}"`;
    const contentType = format === 'webp' ? 'image/webp' : 'image/jpeg';
    if (request.fresh(etag)) return { etag, contentType, cached: true };

    const refusal = this.refused.get(key);
    if (refusal) throw refusal;
    const file = this.cacheFile(key, format);
    const hit = await readFile(file).catch(() => undefined);
    if (hit) {
      const now = new Date();
      void utimes(file, now, now).catch(() => undefined);
      return { etag, contentType, bytes: hit, cached: true };
    }
    let making = this.inflight.get(key);
    if (!making) {
      making = this.gate
        .run(() => this.make(principal, entry.path, size, format))
        .then(async (bytes) => {
          await this.store(file, bytes);
          return bytes;
        })
        .catch((error: unknown) => {
          if (error instanceof AppError && error.kind === 'PAYLOAD_TOO_LARGE') this.remember(key, error);
          throw error;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, making);
    }
    return { etag, contentType, bytes: await making, cached: false };
  }

  private remember(key: string, refusal: AppError): void {
    this.refused.delete(key);
    this.refused.set(key, refusal);
    if (this.refused.size > REFUSED_MAX) this.refused.delete(this.refused.keys().next().value as string);
  }

  private cacheFile(key: string, format: ThumbnailFormat): string {
    return path.join(this.options.cacheDir, key.slice(0, 2), `${key}.${format}`);
  }

  /**
   * Reads the original (never past the cap: sharp holds a streamed input whole anyway, so this costs no more)
   * and answers the encoded thumbnail. JPEGs shrink on load, so a 5 MB photo decodes at a fraction of its size.
   */
  private async make(principal: Principal, path: string, size: FsThumbnailSize, format: ThumbnailFormat) {
    const { result } = await this.deps.vfs.read(principal, path);
    const reader = result.stream.getReader();
    const chunks: Uint8Array[] = [];
    let seen = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        seen += value.length;
        if (seen > this.maxInputBytes) {
          throw new AppError('PAYLOAD_TOO_LARGE', 'the image is larger than the thumbnail limit');
        }
        chunks.push(value);
      }
    } catch (error) {
      await reader.cancel().catch(() => undefined);
      throw error;
    }
    const input = Buffer.concat(chunks, seen);
    chunks.length = 0;
    const tooManyPixels = (width: number, height: number) =>
      new AppError(
        'PAYLOAD_TOO_LARGE',
        `the image ${path} has ${width} × ${height} pixels, more than the ${Math.round(this.maxInputPixels / 1e6)} ` +
          'megapixels a thumbnail is made of: no thumbnail is made',
        { data: { width, height, max_pixels: this.maxInputPixels } },
      );
    this.decodingNow++;
    this.peakDecodes = Math.max(this.peakDecodes, this.decodingNow);
    try {
      // The header alone (no pixel is decoded): the size decides before any memory is spent on pixels.
      const sharp = await loadSharp();
      let meta: Metadata;
      try {
        meta = await sharp(input, { limitInputPixels: false, animated: false }).metadata();
      } catch (error) {
        this.deps.logger.debug(`thumbnail of ${path}: ${error instanceof Error ? error.message : String(error)}`);
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', `the image ${path} could not be read to make a thumbnail`);
      }
      const width = meta.width ?? 0;
      const height = meta.height ?? 0;
      if (width * height > this.maxInputPixels) throw tooManyPixels(width, height);
      try {
        // limitInputPixels again: the decoder itself refuses what the header understated.
        const resize = sharp(input, { limitInputPixels: this.maxInputPixels, failOn: 'error', animated: false })
          .rotate()
          .resize(size, size, { fit: 'inside', withoutEnlargement: true });
        const encoded = format === 'webp' ? resize.webp({ quality: 70, effort: 2 }) : resize.jpeg({ quality: 75 });
        return await encoded.toBuffer();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.deps.logger.debug(`thumbnail of ${path} failed: ${message}`);
        if (/pixel limit/i.test(message)) throw tooManyPixels(width, height);
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', `the image ${path} could not be read to make a thumbnail`);
      }
    } finally {
      this.decodingNow--;
    }
  }

  /** Writes a cache file atomically; sweeps the oldest when the cache grew past its bound. */
  private async store(file: string, bytes: Buffer): Promise<void> {
    try {
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, file);
      if (this.cacheBytes === undefined) this.cacheBytes = await this.scanBytes();
      else this.cacheBytes += bytes.length;
      if (this.cacheBytes > this.maxCacheBytes) await this.sweep();
    } catch (error) {
      // A cache that cannot be written costs speed, not the answer.
      this.deps.logger.error('thumbnail cache write failed', error);
    }
  }

  private async listCache(): Promise<{ file: string; size: number; used: number }[]> {
    const files: { file: string; size: number; used: number }[] = [];
    const dirs = await readdir(this.options.cacheDir).catch(() => [] as string[]);
    for (const dir of dirs) {
      const names = await readdir(path.join(this.options.cacheDir, dir)).catch(() => [] as string[]);
      for (const name of names) {
        const file = path.join(this.options.cacheDir, dir, name);
        const info = await stat(file).catch(() => undefined);
        if (info?.isFile()) files.push({ file, size: info.size, used: info.mtimeMs });
      }
    }
    return files;
  }

  private async scanBytes(): Promise<number> {
    return (await this.listCache()).reduce((sum, f) => sum + f.size, 0);
  }

  /** Deletes the least recently used thumbnails until the cache is at 80 % of its bound. */
  sweep(): Promise<void> {
    this.sweeping ??= (async () => {
      const files = (await this.listCache()).sort((a, b) => a.used - b.used);
      let total = files.reduce((sum, f) => sum + f.size, 0);
      const target = this.maxCacheBytes * 0.8;
      for (const f of files) {
        if (total <= target) break;
        await rm(f.file, { force: true });
        total -= f.size;
      }
      this.cacheBytes = total;
    })().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }
}
