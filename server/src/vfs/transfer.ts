// Copy and move anywhere in the tree (WebDAV COPY / MOVE): within one mount by the storage's own copy or
// move, across mounts by streaming every file through the server (read → write, nothing buffered whole).
// Built on the Vfs's public surface, so normalisation, permissions, base paths and the listing cache are
// the Vfs's; the destination must not exist (callers delete it first when they overwrite).
import { Permission, joinVirtualPath } from '@clipnest/contract';
import { AppError } from '../errors.js';
import type { Principal } from '../services/principal.js';
import { storageToAppError } from '../services/storageErrors.js';
import { isStorageError } from '../storage/types.js';
import type { Resolved, VfsEntry } from './types.js';
import type { Vfs } from './vfs.js';

/**
 * Bounds of a tree copied through the server (WebDAV COPY / MOVE across mounts, copy tasks): the tree is
 * walked before a byte is copied, and a walk past these answers 413 naming the limit (issue 34, point 13).
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

export interface CopyOptions {
  /** 'infinity' (default) copies a folder with its content; '0' copies the folder alone. */
  depth?: '0' | 'infinity';
}

export class VfsTransfer {
  constructor(private readonly vfs: Vfs) {}

  private async endpoints(principal: Principal, fromInput: string, toInput: string, needed: number) {
    const from = await this.vfs.resolve(principal, fromInput, needed);
    const fromEntry = await this.vfs.stat(principal, from.path, needed);
    if (fromEntry.isMount || from.mount.path === from.path) {
      throw AppError.forbidden(`${from.path} is a mount point: it cannot be copied or moved`);
    }
    // The destination is checked as a write with the operation's own bit (MOUNT_COPY for a copy,
    // MOUNT_RENAME for a move), the base path, not a mount point, no file where a parent folder must be.
    const to = await this.vfs.resolveWrite(principal, toInput, 'destination', { needed });
    await this.assertApart(from.path, to.path);
    if (fromEntry.isDir) await this.vfs.assertNoShareObjects(from, 'source');
    return { from, to, isDir: fromEntry.isDir };
  }

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

  /** Copies a file or folder to a path that does not exist yet (MOUNT_COPY on the source and on the target). */
  async copy(principal: Principal, fromInput: string, toInput: string, options: CopyOptions = {}): Promise<void> {
    const { from, to, isDir } = await this.endpoints(principal, fromInput, toInput, Permission.MOUNT_COPY);
    const depth = options.depth ?? 'infinity';
    if (from.mount.id === to.mount.id && from.driver.copy && (!isDir || depth === 'infinity')) {
      if (!isDir)
        await this.vfs.checkWrite(to, (await this.vfs.stat(principal, from.path, Permission.MOUNT_COPY)).size);
      try {
        await from.driver.copy(from.driverPath, to.driverPath, { overwrite: false });
      } catch (error) {
        if (isStorageError(error, 'exists')) throw new AppError('PRECONDITION_FAILED', `${to.path} already exists`);
        throw storageToAppError(error, 'file');
      }
      this.vfs.emit({ type: 'copy', mountId: to.mount.id, path: from.path, toPath: to.path });
      return;
    }
    await this.streamCopy(principal, from, to, isDir, depth);
  }

  private async streamCopy(
    principal: Principal,
    from: Resolved,
    to: Resolved,
    isDir: boolean,
    depth: '0' | 'infinity',
  ): Promise<void> {
    if (!isDir) {
      const { result } = await this.vfs.read(principal, from.path);
      try {
        // Within the write limit of the target (max upload size, the storage's remaining capacity): 413.
        await this.vfs.checkWrite(to, result.size);
        const entry = await to.driver.write(to.driverPath, result.stream, { size: result.size, overwrite: false });
        this.vfs.written(to, entry);
      } catch (error) {
        await result.stream.cancel().catch(() => undefined);
        if (error instanceof AppError) throw error;
        if (isStorageError(error, 'exists')) throw new AppError('PRECONDITION_FAILED', `${to.path} already exists`);
        throw storageToAppError(error, 'file');
      }
      return;
    }
    // The whole tree is walked (and bounded) before anything is copied: what is copied is the source as it was,
    // whatever the copy adds on the way, and a tree past the limits leaves nothing behind.
    const below = depth === '0' ? [] : await this.walk(principal, from.path);
    await this.vfs.mkdir(principal, to.path);
    for (const entry of below) {
      const target = joinVirtualPath(to.path, entry.path.slice(from.path.length + 1));
      if (entry.isDir) {
        await this.vfs.mkdir(principal, target);
        continue;
      }
      const child = await this.vfs.resolve(principal, entry.path, Permission.MOUNT_COPY);
      const into = await this.vfs.resolveWrite(principal, target, 'destination', { needed: Permission.MOUNT_COPY });
      await this.streamCopy(principal, child, into, false, 'infinity');
    }
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

  /** Moves a file or folder to a path that does not exist yet (MOUNT_RENAME on both ends, plus MOUNT_COPY / MOUNT_DELETE across mounts). */
  async move(principal: Principal, fromInput: string, toInput: string): Promise<void> {
    const { from, to } = await this.endpoints(principal, fromInput, toInput, Permission.MOUNT_RENAME);
    if (from.mount.id === to.mount.id) {
      try {
        await from.driver.move(from.driverPath, to.driverPath, { overwrite: false });
      } catch (error) {
        if (isStorageError(error, 'exists')) throw new AppError('PRECONDITION_FAILED', `${to.path} already exists`);
        throw storageToAppError(error, 'file');
      }
      this.vfs.emit({ type: 'move', mountId: from.mount.id, path: from.path, toPath: to.path });
      return;
    }
    await this.copy(principal, from.path, to.path);
    await this.vfs.remove(principal, [from.path]);
  }
}
