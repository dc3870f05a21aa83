// The rclone storage driver: any rclone backend (OneDrive, Google Drive, Dropbox, SFTP, …) through one
// `rclone serve webdav` process on 127.0.0.1 (serve.ts), spoken to by the WebDAV driver. Reads stream with
// Range, writes stream with flat memory (rclone streams uploads with --vfs-cache-mode off, its default), and
// every behaviour of the WebDAV driver (temp file + MOVE writes, server-side COPY/MOVE, staged multipart)
// comes with it. The process starts on the first call, is started again after it died, and is killed by close().
import { parseRcloneSection } from '@clipnest/contract';
import type { Readable } from 'node:stream';
import {
  StorageError,
  type Entry,
  type ListPage,
  type ListResult,
  type MultipartCapability,
  type MultipartStartOptions,
  type ReadOptions,
  type ReadResult,
  type StorageDriver,
  type StorageSpace,
  type WriteBody,
  type WriteOptions,
} from '../types.js';
import { WebDavDriver } from '../webdav/driver.js';
import { RcloneServe } from './serve.js';

export interface RcloneDriverOptions {
  /** The config's id. */
  id: string;
  /** One rclone.conf section (validated again here: a row restored or written by hand may be anything). */
  section: string;
  /** Where temp rclone.conf files go (DATA_DIR/tmp). */
  tmpDir: string;
  /** The rclone binary (default `rclone` on PATH). */
  binary?: string;
  /** rclone rewrote the section (a refreshed OAuth token): the new text and the one it replaced. */
  onSectionChanged?: (section: string, previous: string) => void;
  /** Response timeout of the WebDAV requests (default 60 s: cloud backends can be slow to answer a MOVE). */
  timeoutMs?: number;
}

export class RcloneDriver implements StorageDriver {
  readonly kind = 'rclone';
  readonly multipart: MultipartCapability;
  /** undefined when the section is unusable (every call then fails with `problem`). */
  readonly serve: RcloneServe | undefined;
  private readonly problem: string | undefined;
  private inner: { url: string; driver: WebDavDriver } | undefined;

  constructor(private readonly options: RcloneDriverOptions) {
    const parsed = parseRcloneSection(options.section);
    if (parsed.ok) {
      this.serve = new RcloneServe({
        binary: options.binary,
        tmpDir: options.tmpDir,
        id: options.id,
        section: options.section,
        remote: parsed.section.name,
        onSectionChanged: options.onSectionChanged,
      });
    } else {
      this.problem =
        options.section.trim() === '' ? 'the rclone config cannot be decrypted: enter it again' : parsed.message;
    }
    this.multipart = this.multipartCapability();
  }

  /** The WebDAV driver on the running rclone (a new one after a restart: its port changed). */
  private async dav(): Promise<WebDavDriver> {
    if (!this.serve) throw new StorageError('unavailable', this.problem ?? 'the rclone config is unusable');
    const endpoint = await this.serve.endpoint();
    if (this.inner?.url === endpoint.url) return this.inner.driver;
    const old = this.inner?.driver;
    const driver = new WebDavDriver({
      endpoint: endpoint.url,
      username: endpoint.username,
      password: endpoint.password,
      timeoutMs: this.options.timeoutMs ?? 60_000,
    });
    this.inner = { url: endpoint.url, driver };
    void old?.close().catch(() => undefined);
    return driver;
  }

  async stat(path: string): Promise<Entry> {
    return (await this.dav()).stat(path);
  }

  async list(dir: string, page?: ListPage): Promise<ListResult> {
    return (await this.dav()).list(dir, page);
  }

  async read(path: string, opts?: ReadOptions): Promise<ReadResult> {
    return (await this.dav()).read(path, opts);
  }

  async write(path: string, body: WriteBody, opts?: WriteOptions): Promise<Entry> {
    let driver: WebDavDriver;
    try {
      driver = await this.dav();
    } catch (err) {
      // The body is never read: release its source.
      cancelBody(body);
      throw err;
    }
    return driver.write(path, body, opts);
  }

  async mkdir(path: string): Promise<void> {
    return (await this.dav()).mkdir(path);
  }

  async remove(path: string, opts?: { recursive?: boolean }): Promise<void> {
    return (await this.dav()).remove(path, opts);
  }

  async move(from: string, to: string, opts?: { overwrite?: boolean }): Promise<void> {
    return (await this.dav()).move(from, to, opts);
  }

  async copy(from: string, to: string, opts?: { overwrite?: boolean }): Promise<void> {
    return (await this.dav()).copy(from, to, opts);
  }

  /** The backend's own figures (`rclone about`), where it tells both used and free. */
  async space(): Promise<StorageSpace> {
    if (!this.serve) throw new StorageError('unavailable', this.problem ?? 'the rclone config is unusable');
    const about = await this.serve.about();
    if (about.used === undefined || about.free === undefined) {
      throw new StorageError('unsupported', 'this rclone backend does not tell its free space');
    }
    return {
      totalBytes: about.total ?? about.used + about.free,
      usedBytes: about.used,
      freeBytes: about.free,
      volume: `rclone:${this.options.id}`,
    };
  }

  async close(): Promise<void> {
    const inner = this.inner?.driver;
    this.inner = undefined;
    await inner?.close().catch(() => undefined);
    await this.serve?.stop();
  }

  private multipartCapability(): MultipartCapability {
    // The WebDAV driver's staged parts, on whichever rclone process runs now.
    const mp = async () => (await this.dav()).multipart;
    return {
      minPartSize: 1,
      maxParts: 10_000,
      presignedParts: false,
      start: async (path: string, opts?: MultipartStartOptions) => (await mp()).start(path, opts),
      uploadPart: async (path, uploadId, partNumber, body, opts) =>
        (await mp()).uploadPart(path, uploadId, partNumber, body, opts),
      listParts: async (path, uploadId) => (await mp()).listParts(path, uploadId),
      complete: async (path, uploadId, parts) => (await mp()).complete(path, uploadId, parts),
      abort: async (path, uploadId) => (await mp()).abort(path, uploadId),
      listUploads: async () => {
        const inner = await mp();
        if (!inner.listUploads) throw new StorageError('unsupported', 'listing uploads');
        return inner.listUploads();
      },
    };
  }
}

function cancelBody(body: WriteBody): void {
  if (body instanceof ReadableStream) void body.cancel().catch(() => undefined);
  else (body as Readable).destroy();
}
