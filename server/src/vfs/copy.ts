// The one copy engine of the tree: REST copy tasks (one call per planned item) and WebDAV
// COPY / MOVE (one call per request, run as a task for a folder) both call Vfs.copy. Same storage config at
// both ends (one mount or two mounts of one config, each with its own root): the storage copies by itself
// (S3 CopyObject, local fs.copyFile / cp); otherwise every file streams through the server (read → write with
// backpressure, nothing buffered whole). What happens to an existing destination is the `overwrite` option.
import { Permission, joinVirtualPath } from '@clipnest/contract';
import { AppError } from '../errors.js';
import type { Principal } from '../auth/principal.js';
import { storageToAppError } from './errors.js';
import { isStorageError } from '../storage/types.js';
import { driverOf } from './drivers.js';
import type { Resolved, VfsEntry } from './types.js';
import type { Vfs } from './vfs.js';

/**
 * Bounds of a tree copied through the server (WebDAV COPY / MOVE across storages, copy tasks): the tree is
 * walked before a byte is copied, and a walk past these answers 413 naming the limit.
 */
export const TREE_COPY_LIMITS = {
  /** Files and folders below the copied folder. */
  maxEntries: 100_000,
  /** Folder levels below the copied folder. */
  maxDepth: 64,
} as const;

export function treeTooBig(what: string, limit: 'entries' | 'depth'): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    limit === 'entries'
      ? `${what} holds at most ${TREE_COPY_LIMITS.maxEntries} files and folders`
      : `${what} goes at most ${TREE_COPY_LIMITS.maxDepth} folders deep`,
  );
}

/**
 * What a copy does with a destination that exists:
 * - `fail` (default): 412, nothing changed (WebDAV `Overwrite: F`, a destination cleared by the caller);
 * - `replace`: the destination is removed first, then copied (WebDAV `Overwrite: T`);
 * - `merge`: files are overwritten in place, folders merged (REST copy tasks);
 * - `skip`: an existing file is left as it is (REST copy tasks with `skipExisting`).
 */
export type CopyOverwrite = 'fail' | 'replace' | 'merge' | 'skip';

export interface VfsCopyOptions {
  overwrite?: CopyOverwrite;
  /** 'infinity' (default) copies a folder with its content; '0' copies the folder alone. */
  depth?: '0' | 'infinity';
  signal?: AbortSignal;
  /** Bytes copied so far (called as they flow; once per file for a copy the storage makes itself). */
  onProgress?: (bytes: number) => void;
  /** The name of the destination in error messages (default `destination`). */
  field?: string;
}

export interface VfsCopyResult {
  /** true when `skip` left an existing file as it was. */
  skipped?: boolean;
  /** Bytes of the files copied. */
  bytes: number;
}

type Run = Required<Pick<VfsCopyOptions, 'overwrite' | 'depth'>> & Pick<VfsCopyOptions, 'signal' | 'onProgress'>;

export class VfsCopier {
  constructor(private readonly vfs: Vfs) {}

  /**
   * 403 when the destination is the source, lies inside it, or holds it, in the tree or in the storage (two
   * mounts of one storage config are one tree): a copy into itself would recurse, an overwrite of an ancestor
   * would delete the source. Callers ask before they delete anything.
   */
  async assertApart(from: string, to: string): Promise<void> {
    const relation = await this.vfs.relation(to, from);
    if (relation === 'same') throw AppError.forbidden(`the destination ${to} is the source ${from}`);
    if (relation === 'inside') throw AppError.forbidden(`cannot copy or move ${from} into itself (${to})`);
    if (relation === 'contains') {
      throw AppError.forbidden(`the destination ${to} contains the source ${from}: it cannot be overwritten by it`);
    }
  }

  /** Copies a file or folder (MOUNT_COPY on the source and on the destination). */
  async copy(principal: Principal, fromInput: string, toInput: string, options: VfsCopyOptions = {}) {
    const run: Run = { ...options, overwrite: options.overwrite ?? 'fail', depth: options.depth ?? 'infinity' };
    const from = await this.vfs.resolve(principal, fromInput, Permission.MOUNT_COPY);
    const source = await this.vfs.stat(principal, from.path, Permission.MOUNT_COPY);
    const tree = source.isDir && run.depth === 'infinity';
    // A folder merged into a destination may be a mount's root (its content lands in the mount).
    const merging = run.overwrite === 'merge' || run.overwrite === 'skip';
    const to = await this.vfs.resolveWrite(principal, toInput, options.field ?? 'destination', {
      needed: Permission.MOUNT_COPY,
      allowMountRoot: source.isDir && merging,
    });
    if (tree) {
      if (source.isMount || from.mount.path === from.path) {
        throw AppError.forbidden(`${from.path} is a mount point: it cannot be copied or moved`);
      }
      await this.vfs.assertNoShareObjects(from, 'source');
    }
    if (tree || run.overwrite === 'replace') await this.assertApart(from.path, to.path);
    if (run.overwrite === 'replace' && (await this.exists(to))) await this.vfs.remove(principal, [to.path]);
    if (!source.isDir) {
      if (run.overwrite === 'skip' && (await this.exists(to))) return { skipped: true, bytes: 0 };
      return { bytes: await this.file(from, to, source.size, run) };
    }
    if (!tree) {
      await this.vfs.mkdirAt(to);
      return { bytes: 0 };
    }
    if (this.sameStorage(from, to)) {
      await this.storageCopy(from, to, run);
      this.vfs.emit({ type: 'copy', mountId: to.mount.id, path: from.path, toPath: to.path });
      return { bytes: 0 };
    }
    return { bytes: await this.streamTree(principal, from, to, run) };
  }

  /**
   * Moves a file or folder: within one mount by the storage's own move, across mounts as a copy and a removal
   * (MOUNT_RENAME on both ends, plus MOUNT_COPY / MOUNT_DELETE across mounts). `overwrite`: `fail` or `replace`.
   */
  async move(
    principal: Principal,
    fromInput: string,
    toInput: string,
    options: { overwrite?: 'fail' | 'replace' } = {},
  ): Promise<void> {
    const from = await this.vfs.resolve(principal, fromInput, Permission.MOUNT_RENAME);
    const source = await this.vfs.stat(principal, from.path, Permission.MOUNT_RENAME);
    if (source.isMount || from.mount.path === from.path) {
      throw AppError.forbidden(`${from.path} is a mount point: it cannot be copied or moved`);
    }
    const to = await this.vfs.resolveWrite(principal, toInput, 'destination', { needed: Permission.MOUNT_RENAME });
    await this.assertApart(from.path, to.path);
    if (source.isDir) await this.vfs.assertNoShareObjects(from, 'source');
    if (options.overwrite === 'replace' && (await this.exists(to))) await this.vfs.remove(principal, [to.path]);
    if (from.mount.id !== to.mount.id) {
      await this.copy(principal, from.path, to.path);
      await this.vfs.remove(principal, [from.path]);
      return;
    }
    try {
      await driverOf(from).move(from.driverPath, to.driverPath, { overwrite: false });
    } catch (error) {
      throw this.mapped(error, to);
    }
    this.vfs.emit({ type: 'move', mountId: from.mount.id, path: from.path, toPath: to.path });
  }

  /** One storage config at both ends, and it copies by itself. */
  private sameStorage(from: Resolved, to: Resolved): boolean {
    return from.mount.storage_config_id === to.mount.storage_config_id && !!driverOf(from).copy;
  }

  private async storageCopy(from: Resolved, to: Resolved, run: Run): Promise<void> {
    try {
      await driverOf(from).copy!(from.driverPath, to.driverPath, { overwrite: run.overwrite !== 'fail' });
    } catch (error) {
      throw this.mapped(error, to);
    }
  }

  /** One file (the storage's own copy, else streamed); answers its bytes. */
  private async file(from: Resolved, to: Resolved, size: number, run: Run): Promise<number> {
    // Within the write limit of the destination (max upload size, the storage's remaining capacity): 413.
    await this.vfs.checkWrite(to, size);
    if (this.sameStorage(from, to)) {
      await this.storageCopy(from, to, run);
      run.onProgress?.(size);
      const entry = await driverOf(to)
        .stat(to.driverPath)
        .catch(() => undefined);
      if (entry) this.vfs.written(to, entry);
      else this.vfs.emit({ type: 'copy', mountId: to.mount.id, path: from.path, toPath: to.path });
      return size;
    }
    let read;
    try {
      read = await driverOf(from).read(from.driverPath, run.signal ? { signal: run.signal } : {});
    } catch (error) {
      throw storageToAppError(error, 'file');
    }
    try {
      if (read.size !== size) await this.vfs.checkWrite(to, read.size);
      const onProgress = run.onProgress;
      const body = onProgress ? read.stream.pipeThrough(meter(onProgress)) : read.stream;
      const entry = await driverOf(to).write(to.driverPath, body, {
        size: read.size,
        overwrite: run.overwrite !== 'fail',
        ...(run.signal ? { signal: run.signal } : {}),
        ...(read.contentType ? { contentType: read.contentType } : {}),
      });
      this.vfs.written(to, entry);
      return read.size;
    } catch (error) {
      await read.stream.cancel().catch(() => undefined);
      throw this.mapped(error, to);
    }
  }

  /**
   * A folder across storages. The whole tree is walked (and bounded) before anything is copied: what is copied
   * is the source as it was, whatever the copy adds on the way, and a tree past the limits leaves nothing behind.
   */
  private async streamTree(principal: Principal, from: Resolved, to: Resolved, run: Run): Promise<number> {
    const below = await this.walk(principal, from.path);
    await this.vfs.mkdirAt(to);
    let bytes = 0;
    for (const entry of below) {
      run.signal?.throwIfAborted();
      const target = joinVirtualPath(to.path, entry.path.slice(from.path.length + 1));
      const into = await this.vfs.resolveWrite(principal, target, 'destination', { needed: Permission.MOUNT_COPY });
      if (entry.isDir) {
        await this.vfs.mkdirAt(into);
        continue;
      }
      const child = await this.vfs.resolve(principal, entry.path, Permission.MOUNT_COPY);
      bytes += await this.file(child, into, entry.size, run);
    }
    return bytes;
  }

  /** Every file and folder below `root` (folders before their content; nested mounts left out), bounded. */
  private async walk(principal: Principal, root: string): Promise<VfsEntry[]> {
    const out: VfsEntry[] = [];
    const stack: Array<{ path: string; depth: number }> = [{ path: root, depth: 1 }];
    while (stack.length > 0) {
      const { path, depth } = stack.pop() as { path: string; depth: number };
      const subfolders: VfsEntry[] = [];
      let cursor: string | undefined;
      do {
        const page = await this.vfs.list(principal, path, {
          refresh: true,
          limit: 1000,
          ...(cursor ? { cursor } : {}),
        });
        for (const entry of page.entries) {
          if (entry.isMount) continue;
          if (out.length >= TREE_COPY_LIMITS.maxEntries) throw treeTooBig('a copy', 'entries');
          out.push(entry);
          if (entry.isDir) subfolders.push(entry);
        }
        cursor = page.cursor;
      } while (cursor);
      if (subfolders.length > 0 && depth >= TREE_COPY_LIMITS.maxDepth) throw treeTooBig('a copy', 'depth');
      for (let i = subfolders.length - 1; i >= 0; i--) stack.push({ path: subfolders[i]!.path, depth: depth + 1 });
    }
    return out;
  }

  private async exists(resolved: Resolved): Promise<boolean> {
    try {
      await driverOf(resolved).stat(resolved.driverPath);
      return true;
    } catch (error) {
      if (isStorageError(error, 'not_found')) return false;
      throw storageToAppError(error, 'file');
    }
  }

  private mapped(error: unknown, to: Resolved): unknown {
    if (error instanceof AppError) return error;
    if (isStorageError(error, 'exists')) return new AppError('PRECONDITION_FAILED', `${to.path} already exists`);
    return storageToAppError(error, 'file');
  }
}

/** Passes a stream through, reporting each chunk's size as it goes by (progress of copies). */
function meter(onBytes: (n: number) => void): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      onBytes(chunk.byteLength);
      controller.enqueue(chunk);
    },
  });
}
