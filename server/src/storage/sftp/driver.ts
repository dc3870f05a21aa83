// SFTP driver (OpenSSH and other SSH servers) on ssh2's SFTP subsystem, over a small pool of connections (pool.ts).
//
// - The root is a remote folder (`root`, absolute, or relative to the login's home; '' = the home itself),
//   resolved once per connection pool with realpath. Every path is resolved with the server's realpath before use,
//   so neither `..` nor a remote symbolic link can lead outside it ('invalid_path'); names in listings that are not
//   plain names, and links that point outside, are left out.
// - Writes stream into a hidden temp file next to the target (`.clipnest-upload-*`) and are renamed over the target
//   when complete (posix-rename@openssh.com where the server has it): a failed, oversize or aborted write leaves
//   nothing, and readers never see half a file.
// - No server-side copy in SFTP: the driver has no `copy`, so the vfs streams read → write.
// - No multipart capability: the vfs streams uploads through the server into one write.
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { FileEntryWithStats, SFTPWrapper, Stats } from 'ssh2';
import { assertNormalized, baseName, isWithin, parentPath, RESERVED_PREFIX } from '../paths.js';
import { ByteMeter, isAbortError, nodeFromBody, resolveRange, webFromNode } from '../streams.js';
import { ListingSnapshots } from '../pageByName.js';
import {
  StorageError,
  type Entry,
  type ListPage,
  type ListResult,
  type ReadOptions,
  type ReadResult,
  type StorageDriver,
  type StorageSpace,
  type WriteBody,
  type WriteOptions,
} from '../types.js';
import { mapSftpError, SFTP_STATUS } from './errors.js';
import { PipelinedSftpRead } from './pipelinedRead.js';
import { PipelinedSftpWrite } from './pipelinedWrite.js';
import { SftpPool, type SftpConnectOptions } from './pool.js';

export interface SftpDriverOptions extends SftpConnectOptions {
  /** The remote folder that is the driver's root: absolute, or relative to the login's home ('' = home). */
  root?: string;
}

function call<T>(fn: (cb: (err: Error | undefined | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => fn((err, value) => (err ? reject(err) : resolve(value))));
}

function callVoid(fn: (cb: (err: Error | undefined | null) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => fn((err) => (err ? reject(err) : resolve())));
}

function isCode(err: unknown, code: number): boolean {
  if (err instanceof StorageError) return code === SFTP_STATUS.NO_SUCH_FILE && err.code === 'not_found';
  return (err as { code?: unknown })?.code === code;
}

function joinRemote(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

function etagOf(attrs: Stats): string {
  return `"${attrs.size.toString(16)}-${attrs.mtime.toString(16)}"`;
}

function entryOf(path: string, attrs: Stats): Entry {
  const isDir = path === '' || attrs.isDirectory();
  return {
    path,
    name: baseName(path),
    isDir,
    size: isDir ? 0 : attrs.size,
    lastModified: new Date(attrs.mtime * 1000),
    ...(isDir ? {} : { etag: etagOf(attrs) }),
  };
}

/** A plain name a listing may show: no separators, no dot names, no control characters, not reserved. */
function listable(name: string): boolean {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\\')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(name) || name.startsWith(RESERVED_PREFIX)) return false;
  return Buffer.byteLength(name) <= 255;
}

export class SftpDriver implements StorageDriver {
  /** The following pages of a listing come from its first page's answer (pageByName.ts). */
  private readonly snapshots = new ListingSnapshots();
  readonly kind = 'sftp';
  readonly pool: SftpPool;
  private rootPromise?: Promise<string>;

  constructor(private readonly options: SftpDriverOptions) {
    this.pool = new SftpPool(options);
  }

  /** The host key fingerprint seen on the last connection (what the config test pins). */
  get seenHostKey(): string | undefined {
    return this.pool.seenHostKey;
  }

  /** The root's real remote path. */
  private root(): Promise<string> {
    this.rootPromise ??= this.pool
      .use(async (sftp) => {
        const wanted = (this.options.root ?? '').trim() || '.';
        const real = await call<string>((cb) => sftp.realpath(wanted, cb));
        const attrs = await call<Stats>((cb) => sftp.stat(real, cb));
        if (!attrs.isDirectory()) throw new StorageError('unavailable', `the sftp root ${wanted} is not a folder`);
        return real.length > 1 ? real.replace(/\/+$/, '') : real;
      })
      .catch((err: unknown) => {
        this.rootPromise = undefined;
        const mapped = mapSftpError(err);
        throw mapped.code === 'not_found'
          ? new StorageError('unavailable', `the sftp root folder ${this.options.root ?? ''} does not exist`)
          : mapped;
      });
    return this.rootPromise;
  }

  private inside(root: string, real: string): boolean {
    return root === '/' || real === root || real.startsWith(`${root}/`);
  }

  /** The remote path below the root of a driver path, before any link is resolved. */
  private async remote(path: string): Promise<string> {
    const root = await this.root();
    return path === '' ? root : joinRemote(root, path);
  }

  /**
   * The real remote path of `path` (links resolved; a missing last part kept as it is, a missing folder on the way
   * appended segment by segment). 'invalid_path' when it leaves the root.
   */
  private async resolve(sftp: SFTPWrapper, path: string): Promise<string> {
    const root = await this.root();
    if (path === '') return root;
    let real: string;
    try {
      real = await call<string>((cb) => sftp.realpath(joinRemote(root, path), cb));
    } catch (err) {
      if (!isCode(err, SFTP_STATUS.NO_SUCH_FILE) && !isCode(err, SFTP_STATUS.FAILURE)) throw err;
      real = joinRemote(await this.resolve(sftp, parentPath(path)), baseName(path));
    }
    if (!this.inside(root, real)) {
      throw new StorageError('invalid_path', 'the path leads outside the storage root', { path });
    }
    return real;
  }

  /** The real remote path of the parent, joined with the name itself (a link there is not followed). */
  private async resolveParent(sftp: SFTPWrapper, path: string): Promise<string> {
    return joinRemote(await this.resolve(sftp, parentPath(path)), baseName(path));
  }

  private async lstatOrNull(sftp: SFTPWrapper, remote: string): Promise<Stats | null> {
    try {
      return await call<Stats>((cb) => sftp.lstat(remote, cb));
    } catch (err) {
      if (isCode(err, SFTP_STATUS.NO_SUCH_FILE)) return null;
      throw err;
    }
  }

  private async statOrNull(sftp: SFTPWrapper, remote: string): Promise<Stats | null> {
    try {
      return await call<Stats>((cb) => sftp.stat(remote, cb));
    } catch (err) {
      if (isCode(err, SFTP_STATUS.NO_SUCH_FILE) || isCode(err, SFTP_STATUS.FAILURE)) return null;
      throw err;
    }
  }

  async realPath(path: string): Promise<string> {
    assertNormalized(path);
    return this.pool.use(async (sftp) => {
      const root = await this.root();
      const real = await this.resolve(sftp, path);
      return real === root ? '' : real.slice(root === '/' ? 1 : root.length + 1);
    }, path);
  }

  async stat(path: string): Promise<Entry> {
    assertNormalized(path);
    return this.pool.use(async (sftp) => {
      const attrs = await this.statOrNull(sftp, await this.resolve(sftp, path));
      if (!attrs) throw new StorageError('not_found', 'not found', { path });
      return entryOf(path, attrs);
    }, path);
  }

  async list(dir: string, page: ListPage = {}): Promise<ListResult> {
    assertNormalized(dir);
    return this.snapshots.page(dir, page, () => this.listWhole(dir));
  }

  private listWhole(dir: string): Promise<Entry[]> {
    return this.pool.use(async (sftp) => {
      const real = await this.resolve(sftp, dir);
      const attrs = await this.statOrNull(sftp, real);
      if (!attrs) throw new StorageError('not_found', 'not found', { path: dir });
      if (!attrs.isDirectory()) throw new StorageError('not_a_directory', 'not a directory', { path: dir });
      const items = await call<FileEntryWithStats[]>((cb) => sftp.readdir(real, cb));
      const root = await this.root();
      const out: Entry[] = [];
      for (const item of items) {
        if (!listable(item.filename)) continue;
        const childPath = dir === '' ? item.filename : `${dir}/${item.filename}`;
        let childAttrs: Stats = item.attrs;
        if (item.attrs.isSymbolicLink()) {
          // A link is shown as what it points at, and only when that lies inside the root.
          try {
            const target = await call<string>((cb) => sftp.realpath(joinRemote(real, item.filename), cb));
            if (!this.inside(root, target)) continue;
            const resolved = await this.statOrNull(sftp, target);
            if (!resolved) continue;
            childAttrs = resolved;
          } catch {
            continue;
          }
        }
        out.push(entryOf(childPath, childAttrs));
      }
      return out;
    }, dir);
  }

  async read(path: string, opts: ReadOptions = {}): Promise<ReadResult> {
    assertNormalized(path);
    if (path === '') throw new StorageError('is_a_directory', 'is a directory', { path });
    if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path });
    const { real, attrs } = await this.pool.use(async (sftp) => {
      const resolved = await this.resolve(sftp, path);
      const found = await this.statOrNull(sftp, resolved);
      if (!found) throw new StorageError('not_found', 'not found', { path });
      return { real: resolved, attrs: found };
    }, path);
    if (attrs.isDirectory()) throw new StorageError('is_a_directory', 'is a directory', { path });
    const wanted = opts.range ? resolveRange(opts.range, attrs.size, path) : undefined;
    const lease = await this.pool.lease();
    const stream = new PipelinedSftpRead(lease.sftp, real, wanted?.start ?? 0, wanted ? wanted.end + 1 : attrs.size);
    stream.once('close', lease.release);
    stream.once('error', lease.release);
    if (opts.signal) {
      const signal = opts.signal;
      const onAbort = () => stream.destroy(new StorageError('aborted', 'aborted', { path }));
      signal.addEventListener('abort', onAbort, { once: true });
      stream.once('close', () => signal.removeEventListener('abort', onAbort));
    }
    return {
      stream: webFromNode(stream, (err) => mapSftpError(err, path)),
      size: attrs.size,
      contentLength: wanted ? wanted.end - wanted.start + 1 : attrs.size,
      ...(wanted ? { range: wanted } : {}),
      etag: etagOf(attrs),
      lastModified: new Date(attrs.mtime * 1000),
    };
  }

  async write(path: string, body: WriteBody, opts: WriteOptions = {}): Promise<Entry> {
    assertNormalized(path);
    const source = nodeFromBody(body);
    try {
      if (path === '') throw new StorageError('invalid_path', 'cannot write the root', { path });
      if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path });
      await this.mkdir(parentPath(path));
      const target = await this.pool.use(async (sftp) => {
        const remote = await this.resolveParent(sftp, path);
        const existing = await this.statOrNull(sftp, remote);
        if (existing?.isDirectory()) throw new StorageError('is_a_directory', 'is a directory', { path });
        if (existing && opts.overwrite === false) throw new StorageError('exists', 'exists', { path });
        return remote;
      }, path);
      const temp = joinRemote(
        target.slice(0, target.lastIndexOf('/')) || '/',
        `${RESERVED_PREFIX}upload-${randomBytes(8).toString('hex')}`,
      );
      const lease = await this.pool.lease();
      try {
        const meter = new ByteMeter({ size: opts.size, maxBytes: opts.maxBytes, path });
        const sink = new PipelinedSftpWrite(lease.sftp, temp, 0o644);
        try {
          await pipeline(source, meter, sink, ...(opts.signal ? [{ signal: opts.signal }] : []));
        } catch (err) {
          if (opts.signal?.aborted || isAbortError(err)) throw new StorageError('aborted', 'aborted', { path });
          throw mapSftpError(err, path);
        }
        await this.replace(lease.sftp, temp, target, opts.overwrite !== false, path);
      } catch (err) {
        await callVoid((cb) => lease.sftp.unlink(temp, cb)).catch(() => undefined);
        throw err;
      } finally {
        lease.release();
      }
      return await this.stat(path);
    } catch (err) {
      source.on('error', () => undefined);
      source.destroy();
      throw mapSftpError(err, path);
    }
  }

  /** Renames `from` to `to`, replacing a file there when `overwrite` (atomic with posix-rename@openssh.com). */
  private async replace(sftp: SFTPWrapper, from: string, to: string, overwrite: boolean, path: string): Promise<void> {
    const posix = (sftp as unknown as { _extensions?: Record<string, string> })._extensions?.[
      'posix-rename@openssh.com'
    ];
    if (overwrite && posix) {
      await callVoid((cb) => sftp.ext_openssh_rename(from, to, cb));
      return;
    }
    try {
      await callVoid((cb) => sftp.rename(from, to, cb));
    } catch (err) {
      const there = await this.lstatOrNull(sftp, to);
      if (!there) throw mapSftpError(err, path);
      if (!overwrite) throw new StorageError('exists', 'exists', { path });
      await this.removeTree(sftp, to, there);
      await callVoid((cb) => sftp.rename(from, to, cb));
    }
  }

  async mkdir(path: string): Promise<void> {
    assertNormalized(path);
    if (path === '') return;
    await this.pool
      .use(async (sftp) => {
        const real = await this.resolve(sftp, path);
        const attrs = await this.statOrNull(sftp, real);
        if (attrs?.isDirectory()) return;
        if (attrs) throw new StorageError('exists', 'a file has this name', { path });
        // Missing: make the parent first (its own resolve keeps it inside the root), then this folder.
        const parent = parentPath(path);
        if (parent !== '') {
          const parentReal = await this.resolve(sftp, parent);
          const parentAttrs = await this.statOrNull(sftp, parentReal);
          if (parentAttrs && !parentAttrs.isDirectory()) {
            throw new StorageError('exists', 'a file is on the way', { path: parent });
          }
        }
        return real;
      }, path)
      .then(async (real) => {
        if (real === undefined) return;
        const parent = parentPath(path);
        if (parent !== '') await this.mkdir(parent);
        await this.pool.use(async (sftp) => {
          try {
            await callVoid((cb) => sftp.mkdir(real, cb));
          } catch (err) {
            const again = await this.statOrNull(sftp, real);
            if (again?.isDirectory()) return; // made meanwhile by another call
            if (again) throw new StorageError('exists', 'a file has this name', { path });
            throw err;
          }
        }, path);
      });
  }

  /** Removes a file, link or whole folder (links are removed, never followed). */
  private async removeTree(sftp: SFTPWrapper, remote: string, attrs: Stats): Promise<void> {
    if (!attrs.isDirectory()) {
      await callVoid((cb) => sftp.unlink(remote, cb));
      return;
    }
    const items = await call<FileEntryWithStats[]>((cb) => sftp.readdir(remote, cb));
    for (const item of items) {
      if (item.filename === '.' || item.filename === '..' || item.filename.includes('/')) continue;
      await this.removeTree(sftp, joinRemote(remote, item.filename), item.attrs);
    }
    await callVoid((cb) => sftp.rmdir(remote, cb));
  }

  async remove(path: string, opts: { recursive?: boolean } = {}): Promise<void> {
    assertNormalized(path);
    if (path === '') throw new StorageError('invalid_path', 'cannot remove the root', { path });
    const lease = await this.pool.lease();
    try {
      const remote = await this.resolveParent(lease.sftp, path);
      const attrs = await this.lstatOrNull(lease.sftp, remote);
      if (!attrs) throw new StorageError('not_found', 'not found', { path });
      if (attrs.isDirectory() && !opts.recursive) {
        const items = await call<FileEntryWithStats[]>((cb) => lease.sftp.readdir(remote, cb));
        if (items.some((i) => i.filename !== '.' && i.filename !== '..')) {
          throw new StorageError('not_empty', 'directory not empty', { path });
        }
      }
      await this.removeTree(lease.sftp, remote, attrs);
    } catch (err) {
      throw mapSftpError(err, path);
    } finally {
      lease.release();
    }
  }

  async move(from: string, to: string, opts: { overwrite?: boolean } = {}): Promise<void> {
    assertNormalized(from);
    assertNormalized(to);
    if (from === '' || to === '') throw new StorageError('invalid_path', 'cannot move the root', { path: from });
    if (to !== from && isWithin(to, from)) {
      throw new StorageError('invalid_path', 'cannot move a folder into itself', { path: to });
    }
    if (from === to) {
      await this.stat(from);
      return;
    }
    await this.stat(from);
    await this.mkdir(parentPath(to));
    await this.pool.use(async (sftp) => {
      const source = await this.resolveParent(sftp, from);
      const target = await this.resolveParent(sftp, to);
      const sourceAttrs = await this.lstatOrNull(sftp, source);
      if (!sourceAttrs) throw new StorageError('not_found', 'not found', { path: from });
      const there = await this.lstatOrNull(sftp, target);
      if (there && !opts.overwrite) throw new StorageError('exists', 'exists', { path: to });
      if (there && (there.isDirectory() || sourceAttrs.isDirectory())) await this.removeTree(sftp, target, there);
      await this.replace(sftp, source, target, opts.overwrite === true, to);
    }, from);
  }

  async setModified(path: string, at: Date): Promise<Entry> {
    assertNormalized(path);
    await this.pool.use(async (sftp) => {
      const real = await this.resolve(sftp, path);
      await callVoid((cb) => sftp.utimes(real, at, at, cb));
    }, path);
    return this.stat(path);
  }

  async space(): Promise<StorageSpace> {
    return this.pool.use(async (sftp) => {
      const root = await this.root();
      const ext = (sftp as unknown as { _extensions?: Record<string, string> })._extensions ?? {};
      if (!ext['statvfs@openssh.com']) throw new StorageError('unsupported', 'the sftp server has no statvfs');
      // ssh2 names the fields as the extension's spec does (f_bsize, …); 64-bit ones may come as bigint.
      const info = (await call<unknown>((cb) => sftp.ext_openssh_statvfs(root, cb))) as Record<string, unknown>;
      const n = (key: string) => Number((info[`f_${key}`] as number | bigint | undefined) ?? 0);
      const unit = n('frsize') || n('bsize');
      const blocks = n('blocks');
      if (!unit || !blocks) throw new StorageError('unsupported', 'the sftp server tells no file system size');
      return {
        totalBytes: blocks * unit,
        usedBytes: (blocks - n('bfree')) * unit,
        freeBytes: n('bavail') * unit,
        volume: `sftp://${this.options.host}:${this.options.port}#${String(info.f_sid ?? root)}`,
      };
    });
  }

  async close(): Promise<void> {
    this.snapshots.clear();
    await this.pool.close();
  }
}
