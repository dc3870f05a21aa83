// Copy and move anywhere in the tree (WebDAV COPY / MOVE): within one mount by the storage's own copy or
// move, across mounts by streaming every file through the server (read → write, nothing buffered whole).
// Built on the Vfs's public surface, so normalisation, permissions, base paths and the listing cache are
// the Vfs's; the destination must not exist (callers delete it first when they overwrite).
import { Permission, isPathWithin, joinVirtualPath } from '@clipnest/contract';
import { AppError } from '../errors.js';
import type { Principal } from '../services/principal.js';
import { storageToAppError } from '../services/storageErrors.js';
import { isStorageError } from '../storage/types.js';
import type { Resolved } from './types.js';
import type { Vfs } from './vfs.js';

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
    if (isPathWithin(to.path, from.path)) {
      throw AppError.forbidden(`cannot copy or move ${from.path} into itself (${to.path})`);
    }
    return { from, to, isDir: fromEntry.isDir };
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
    await this.vfs.mkdir(principal, to.path);
    if (depth === '0') return;
    let cursor: string | undefined;
    do {
      const page = await this.vfs.list(principal, from.path, {
        refresh: true,
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      });
      for (const entry of page.entries) {
        if (entry.isMount) continue;
        const child = await this.vfs.resolve(principal, entry.path, Permission.MOUNT_COPY);
        const target = await this.vfs.resolveWrite(principal, joinVirtualPath(to.path, entry.name), 'destination', {
          needed: Permission.MOUNT_COPY,
        });
        await this.streamCopy(principal, child, target, entry.isDir, 'infinity');
      }
      cursor = page.cursor;
    } while (cursor);
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
