// A storage folder's entries through the listing cache, without the file shares' own objects.
import type { Entry } from '../storage/types.js';
import type { VfsDeps } from './deps.js';
import { driverOf } from './drivers.js';
import type { ListingCache } from './listingCache.js';
import type { MountRecord, Resolved } from './types.js';

/** Pages gathered per driver call while filling the listing cache. */
const DRIVER_PAGE = 1000;

export class DriverListing {
  constructor(
    private readonly cache: ListingCache,
    private readonly shareObjects: VfsDeps['shareObjects'],
  ) {}

  /** The folder's entries: from the cache unless `refresh`, else read whole from the storage and cached. */
  async entries(resolved: Resolved, refresh: boolean): Promise<{ entries: Entry[]; cached: boolean }> {
    const { mount, driverPath } = resolved;
    const driver = driverOf(resolved);
    if (!refresh) {
      const hit = this.cache.get(mount.id, driverPath);
      if (hit) return { entries: hit, cached: true };
    }
    let entries: Entry[] = [];
    let cursor: string | undefined;
    do {
      const page = await driver.list(driverPath, { limit: DRIVER_PAGE, ...(cursor ? { cursor } : {}) });
      for (const entry of page.entries) entries.push(entry);
      cursor = page.cursor;
    } while (cursor);
    entries = await this.withoutShareObjects(mount, driverPath, entries);
    this.cache.set(mount.id, driverPath, entries, mount.cache_ttl);
    return { entries, cached: false };
  }

  /** A folder's entries without the file shares' own objects (see VfsDeps.shareObjects). */
  private async withoutShareObjects(mount: MountRecord, dir: string, entries: Entry[]): Promise<Entry[]> {
    if (!this.shareObjects) return entries;
    const files = entries.filter((e) => !e.isDir).map((e) => (dir ? `${dir}/${e.name}` : e.name));
    if (files.length === 0) return entries;
    // A big folder: one query first (almost always "none here") instead of one per 500 names.
    if (files.length > 500 && !(await this.shareObjects.below(mount.storage_config_id, dir))) return entries;
    const shares = await this.shareObjects.at(mount.storage_config_id, files);
    if (shares.size === 0) return entries;
    return entries.filter((e) => e.isDir || !shares.has(dir ? `${dir}/${e.name}` : e.name));
  }
}
