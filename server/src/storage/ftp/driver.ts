// FTP / FTPS driver on basic-ftp.
//
// - The root is a folder on the server (by default where the login lands); every path is sent absolute below
//   it, and names coming back in listings are checked to be plain names (listing.ts): nothing leads out of it.
// - One transfer per control connection: every operation takes a logged-in client from a small pool (pool.ts).
// - Listing: MLSD when the server has it, else LIST (basic-ftp picks); stat: MLST, else SIZE + MDTM / CWD.
// - Reads: RETR, with REST for a range's start; the connection is dropped once the range's bytes are in.
// - Writes stream into a hidden temp file next to the target (`.clipnest-upload-*`) and RNFR/RNTO it over the
//   target when complete: a failed, oversize or aborted write leaves nothing, and readers never see half a file.
// - No server-side copy in FTP: `copy` is absent, so the vfs streams read → write. No multipart: uploads stream
//   through the server. Modification times: MFMT when the server has it.
import { randomBytes } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import { PassThrough, type Readable } from 'node:stream';
import { FTPError, FileType, type Client, type FileInfo } from 'basic-ftp';
import { assertNormalized, baseName, isWithin, parentPath } from '../paths.js';
import { ByteMeter, nodeFromBody, resolveRange, sendMetered, sliceNode, webFromNode } from '../streams.js';
import { ListingSnapshots } from '../pageByName.js';
import {
  StorageError,
  type Entry,
  type ListPage,
  type ListResult,
  type ReadOptions,
  type ReadResult,
  type StorageDriver,
  type WriteBody,
  type WriteOptions,
} from '../types.js';
import { mapFtpError } from './errors.js';
import { entryOfInfo, etagOf, formatFtpTime, parseFtpTime, parseMlst, TEMP_PREFIX } from './listing.js';
import { FtpPool, type FtpTls } from './pool.js';

export interface FtpDriverOptions {
  host: string;
  /** Default 21 (990 for implicit TLS is the server's choice: give it). */
  port?: number;
  username?: string;
  password?: string;
  tls?: FtpTls;
  /** Accept self-signed certificates. */
  tlsInsecure?: boolean;
  /** Absolute folder on the server that is the driver's root; default: where the login lands. */
  root?: string;
  lookup?: LookupFunction;
  /** Connect / reply timeout (default 10 s). */
  timeoutMs?: number;
  /** Clients kept at most (default 4). */
  maxClients?: number;
}

function isReply(err: unknown, code?: number): boolean {
  return err instanceof FTPError && (code === undefined || err.code === code);
}

export class FtpDriver implements StorageDriver {
  /** The following pages of a listing come from its first page's answer (pageByName.ts). */
  private readonly snapshots = new ListingSnapshots();
  readonly kind = 'ftp';
  readonly pool: FtpPool;
  private readonly configuredRoot?: string;
  private readonly tls: boolean;

  constructor(options: FtpDriverOptions) {
    if (!options.host) throw new StorageError('invalid_path', 'ftp host is required');
    this.pool = new FtpPool(
      {
        host: options.host,
        port: options.port ?? 21,
        username: options.username ?? '',
        password: options.password ?? '',
        tls: options.tls ?? 'none',
        tlsInsecure: options.tlsInsecure === true,
        ...(options.lookup ? { lookup: options.lookup } : {}),
        timeoutMs: options.timeoutMs ?? 10_000,
      },
      options.maxClients ?? 4,
    );
    this.tls = (options.tls ?? 'none') !== 'none';
    if (options.root !== undefined) this.configuredRoot = `/${options.root.split('/').filter(Boolean).join('/')}`;
  }

  /** The root folder on the server (known once a client has logged in). */
  private root(): string {
    const root = this.configuredRoot ?? this.pool.session?.home ?? '/';
    return root.endsWith('/') ? root : `${root}/`;
  }

  /** The absolute server path of a driver path (checked normalised; temp names only as the last segment). */
  private abs(path: string): string {
    if (baseName(path).startsWith(TEMP_PREFIX)) assertNormalized(parentPath(path));
    else assertNormalized(path);
    return path === '' ? this.root().replace(/(.)\/$/, '$1') : `${this.root()}${path}`;
  }

  private has(feature: string): boolean {
    return this.pool.session?.features.has(feature) === true;
  }

  private run<T>(path: string, fn: (client: Client) => Promise<T>): Promise<T> {
    return this.pool.use(fn, path);
  }

  /** stat with a client in hand. */
  private async statWith(client: Client, path: string): Promise<Entry> {
    const abs = this.abs(path);
    if (path === '') {
      await client.cd(abs).catch((err: unknown) => {
        throw mapFtpError(err, path);
      });
      return { path: '', name: '', isDir: true, size: 0 };
    }
    const name = baseName(path);
    if (this.has('MLST')) {
      try {
        const facts = parseMlst((await client.send(`MLST ${abs}`)).message);
        if (facts?.type === 'dir' || facts?.type === 'cdir' || facts?.type === 'pdir') {
          return { path, name, isDir: true, size: 0, ...(facts.modified ? { lastModified: facts.modified } : {}) };
        }
        if (facts?.type === 'file') return this.fileEntry(path, facts.size ?? 0, facts.modified);
      } catch (err) {
        if (!isReply(err)) throw err;
        if (isReply(err, 550)) throw new StorageError('not_found', 'not found', { path });
      }
    }
    try {
      const size = await client.size(abs);
      let modified: Date | undefined;
      if (this.has('MDTM')) {
        modified = parseFtpTime((await client.send(`MDTM ${abs}`)).message.slice(4));
      }
      return this.fileEntry(path, size, modified);
    } catch (err) {
      if (!isReply(err)) throw err;
    }
    try {
      await client.cd(abs);
      return { path, name, isDir: true, size: 0 };
    } catch (err) {
      if (!isReply(err)) throw err;
      throw new StorageError('not_found', 'not found', { path });
    }
  }

  private fileEntry(path: string, size: number, modified: Date | undefined): Entry {
    return {
      path,
      name: baseName(path),
      isDir: false,
      size,
      ...(modified ? { lastModified: modified } : {}),
      etag: etagOf(size, modified),
    };
  }

  async stat(path: string): Promise<Entry> {
    this.abs(path);
    return this.run(path, (client) => this.statWith(client, path));
  }

  private async statOrNull(client: Client, path: string): Promise<Entry | null> {
    try {
      return await this.statWith(client, path);
    } catch (err) {
      if (err instanceof StorageError && err.code === 'not_found') return null;
      throw err;
    }
  }

  /** Every item of a folder as the server lists it ('.' and '..' aside), after a CWD into it. */
  private async rawList(client: Client, dir: string): Promise<FileInfo[]> {
    try {
      await client.cd(this.abs(dir));
    } catch (err) {
      if (!isReply(err)) throw err;
      const entry = await this.statWith(client, dir);
      throw new StorageError(entry.isDir ? 'io' : 'not_a_directory', entry.isDir ? 'cannot enter' : 'not a directory', {
        path: dir,
      });
    }
    return (await client.list()).filter((i) => i.name !== '.' && i.name !== '..');
  }

  async list(dir: string, page: ListPage = {}): Promise<ListResult> {
    this.abs(dir);
    return this.snapshots.page(dir, page, async () => {
      const items = await this.run(dir, (client) => this.rawList(client, dir));
      const entries: Entry[] = [];
      for (const item of items) {
        const entry = entryOfInfo(dir, item);
        if (entry) entries.push(entry);
      }
      return entries;
    });
  }

  async read(path: string, opts: ReadOptions = {}): Promise<ReadResult> {
    this.abs(path);
    if (path === '') throw new StorageError('is_a_directory', 'is a directory', { path });
    if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path });
    const client = await this.pool.acquire();
    let entry: Entry;
    try {
      entry = await this.statWith(client, path);
    } catch (err) {
      this.pool.release(client);
      throw mapFtpError(err, path);
    }
    if (entry.isDir) {
      this.pool.release(client);
      throw new StorageError('is_a_directory', 'is a directory', { path });
    }
    let wanted: { start: number; end: number } | undefined;
    try {
      wanted = opts.range ? resolveRange(opts.range, entry.size, path) : undefined;
    } catch (err) {
      this.pool.release(client);
      throw err;
    }
    const start = wanted?.start ?? 0;
    const length = wanted ? wanted.end - wanted.start + 1 : entry.size;
    const pass = new PassThrough();
    let finished = false;
    const done = client.downloadTo(pass, this.abs(path), start).then(
      () => {
        finished = true;
      },
      (err: unknown) => {
        if (!pass.destroyed) pass.destroy(mapFtpError(err, path));
      },
    );
    void done.finally(() => this.pool.release(client));
    // Stop after the range: the rest of the file is never fetched (the connection is dropped, not reused).
    const body: Readable = wanted && wanted.end < entry.size - 1 ? sliceNode(pass, 0, length) : pass;
    const stop = () => {
      // Read to its end: the client finishes the transfer (226) and goes back to the pool. Stopped early (a
      // range, a cancel, an abort): the transfer is cut by closing the connection.
      if (!finished && !(body === pass && pass.readableEnded)) client.close();
    };
    body.once('close', stop);
    if (opts.signal) {
      const signal = opts.signal;
      const onAbort = () => {
        stop();
        body.destroy(new StorageError('aborted', 'aborted', { path }));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      body.once('close', () => signal.removeEventListener('abort', onAbort));
    }
    return {
      stream: webFromNode(body, (err) => mapFtpError(err, path)),
      size: entry.size,
      contentLength: length,
      ...(wanted ? { range: wanted } : {}),
      ...(entry.etag ? { etag: entry.etag } : {}),
      ...(entry.lastModified ? { lastModified: entry.lastModified } : {}),
    };
  }

  async write(path: string, body: WriteBody, opts: WriteOptions = {}): Promise<Entry> {
    const source = nodeFromBody(body);
    let temp: string | undefined;
    try {
      this.abs(path);
      if (path === '') throw new StorageError('invalid_path', 'cannot write the root', { path });
      if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path });
      // The temp file is removed after the client is given back (that one may have been closed by an abort).
      const finish = async (client: Client, name: string): Promise<Entry> => {
        if (opts.overwrite === false && (await this.statOrNull(client, path))) {
          throw new StorageError('exists', 'exists', { path });
        }
        await client.rename(this.abs(name), this.abs(path));
        temp = undefined;
        return this.statWith(client, path);
      };
      let emptyOverTls = false;
      const written = await this.run(path, async (client) => {
        const existing = await this.statOrNull(client, path);
        if (existing?.isDir) throw new StorageError('is_a_directory', 'is a directory', { path });
        if (existing && opts.overwrite === false) throw new StorageError('exists', 'exists', { path });
        const parent = parentPath(path);
        await this.mkdirWith(client, parent);
        const name = `${parent === '' ? '' : `${parent}/`}${TEMP_PREFIX}${randomBytes(8).toString('hex')}`;
        temp = name;
        emptyOverTls = await this.upload(client, name, source, opts);
        return emptyOverTls ? undefined : finish(client, name);
      });
      if (written) return written;
      // vsftpd fails the TLS session of an empty upload after creating the file: finish on another client once
      // the 0-byte temp file is seen there.
      const name = temp!;
      return await this.run(path, async (client) => {
        const entry = await this.statOrNull(client, name);
        if (!entry || entry.isDir || entry.size !== 0) throw new StorageError('io', 'empty upload failed', { path });
        return finish(client, name);
      });
    } catch (err) {
      source.on('error', () => undefined);
      source.destroy();
      if (temp !== undefined) await this.deleteQuietly(temp);
      throw mapFtpError(err, path);
    }
  }

  /**
   * STOR of the temp file. true when the body was empty and only the TLS data channel failed (the server may
   * still have made the file: the caller looks).
   */
  private async upload(client: Client, temp: string, source: Readable, opts: WriteOptions): Promise<boolean> {
    const meter = new ByteMeter({ size: opts.size, maxBytes: opts.maxBytes, path: temp });
    let ended = false;
    meter.once('end', () => (ended = true));
    const sent = await sendMetered(source, meter, async (body) => {
      const onAbort = () => client.close();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await client.uploadFrom(body, this.abs(temp));
      } finally {
        opts.signal?.removeEventListener('abort', onAbort);
      }
    });
    const streamError = sent.bodyError;
    if (!sent.ok) {
      if (streamError instanceof StorageError) throw streamError;
      if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path: temp, cause: sent.error });
      if (!streamError && ended && meter.bytes === 0 && this.tls && /SSL|TLS/i.test(String(sent.error))) return true;
      throw mapFtpError(streamError ?? sent.error, temp);
    }
    if (streamError) throw mapFtpError(streamError, temp);
    if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path: temp });
    return false;
  }

  /** Removes a temp file with a client of its own (the one of the write may have been closed). */
  private async deleteQuietly(temp: string): Promise<void> {
    try {
      await this.run(temp, (client) => client.remove(this.abs(temp)));
    } catch {
      // best effort: a hidden temp file is never listed
    }
  }

  private async mkdirWith(client: Client, path: string): Promise<void> {
    if (path === '') return;
    try {
      await client.cd(this.abs(path));
      return;
    } catch (err) {
      if (!isReply(err)) throw err;
    }
    const segments = path.split('/');
    for (let i = 1; i <= segments.length; i++) {
      const sub = segments.slice(0, i).join('/');
      try {
        await client.send(`MKD ${this.abs(sub)}`);
      } catch (err) {
        if (!isReply(err)) throw err;
        const entry = await this.statOrNull(client, sub);
        if (!entry) throw mapFtpError(err, sub);
        if (!entry.isDir) throw new StorageError('exists', 'a file has this name', { path: sub });
      }
    }
  }

  async mkdir(path: string): Promise<void> {
    this.abs(path);
    await this.run(path, (client) => this.mkdirWith(client, path));
  }

  private async removeTree(client: Client, path: string): Promise<void> {
    for (const item of await this.rawList(client, path)) {
      if (/[/\\]/.test(item.name)) continue;
      const child = `${path}/${item.name}`;
      if (item.type === FileType.Directory) await this.removeTree(client, child);
      else await client.send(`DELE ${this.rawAbs(child)}`);
    }
    await client.send(`RMD ${this.rawAbs(path)}`);
  }

  /** Like abs, for names the server listed inside a folder being removed (temp files among them). */
  private rawAbs(path: string): string {
    return `${this.root()}${path}`;
  }

  async remove(path: string, opts: { recursive?: boolean } = {}): Promise<void> {
    this.abs(path);
    if (path === '') throw new StorageError('invalid_path', 'cannot remove the root', { path });
    await this.run(path, async (client) => {
      const entry = await this.statWith(client, path);
      if (!entry.isDir) {
        await client.send(`DELE ${this.abs(path)}`);
        return;
      }
      if (opts.recursive) {
        await this.removeTree(client, path);
        return;
      }
      if ((await this.rawList(client, path)).length > 0) {
        throw new StorageError('not_empty', 'directory not empty', { path });
      }
      await client.send(`RMD ${this.abs(path)}`);
    });
  }

  async move(from: string, to: string, opts: { overwrite?: boolean } = {}): Promise<void> {
    this.abs(from);
    this.abs(to);
    if (from === '' || to === '') throw new StorageError('invalid_path', 'cannot move the root', { path: from });
    if (to !== from && isWithin(to, from)) {
      throw new StorageError('invalid_path', 'cannot move a folder into itself', { path: to });
    }
    await this.run(from, async (client) => {
      await this.statWith(client, from);
      if (from === to) return;
      const target = await this.statOrNull(client, to);
      if (target && !opts.overwrite) throw new StorageError('exists', 'exists', { path: to });
      if (target?.isDir) await this.removeTree(client, to);
      await this.mkdirWith(client, parentPath(to));
      await client.rename(this.abs(from), this.abs(to));
    });
  }

  /** MFMT where the server has it; elsewhere the time stays the server's (the entry answered says which). */
  async setModified(path: string, at: Date): Promise<Entry> {
    this.abs(path);
    return this.run(path, async (client) => {
      const entry = await this.statWith(client, path);
      if (entry.isDir || !this.has('MFMT')) return entry;
      await client.send(`MFMT ${formatFtpTime(at)} ${this.abs(path)}`);
      return this.statWith(client, path);
    });
  }

  async close(): Promise<void> {
    this.snapshots.clear();
    this.pool.close();
  }
}
