import type { Entry } from '../storage/types.js';

interface Cached {
  entries: Entry[];
  expiresAt: number;
  bytes: number;
}

/** Largest number of folders kept; the oldest is dropped first. */
const MAX_FOLDERS = 2000;
/** Largest memory the kept listings may take, as estimated by `entryBytes` (long names count for what they hold). */
export const LISTING_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** An entry's memory, estimated: the object and its Date, and its strings at a byte per character. */
export function entryBytes(entry: Entry): number {
  return (
    160 +
    entry.path.length +
    entry.name.length +
    (entry.etag?.length ?? 0) +
    (entry.contentType?.length ?? 0) +
    (entry.linkTarget?.length ?? 0)
  );
}

function listingBytes(entries: Entry[]): number {
  let bytes = 0;
  for (const entry of entries) bytes += entryBytes(entry);
  return bytes;
}

/**
 * Full listings of storage folders, per mount and driver path, kept for the mount's cache_ttl. Dropped by
 * every write made through the tree (Vfs listens to its own VfsChange) and by refresh=true.
 */
export class ListingCache {
  private readonly folders = new Map<string, Cached>();
  private bytes = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxBytes = LISTING_CACHE_MAX_BYTES,
  ) {}

  private key(mountId: string, dir: string): string {
    return `${mountId}\u0000${dir}`;
  }

  get(mountId: string, dir: string): Entry[] | undefined {
    const key = this.key(mountId, dir);
    const hit = this.folders.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt <= this.now()) {
      this.drop(key);
      return undefined;
    }
    return hit.entries;
  }

  set(mountId: string, dir: string, entries: Entry[], ttlSeconds: number): void {
    if (ttlSeconds <= 0) return;
    const bytes = listingBytes(entries);
    if (bytes > this.maxBytes) return;
    const key = this.key(mountId, dir);
    this.drop(key);
    while (this.folders.size >= MAX_FOLDERS || this.bytes + bytes > this.maxBytes) {
      const oldest = this.folders.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
    this.folders.set(key, { entries, expiresAt: this.now() + ttlSeconds * 1000, bytes });
    this.bytes += bytes;
  }

  private drop(key: string): void {
    const hit = this.folders.get(key);
    if (!hit) return;
    this.bytes -= hit.bytes;
    this.folders.delete(key);
  }

  /**
   * Forgets what a change at driver path `path` of a mount may have made stale: every ancestor folder
   * (a write can create parents) and the path itself with everything below it (a folder removed or moved).
   */
  invalidate(mountId: string, path: string): void {
    const prefix = `${mountId}\u0000`;
    for (const key of this.folders.keys()) {
      if (!key.startsWith(prefix)) continue;
      const dir = key.slice(prefix.length);
      const ancestor = dir === '' || path === dir || path.startsWith(`${dir}/`);
      const below = path === '' || dir.startsWith(`${path}/`);
      if (ancestor || below) this.drop(key);
    }
  }

  /** Drops every folder of a mount (mount edited or deleted), or everything. */
  clear(mountId?: string): void {
    if (mountId === undefined) {
      this.folders.clear();
      this.bytes = 0;
      return;
    }
    const prefix = `${mountId}\u0000`;
    for (const key of this.folders.keys()) if (key.startsWith(prefix)) this.drop(key);
  }

  get size(): number {
    return this.folders.size;
  }

  /** The estimated memory of what is kept (entryBytes). */
  get keptBytes(): number {
    return this.bytes;
  }
}
