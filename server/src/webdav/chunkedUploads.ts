// Nextcloud's chunked upload v2 (what its apps use for big files): MKCOL an upload folder, PUT the chunks into it,
// MOVE its `.file` onto the destination. Chunks wait on the server's disk (DATA_DIR/tmp/nextcloud-chunks, one
// folder per caller and upload); the MOVE streams them, in order, into one write of the tree (a PUT: locks, limits
// and the destination's rules apply), then the folder goes. Uploads left alone for a day are swept.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors.js';
import type { Logger } from '../lib/logger.js';
import type { Principal } from '../auth/principal.js';
import type { IfList } from './davTypes.js';
import type { WebdavService } from './webdavService.js';

/** Upload ids and chunk names clients send: short, no separators, nothing that walks. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** An upload untouched this long is dropped. */
const STALE_MS = 24 * 3600_000;
/** Chunks one upload may hold (10,000 × 100 MB chunks is more than any file a client sends). */
const MAX_CHUNKS = 10_000;

export interface Chunk {
  name: string;
  size: number;
  modified: Date;
}

function checkName(value: string, what: string): string {
  if (!NAME.test(value) || value.includes('..'))
    throw AppError.validation(`${what} ${JSON.stringify(value)} is not a valid name`);
  return value;
}

/** Chunks in upload order: by number when every name is a number (offsets, indexes), else by name. */
export function chunkOrder(names: string[]): string[] {
  const numeric = names.every((n) => /^\d+$/.test(n));
  return [...names].sort((a, b) =>
    numeric ? Number(a) - Number(b) || a.localeCompare(b) : a < b ? -1 : a > b ? 1 : 0,
  );
}

export class ChunkedUploads {
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(
    private readonly deps: {
      dir: string;
      webdav: Pick<WebdavService, 'put' | 'assertMayWrite'>;
      logger: Logger;
      now?: () => number;
    },
  ) {
    this.sweepTimer = setInterval(() => void this.sweep(), 3600_000);
    this.sweepTimer.unref();
    void this.sweep();
  }

  close(): void {
    clearInterval(this.sweepTimer);
  }

  /** The caller's own folder of uploads: one caller never sees another's. */
  private callerDir(principal: Principal): string {
    const who = principal.type === 'admin' ? `admin:${principal.adminId}` : `key:${principal.keyId}`;
    return path.join(this.deps.dir, createHash('sha256').update(who).digest('hex').slice(0, 32));
  }

  private uploadDir(principal: Principal, id: string): string {
    return path.join(this.callerDir(principal), checkName(id, 'upload id'));
  }

  private async requireUpload(principal: Principal, id: string): Promise<string> {
    const dir = this.uploadDir(principal, id);
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) throw AppError.notFound(`no upload ${id}`);
    return dir;
  }

  async start(principal: Principal, id: string): Promise<void> {
    this.deps.webdav.assertMayWrite(principal);
    const dir = this.uploadDir(principal, id);
    if (await stat(dir).catch(() => undefined)) throw new AppError('METHOD_NOT_ALLOWED', `upload ${id} already exists`);
    await mkdir(dir, { recursive: true });
  }

  /** Stores one chunk (written aside, then renamed: a cut connection leaves no half chunk). */
  async putChunk(
    principal: Principal,
    id: string,
    name: string,
    body: Readable,
    signal?: AbortSignal,
  ): Promise<boolean> {
    this.deps.webdav.assertMayWrite(principal);
    const dir = await this.requireUpload(principal, id);
    checkName(name, 'chunk name');
    const existing = await readdir(dir);
    if (existing.length >= MAX_CHUNKS)
      throw new AppError('PAYLOAD_TOO_LARGE', `an upload holds at most ${MAX_CHUNKS} chunks`);
    const target = path.join(dir, name);
    const partial = path.join(dir, `.${name}.${process.pid}.${Date.now()}.partial`);
    try {
      await pipeline(body, createWriteStream(partial), signal ? { signal } : {});
      const created = !existing.includes(name);
      await rename(partial, target);
      return created;
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async list(principal: Principal, id: string): Promise<{ modified: Date; chunks: Chunk[] }> {
    const dir = await this.requireUpload(principal, id);
    const names = (await readdir(dir)).filter((n) => !n.startsWith('.'));
    const chunks: Chunk[] = [];
    for (const name of chunkOrder(names)) {
      const info = await stat(path.join(dir, name)).catch(() => undefined);
      if (info?.isFile()) chunks.push({ name, size: info.size, modified: info.mtime });
    }
    return { modified: (await stat(dir)).mtime, chunks };
  }

  /**
   * MOVE of `.file`: the chunks, in order, streamed into one PUT of `destination`. `totalLength` (OC-Total-Length)
   * must match the chunks when sent; the upload folder is removed once the file is written.
   */
  async assemble(
    principal: Principal,
    id: string,
    destination: string,
    options: { totalLength?: number; mtime?: Date; contentType?: string; ifLists?: IfList[]; signal?: AbortSignal },
  ): Promise<{ created: boolean; etag?: string }> {
    const dir = await this.requireUpload(principal, id);
    const { chunks } = await this.list(principal, id);
    const size = chunks.reduce((sum, c) => sum + c.size, 0);
    if (options.totalLength !== undefined && options.totalLength !== size) {
      throw AppError.validation(`the chunks hold ${size} bytes, OC-Total-Length says ${options.totalLength}`);
    }
    async function* bytes() {
      for (const chunk of chunks) yield* createReadStream(path.join(dir, chunk.name));
    }
    const result = await this.deps.webdav.put(principal, destination, Readable.from(bytes()), {
      size,
      ...(options.mtime ? { mtime: options.mtime } : {}),
      ...(options.contentType ? { contentType: options.contentType } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ifLists: options.ifLists,
    });
    await rm(dir, { recursive: true, force: true });
    return result;
  }

  async cancel(principal: Principal, id: string): Promise<void> {
    await rm(await this.requireUpload(principal, id), { recursive: true, force: true });
  }

  /** Drops uploads untouched for a day. */
  async sweep(): Promise<void> {
    const now = this.deps.now?.() ?? Date.now();
    try {
      for (const caller of await readdir(this.deps.dir).catch(() => [] as string[])) {
        const callerDir = path.join(this.deps.dir, caller);
        for (const upload of await readdir(callerDir).catch(() => [] as string[])) {
          const dir = path.join(callerDir, upload);
          const info = await stat(dir).catch(() => undefined);
          if (info && now - info.mtimeMs > STALE_MS) await rm(dir, { recursive: true, force: true });
        }
      }
    } catch (error) {
      this.deps.logger.error('sweeping chunked uploads failed', error);
    }
  }
}
