// What a storage can do beyond the small core (ARCHITECTURE.md "Storage drivers"), asked in this one place:
// presigned URLs, multipart uploads, setting a file's time, the stored entry of an upload made around the
// server. Services call these through the Vfs (vfs.presign, vfs.multipart, …) and never hold a driver.
import { storageToAppError } from './errors.js';
import { isStorageError, type Entry, type MultipartCapability, type PresignOptions } from '../storage/types.js';
import { driverOf } from './drivers.js';
import type { Resolved, VfsEntry } from './types.js';

export interface CapabilityHost {
  written(resolved: Resolved, entry: Entry): VfsEntry;
  emit(change: { type: 'remove'; mountId: string; path: string }): void;
}

export class VfsCapabilities {
  constructor(private readonly host: CapabilityHost) {}

  /** true when the storage can hand out presigned URLs (S3; not local storage). */
  canPresign(resolved: Resolved): boolean {
    return typeof driverOf(resolved).presign === 'function';
  }

  /**
   * A short-lived URL to GET or PUT the file straight at its storage, or undefined when the storage cannot
   * presign. Throws the storage's StorageError as it is (callers decide what an 'unsupported' means).
   */
  async presign(
    resolved: Resolved,
    op: 'get' | 'put',
    ttlSeconds: number,
    options?: PresignOptions,
  ): Promise<string | undefined> {
    const driver = driverOf(resolved);
    if (!driver.presign) return undefined;
    return driver.presign(resolved.driverPath, op, ttlSeconds, options);
  }

  /** The storage's multipart uploads (paths are the resolved `driverPath`), or undefined when it has none. */
  multipart(resolved: Resolved): MultipartCapability | undefined {
    return driverOf(resolved).multipart;
  }

  /**
   * Sets a file's modification time where the storage can (local: utimes) and announces the file; undefined
   * when the storage cannot (S3).
   */
  async setModified(resolved: Resolved, at: Date): Promise<VfsEntry | undefined> {
    const driver = driverOf(resolved);
    if (!driver.setModified) return undefined;
    try {
      return this.host.written(resolved, await driver.setModified(resolved.driverPath, at));
    } catch (error) {
      throw storageToAppError(error, 'file');
    }
  }

  /** The entry stored at a resolved path (an upload made around the server), or undefined when none is there. */
  async stored(resolved: Resolved): Promise<Entry | undefined> {
    try {
      return await driverOf(resolved).stat(resolved.driverPath);
    } catch (error) {
      if (isStorageError(error, 'not_found')) return undefined;
      throw storageToAppError(error);
    }
  }

  /** Removes a file an upload made around the server left that is not kept (errors ignored), and announces it. */
  async discard(resolved: Resolved): Promise<void> {
    await driverOf(resolved)
      .remove(resolved.driverPath)
      .catch(() => undefined);
    this.host.emit({ type: 'remove', mountId: resolved.mount.id, path: resolved.path });
  }
}
