// The shapes of the fs tree (docs/storage.md, "The fs tree"). Do not rename once committed: copy tasks, zip, search and
// WebDAV build on them.
import type { MountView } from '@clipnest/contract';
import type { Principal } from '../auth/principal.js';
import type { Entry, WriteOptions } from '../storage/types.js';

/** A mount point as the tree works with it: a `mounts` row with real booleans, the same shape the API answers. */
export type MountRecord = MountView;

/** A file or folder of the tree. */
export interface VfsEntry {
  name: string;
  /** Normalised virtual path. */
  path: string;
  isDir: boolean;
  size: number;
  /** ISO 8601. */
  lastModified?: string;
  etag?: string;
  contentType?: string;
  /** The mount the entry lives in (absent for virtual folders above mounts). */
  mountId?: string;
  /** true for a folder that is a mount point (or leads to one) rather than a folder of a storage. */
  isMount?: boolean;
  /** A mount point's storage type (the explorer's icon for it). */
  storageType?: string;
  /** true for a symbolic link (local storage): walks that index the tree do not descend through it. */
  isLink?: boolean;
}

/** How a file is written into the tree (`Vfs.write`): the storage's options and what the tree adds. */
export interface VfsWriteOptions extends WriteOptions {
  /** 409 when the parent folder does not exist; none is made (WebDAV PUT). */
  requireParent?: boolean;
  /** Sees what is at the path (undefined: nothing) before a byte is written; throw to refuse. */
  before?: (existing: VfsEntry | undefined) => Promise<void> | void;
  /** A modification time for the written file, set where the storage can. */
  mtime?: Date;
}

/**
 * A virtual path resolved to the storage that holds it. The driver stays inside the vfs (drivers.ts): callers
 * ask the vfs for what a storage can do (copy, presign, multipart, setModified).
 */
export interface Resolved {
  /** Normalised virtual path. */
  path: string;
  mount: MountRecord;
  /** Path inside the driver ('' = the mount's root). */
  driverPath: string;
}

/** Emitted after every successful write made through the tree (listing cache, search index listen). */
export interface VfsChange {
  type: 'write' | 'mkdir' | 'remove' | 'move' | 'copy';
  mountId: string;
  /** Virtual path written / created / removed, or the source of a move or copy. */
  path: string;
  /** Target of a move or copy (virtual). */
  toPath?: string;
  entry?: VfsEntry;
}

export type VfsListener = (change: VfsChange) => void;

/** A folder just read from its storage (not answered from the listing cache): the search index takes it in. */
export interface VfsListed {
  /** Who listed it (the search crawler recognises its own listings). */
  principal: Principal;
  mount: MountRecord;
  /** Normalised virtual path of the folder. */
  path: string;
  /** The storage's entries of the folder (those hidden by a nested mount of the same name left out). */
  entries: readonly Entry[];
}

export type VfsListedListener = (listed: VfsListed) => void;

export interface VfsListOptions {
  /** Bypass (and refill) the listing cache. */
  refresh?: boolean;
  /** Offset into the folder's entries, as a decimal string (from a previous page's `cursor`). */
  cursor?: string;
  /** Entries per page (default: all). */
  limit?: number;
  /** Alternative to cursor. */
  offset?: number;
}

/** A folder read by Vfs.folder(), before paging. */
export interface VfsFolder {
  /** Normalised virtual path. */
  path: string;
  mount?: MountRecord;
  /** Mount points below the folder, shown as folders first. */
  folders: VfsEntry[];
  /** The storage's entries (without those a nested mount hides). */
  own: readonly Entry[];
  /** The listing cache's array the entries came from: the same object while the cache keeps the folder. */
  source?: readonly Entry[];
  cached: boolean;
}

export interface VfsListing {
  /** Normalised virtual path of the folder. */
  path: string;
  /** The mount holding the folder; absent for virtual folders (`/`, parents of mount paths). */
  mount?: MountRecord;
  /** true when no storage backs the folder (only mount points below it). */
  isVirtual: boolean;
  entries: VfsEntry[];
  total: number;
  offset: number;
  /** Present when more entries follow: pass back as `cursor`. */
  cursor?: string;
  /** true when the entries came from the listing cache. */
  cached: boolean;
}
