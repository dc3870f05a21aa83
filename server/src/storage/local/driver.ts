// Local disk driver: a directory on this machine (the caller picks it, e.g. DATA_DIR/storage/<config id>).
//
// - Atomic writes: bytes go to `.clipnest-<random>.tmp` in the target's own directory and are renamed
//   into place only when complete (link+unlink when overwrite is false, so an existing file is never
//   clobbered). A failed or aborted write removes the temp file; a reader never sees half a file, and a
//   reader that already opened the old file keeps reading the old bytes.
// - Streams only: reads pull 1 MiB at a time from a file handle (one chunk of read-ahead); writes read the
//   body while the previous 1 MiB batch is written (writev), so at most ~2 MiB is in memory.
// - Multipart is emulated: parts live in `<root>/.clipnest-multipart/<uploadId>/<n>.part`, complete
//   concatenates them as a stream into an atomic write. ETags are derived from inode, size and mtime.
// - No presign: the server proxies every byte.
// - Confined to the root, symlinks included: before every operation the target's deepest existing
//   ancestor is resolved with realpath and must lie inside the root's realpath, else
//   StorageError('invalid_path'). A symlink inside the root pointing inside it is followed; one pointing
//   out is never followed (listings leave it out, directory copies skip it). Listed links carry their
//   target (Entry.linkTarget) and realPath() answers where a path lands, so the tree can check a key's base
//   path on the real location. copy() never creates an absolute link (see copy). Removing such a link removes
//   the link itself, never what it points to. (An operator with a shell who swaps a directory for a
//   symlink between the check and the call is outside what this guards.)
import type { BigIntStats, Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import nodePath from 'node:path';
import { assertNormalized, isWithin, parentPath, RESERVED_PREFIX } from '../paths.js';
import { YoungGarbage } from '../youngGarbage.js';
import { chunkReader, resolveRange } from '../streams.js';
import { isInsideDir, realDirOrNull, resolveReal } from './realPath.js';
import {
  StorageError,
  type Entry,
  type ListPage,
  type ListResult,
  type MultipartCapability,
  type ReadOptions,
  type ReadResult,
  type StorageDriver,
  type StorageSpace,
  type WriteOptions,
  type WriteBody,
} from '../types.js';
import { mapFsError, mapLookupError } from './errors.js';
import { entryOf, etagOf, TEMP_NAME, tempName, writingTemp, writingTemps } from './files.js';
import { decodeCursor, encodeCursor, folderVersion, MAX_LIST, NAMES_REUSE_MS, statNames } from './listing.js';
import { LocalMultipart } from './multipart.js';
import { fileStream, FLUSH_EVERY, WRITE_BATCH, writeAll } from './streams.js';

export { mapFsError } from './errors.js';

export interface LocalDriverOptions {
  /** Absolute (or cwd-relative) directory; created on first write. */
  root: string;
  /**
   * fsync each written file before it is renamed into place (default true for the driver; the server
   * passes LOCAL_FSYNC, off by default like most file servers: the rename alone already keeps readers
   * from half files, fsync adds power-loss durability at the disk's speed).
   */
  fsync?: boolean;
}

export class LocalDriver implements StorageDriver {
  /** The sorted names of the folder listed last, for the next pages of the same listing (list()). */
  private lastNames?: { abs: string; version: string; names: string[]; links: Map<string, string>; at: number };
  readonly kind = 'local';
  readonly root: string;
  readonly multipart: MultipartCapability;
  private readonly fsync: boolean;
  private realRoot: string | undefined;

  constructor(options: LocalDriverOptions) {
    if (!options.root) throw new StorageError('invalid_path', 'local driver needs a root directory');
    this.root = nodePath.resolve(options.root);
    this.fsync = options.fsync ?? true;
    this.multipart = new LocalMultipart(this);
  }

  /**
   * Removes the temp files of writes that never finished (the process was killed mid-write): files named
   * like `tempName()` anywhere under the root, last written before `olderThan`. A write in progress
   * touches its file with every batch, so only abandoned ones are that old. Answers the removed paths.
   */
  async sweepTemp(olderThan: Date): Promise<string[]> {
    const removed: string[] = [];
    const walk = async (dir: string, rel: string): Promise<void> => {
      let entries: Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const abs = nodePath.join(dir, entry.name);
        const path = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          await walk(abs, path);
        } else if (entry.isFile() && TEMP_NAME.test(entry.name) && !writingTemps.has(abs)) {
          const st = await fs.stat(abs).catch(() => null);
          if (st && st.mtimeMs < olderThan.getTime()) {
            await fs.rm(abs, { force: true });
            removed.push(path);
          }
        }
      }
    };
    await walk(this.root, '');
    return removed;
  }

  /** Absolute path of a driver path (checked to be normalised). */
  abs(path: string): string {
    assertNormalized(path);
    return path === '' ? this.root : nodePath.join(this.root, path);
  }

  /**
   * Refuses an absolute path whose real location (symlinks resolved, up to its deepest existing
   * ancestor) is outside the root's real path. Nothing exists below a root that does not exist yet.
   */
  async confineAbs(abs: string, path = ''): Promise<void> {
    this.realRoot ??= (await realDirOrNull(this.root)) ?? undefined;
    if (this.realRoot === undefined) return;
    let real: string;
    try {
      real = await resolveReal(abs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ELOOP') {
        throw new StorageError('invalid_path', 'too many levels of symbolic links', { path, cause: err });
      }
      throw mapFsError(err, path);
    }
    if (!isInsideDir(real, this.realRoot)) {
      throw new StorageError('invalid_path', 'the path leaves the storage root through a symbolic link', { path });
    }
  }

  /** The driver path `path` really lands on (symlinks resolved); 'invalid_path' outside the root. */
  async realPath(path: string): Promise<string> {
    const abs = await this.confined(path);
    if (this.realRoot === undefined) return path;
    const real = await resolveReal(abs);
    const rel = nodePath.relative(this.realRoot, real);
    return rel.split(nodePath.sep).join('/');
  }

  /** The driver path a symlink at `abs` resolves to, or null when it leaves the root (or cannot be resolved). */
  private async linkTargetOf(abs: string): Promise<string | null> {
    try {
      await this.confineAbs(abs);
      if (this.realRoot === undefined) return null;
      return nodePath
        .relative(this.realRoot, await resolveReal(abs))
        .split(nodePath.sep)
        .join('/');
    } catch {
      return null;
    }
  }

  /** `abs(path)`, checked to stay inside the root once symlinks are resolved. */
  private async confined(path: string): Promise<string> {
    const abs = this.abs(path);
    await this.confineAbs(abs, path);
    return abs;
  }

  /** A directory entry that is a symlink counts only when it resolves inside the root. */
  private async linkStaysInside(abs: string): Promise<boolean> {
    try {
      await this.confineAbs(abs);
      return true;
    } catch {
      return false;
    }
  }

  private async statOrNull(abs: string): Promise<BigIntStats | null> {
    try {
      return await fs.stat(abs, { bigint: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      throw mapFsError(err);
    }
  }

  async stat(path: string): Promise<Entry> {
    const abs = await this.confined(path);
    try {
      return entryOf(path, await fs.stat(abs, { bigint: true }));
    } catch (err) {
      if (path === '' && (err as NodeJS.ErrnoException).code === 'ENOENT') {
        return { path: '', name: '', isDir: true, size: 0 };
      }
      throw mapLookupError(err, path);
    }
  }

  async space(): Promise<StorageSpace> {
    try {
      const [fsStats, rootStats] = await Promise.all([fs.statfs(this.root), fs.stat(this.root)]);
      return {
        totalBytes: fsStats.blocks * fsStats.bsize,
        usedBytes: (fsStats.blocks - fsStats.bfree) * fsStats.bsize,
        freeBytes: fsStats.bavail * fsStats.bsize,
        volume: `dev:${rootStats.dev}`,
      };
    } catch (err) {
      throw mapLookupError(err, '');
    }
  }

  async setModified(path: string, at: Date): Promise<Entry> {
    const abs = await this.confined(path);
    try {
      await fs.utimes(abs, at, at);
      return entryOf(path, await fs.stat(abs, { bigint: true }));
    } catch (err) {
      throw mapLookupError(err, path);
    }
  }

  async list(dir: string, page: ListPage = {}): Promise<ListResult> {
    const abs = await this.confined(dir);
    const limit = Math.max(1, Math.min(page.limit ?? MAX_LIST, MAX_LIST));
    // The following pages of a listing reuse the sorted names of its first page while the folder is unchanged.
    const version = page.cursor ? await folderVersion(abs) : undefined;
    const reuse = this.lastNames;
    let names: string[];
    let links: Map<string, string>;
    if (version && reuse && reuse.abs === abs && reuse.version === version && Date.now() - reuse.at < NAMES_REUSE_MS) {
      names = reuse.names;
      links = reuse.links;
    } else {
      const before = await folderVersion(abs);
      try {
        const dirents = (await fs.readdir(abs, { withFileTypes: true })).filter(
          (d) => !d.name.startsWith(RESERVED_PREFIX),
        );
        // A link counts only when it resolves inside the root; its entry says where it leads (linkTarget).
        const targets = await Promise.all(
          dirents.map((d) => (d.isSymbolicLink() ? this.linkTargetOf(nodePath.join(abs, d.name)) : undefined)),
        );
        links = new Map();
        names = [];
        dirents.forEach((d, i) => {
          const target = targets[i];
          if (target === null) return;
          if (target !== undefined) links.set(d.name, target);
          names.push(d.name);
        });
      } catch (err) {
        if (dir === '' && (err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [] };
        throw mapFsError(err, dir);
      }
      names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      this.lastNames = before ? { abs, version: before, names, links, at: Date.now() } : undefined;
    }
    const after = page.cursor ? decodeCursor(page.cursor) : undefined;
    const from = after === undefined ? 0 : names.findIndex((n) => n > after);
    const slice = from < 0 ? [] : names.slice(from, from + limit);
    const entries = await statNames(abs, dir, slice);
    if (links.size > 0) {
      for (const entry of entries) {
        const target = links.get(entry.name);
        if (target !== undefined) entry.linkTarget = target;
      }
    }
    const last = slice[slice.length - 1];
    const more = from >= 0 && from + limit < names.length;
    return more && last !== undefined ? { entries, cursor: encodeCursor(last) } : { entries };
  }

  async read(path: string, opts: ReadOptions = {}): Promise<ReadResult> {
    const abs = await this.confined(path);
    if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path });
    let fh: fs.FileHandle;
    try {
      fh = await fs.open(abs, 'r');
    } catch (err) {
      throw mapLookupError(err, path);
    }
    try {
      const st = await fh.stat({ bigint: true });
      if (st.isDirectory()) throw new StorageError('is_a_directory', 'is a directory', { path });
      const size = Number(st.size);
      const range = opts.range ? resolveRange(opts.range, size, path) : undefined;
      const start = range?.start ?? 0;
      const contentLength = range ? range.end - range.start + 1 : size;
      return {
        stream: fileStream(fh, start, contentLength, path, opts.signal),
        size,
        contentLength,
        ...(range ? { range } : {}),
        etag: etagOf(st),
        lastModified: new Date(Number(st.mtimeMs)),
      };
    } catch (err) {
      await fh.close().catch(() => undefined);
      throw mapFsError(err, path);
    }
  }

  /**
   * Streams `body` into a temp file beside the target (reading ahead while the previous batch is
   * written: at most two 1 MiB batches in memory), checks the byte count, fsyncs, then renames (or,
   * with overwrite false, hard-links) it into place. On any failure the temp file is removed and the
   * body cancelled.
   */
  async write(path: string, body: WriteBody, opts: WriteOptions = {}): Promise<Entry> {
    const reader = chunkReader(body);
    const cancel = (reason?: unknown) => reader.cancel(reason).catch(() => undefined);
    let tmp: string | undefined;
    let tracked: string | undefined;
    let fh: fs.FileHandle | undefined;
    let pending: Promise<void> | undefined;
    let flushing: Promise<void> | undefined;
    let unflushed = 0;
    let writeError: unknown;
    const onAbort = () => void cancel(new StorageError('aborted', 'aborted', { path }));
    try {
      const abs = await this.confined(path);
      if (path === '') throw new StorageError('invalid_path', 'cannot write to the root', { path });
      const overwrite = opts.overwrite ?? true;
      await this.ensureParent(path);
      const existing = await this.statOrNull(abs);
      if (existing?.isDirectory()) throw new StorageError('is_a_directory', 'a directory has this name', { path });
      if (existing && !overwrite) throw new StorageError('exists', 'already exists', { path });
      if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path });
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      tmp = nodePath.join(nodePath.dirname(abs), tempName());
      tracked = tmp;
      writingTemps.add(tmp);
      fh = await fs.open(tmp, 'wx');
      const file = fh;
      let bytes = 0;
      const garbage = new YoungGarbage();
      let batch: Uint8Array[] = [];
      let batchBytes = 0;
      for (;;) {
        const { value, done } = await reader.read();
        if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path });
        if (writeError) throw writeError;
        if (value && value.byteLength > 0) {
          bytes += value.byteLength;
          garbage.add(value.byteLength);
          if (opts.maxBytes !== undefined && bytes > opts.maxBytes) {
            throw new StorageError('too_large', `more than ${opts.maxBytes} bytes`, { path });
          }
          if (opts.size !== undefined && bytes > opts.size) {
            throw new StorageError('size_mismatch', `more than the announced ${opts.size} bytes`, { path });
          }
          batch.push(value);
          batchBytes += value.byteLength;
        }
        if (batchBytes >= WRITE_BATCH || (done && batchBytes > 0)) {
          if (pending) await pending;
          if (writeError) throw writeError;
          const chunks = batch;
          pending = writeAll(file, chunks).catch((err: unknown) => {
            writeError = err;
          });
          unflushed += batchBytes;
          batch = [];
          batchBytes = 0;
          if (this.fsync && !flushing && unflushed >= FLUSH_EVERY) {
            unflushed = 0;
            flushing = pending
              .then(() => file.datasync())
              .catch((err: unknown) => {
                writeError ??= err;
              })
              .finally(() => {
                flushing = undefined;
              });
          }
        }
        if (done) break;
      }
      if (pending) await pending;
      if (flushing) await flushing;
      if (writeError) throw writeError;
      if (opts.size !== undefined && bytes !== opts.size) {
        throw new StorageError('size_mismatch', `got ${bytes} bytes, announced ${opts.size}`, { path });
      }
      if (this.fsync) await fh.sync();
      await fh.close();
      fh = undefined;
      if (overwrite) {
        await fs.rename(tmp, abs);
      } else {
        await fs.link(tmp, abs); // EEXIST if someone else won the race: never clobbers
        await fs.unlink(tmp);
      }
      tmp = undefined;
    } catch (err) {
      await cancel(err);
      if (pending) await pending;
      if (flushing) await flushing;
      await fh?.close().catch(() => undefined);
      if (tmp) await fs.rm(tmp, { force: true }).catch(() => undefined);
      if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path, cause: err });
      throw mapFsError(err, path);
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      if (tracked) writingTemps.delete(tracked);
    }
    return this.stat(path);
  }

  /** mkdir -p of the parent; a file in the way → not_a_directory. */
  private async ensureParent(path: string): Promise<void> {
    const parent = parentPath(path);
    try {
      await fs.mkdir(this.abs(parent), { recursive: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTDIR') {
        throw new StorageError('not_a_directory', 'a parent is a file', { path, cause: err });
      }
      throw mapFsError(err, path);
    }
  }

  async mkdir(path: string): Promise<void> {
    const abs = await this.confined(path);
    try {
      await fs.mkdir(abs, { recursive: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        const st = await this.statOrNull(abs);
        if (st?.isDirectory()) return;
        throw new StorageError(st ? 'exists' : 'not_a_directory', st ? 'a file has this name' : 'a parent is a file', {
          path,
          cause: err,
        });
      }
      throw mapFsError(err, path);
    }
  }

  async remove(path: string, opts: { recursive?: boolean } = {}): Promise<void> {
    const abs = this.abs(path);
    if (path === '') throw new StorageError('invalid_path', 'cannot remove the root', { path });
    // The parent must stay inside; the entry itself is never followed (lstat, unlink, rm without dereference).
    await this.confineAbs(nodePath.dirname(abs), path);
    try {
      const st = await fs.lstat(abs);
      if (!st.isDirectory()) await fs.unlink(abs);
      else if (opts.recursive) await fs.rm(abs, { recursive: true, force: true });
      else await fs.rmdir(abs);
    } catch (err) {
      throw mapLookupError(err, path);
    }
  }

  private async prepareTarget(from: string, to: string, overwrite: boolean): Promise<BigIntStats> {
    if (from === '' || to === '') throw new StorageError('invalid_path', 'cannot move or copy the root');
    await this.confined(from);
    await this.confined(to);
    const src = await this.statOrNull(this.abs(from));
    if (!src) throw new StorageError('not_found', 'not found', { path: from });
    if (from !== to && isWithin(to, from)) {
      throw new StorageError('invalid_path', 'cannot move or copy a directory into itself', { path: to });
    }
    await this.ensureParent(to);
    if (from === to) return src;
    const dest = await this.statOrNull(this.abs(to));
    if (dest) {
      if (!overwrite) throw new StorageError('exists', 'already exists', { path: to });
      if (dest.isDirectory() || src.isDirectory()) await fs.rm(this.abs(to), { recursive: true, force: true });
    }
    return src;
  }

  async move(from: string, to: string, opts: { overwrite?: boolean } = {}): Promise<void> {
    await this.prepareTarget(from, to, opts.overwrite ?? false);
    if (from === to) return;
    try {
      await fs.rename(this.abs(from), this.abs(to));
    } catch (err) {
      throw mapFsError(err, to);
    }
  }

  async copy(from: string, to: string, opts: { overwrite?: boolean } = {}): Promise<void> {
    const src = await this.prepareTarget(from, to, opts.overwrite ?? false);
    if (from === to) return;
    const abs = this.abs(to);
    const tmp = nodePath.join(nodePath.dirname(abs), tempName());
    try {
      // A link named as the source is followed (it was confined to the root, and the tree checked its target
      // against the caller's scope): the copy is the file or folder it leads to, never a link. Links inside a
      // copied folder are copied as written (verbatim: a relative link stays relative, none is made absolute;
      // their targets were not checked for the caller, so they are not dereferenced); those leading out of
      // the root are skipped.
      const source = await resolveReal(this.abs(from));
      if (src.isDirectory() && isInsideDir(await resolveReal(abs), source)) {
        throw new StorageError('invalid_path', 'cannot copy a directory into itself (through a link)', { path: to });
      }
      await writingTemp(tmp, async () => {
        if (src.isDirectory()) {
          await fs.cp(source, tmp, {
            recursive: true,
            errorOnExist: true,
            force: false,
            verbatimSymlinks: true,
            filter: async (source) =>
              !nodePath.basename(source).startsWith(RESERVED_PREFIX) &&
              (!(await fs.lstat(source)).isSymbolicLink() || (await this.linkStaysInside(source))),
          });
        } else {
          await fs.copyFile(source, tmp, fs.constants.COPYFILE_EXCL);
        }
        await fs.rename(tmp, abs);
      });
    } catch (err) {
      await fs.rm(tmp, { recursive: true, force: true }).catch(() => undefined);
      throw mapFsError(err, to);
    }
  }
}
