// What the Vfs is built from (server.ts wires them): the mount table, the drivers of storage configs, and the
// rules of other parts of the app it applies on every path (WebDAV locks, file shares' objects, write limits).
import type { AppError } from '../errors.js';
import type { StorageDriver } from '../storage/types.js';
import type { MountRecord, Resolved } from './types.js';

export interface VfsDeps {
  /** Every mount (active or not), in display order. */
  loadMounts(): Promise<MountRecord[]>;
  /** The driver of a storage config (`registry.driverFor(config)`); throws AppError when the config is gone. */
  driverFor(storageConfigId: string): Promise<StorageDriver>;
  /** How long the mount table is kept in memory (default 5 s; mount edits through this instance drop it at once). */
  mountsTtlMs?: number;
  now?: () => number;
  /** Called after this instance changed a mount (tells the other instances to reload their table). */
  onMountsChanged?: (mountId?: string) => void;
  /**
   * Refuses a write that touches a WebDAV lock (throws the 423), for callers that cannot send lock tokens (the fs
   * API, tasks). `membership`: the write adds or removes a member of the parent folder; `tree`: it changes
   * everything below the path. Skipped for principals marked `locksChecked` (WebDAV, which checks with tokens).
   */
  writeGuard?: (path: string, scope: { membership?: boolean; tree?: boolean }) => Promise<void>;
  /**
   * File shares' own objects stored outside the share area (before it existed, or imported in place): a
   * mount never reads, lists, moves, copies or deletes them. New share objects live in SHARE_AREA, which no
   * mount path can name.
   */
  shareObjects?: {
    at(storageConfigId: string, driverPaths: readonly string[]): Promise<Set<string>>;
    below(storageConfigId: string, driverDir: string): Promise<boolean>;
  };
  /**
   * The limit of a write into a resolved path (the max upload size setting, the storage config's remaining
   * total_capacity), or undefined for none. Every write path asks it through checkWrite (write, presign,
   * multipart, copies): one check, one 413 in the spec's words.
   */
  writeLimit?: (resolved: Resolved) => Promise<WriteLimit | undefined>;
}

/** How many bytes a write may have, and the 413 for one that has more. */
export interface WriteLimit {
  maxBytes: number;
  tooLarge(bytes: number, atLeast: boolean): AppError;
}
