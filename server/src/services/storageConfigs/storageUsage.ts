// Bytes a storage holds, for its config's total_capacity on writes into mounts (share uploads count their
// share rows instead: fileUploadService). Mounted storage is written by anyone with a key, WebDAV clients and
// copy tasks, and files appear there from outside too: the storage itself is counted, by walking it (paged
// listings), kept for a minute and raised by every write made through the tree meanwhile.
import type { StorageDriver } from '../../storage/types.js';

/** Entries walked at most per count: past it, what was counted stands (a lower bound). */
const WALK_MAX_ENTRIES = 200_000;
const PAGE = 1000;

export class StorageUsage {
  private readonly counted = new Map<string, { bytes: number; at: number }>();
  private readonly counting = new Map<string, Promise<number>>();

  constructor(
    private readonly deps: {
      driverFor: (storageConfigId: string) => Promise<StorageDriver>;
      now: () => number;
      /** How long a count is used before the storage is walked again (default 60 s). */
      ttlMs?: number;
    },
  ) {}

  /** Bytes in the storage of a config (a count at most `ttlMs` old, plus writes since). */
  async usedBytes(storageConfigId: string): Promise<number> {
    const hit = this.counted.get(storageConfigId);
    if (hit && this.deps.now() - hit.at < (this.deps.ttlMs ?? 60_000)) return hit.bytes;
    let walking = this.counting.get(storageConfigId);
    if (!walking) {
      walking = this.walk(storageConfigId)
        .then((bytes) => {
          this.counted.set(storageConfigId, { bytes, at: this.deps.now() });
          return bytes;
        })
        .finally(() => this.counting.delete(storageConfigId));
      this.counting.set(storageConfigId, walking);
    }
    return walking;
  }

  /** A write through the tree added `bytes` (an overwrite counts whole until the next walk: never too low). */
  added(storageConfigId: string, bytes: number): void {
    const hit = this.counted.get(storageConfigId);
    if (hit) hit.bytes += bytes;
  }

  /** Forget a count (a config edited or removed, files removed). */
  forget(storageConfigId?: string): void {
    if (storageConfigId === undefined) this.counted.clear();
    else this.counted.delete(storageConfigId);
  }

  private async walk(storageConfigId: string): Promise<number> {
    const driver = await this.deps.driverFor(storageConfigId);
    let bytes = 0;
    let seen = 0;
    const dirs = [''];
    while (dirs.length > 0 && seen < WALK_MAX_ENTRIES) {
      const dir = dirs.pop() as string;
      let cursor: string | undefined;
      do {
        let page;
        try {
          page = await driver.list(dir, { limit: PAGE, ...(cursor ? { cursor } : {}) });
        } catch {
          break; // vanished or unreadable: counted as empty
        }
        for (const entry of page.entries) {
          seen++;
          // A link is counted where it really lives, not again through the link.
          if (entry.linkTarget !== undefined) continue;
          if (entry.isDir) dirs.push(entry.path);
          else bytes += entry.size;
        }
        cursor = page.cursor;
      } while (cursor && seen < WALK_MAX_ENTRIES);
    }
    return bytes;
  }
}
