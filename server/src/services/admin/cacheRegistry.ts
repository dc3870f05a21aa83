/** A cache some service keeps in memory, made visible to the admin's cache page. */
export interface CacheHandle {
  /** Entries held now. */
  size(): number;
  /** Drops entries; with `basePath`, only those at or under that path (caches without paths ignore such calls). */
  clear(scope?: { basePath: string }): number;
  /** True when entries are keyed by storage path, so a key holder may clear its own part. */
  readonly pathScoped: boolean;
}

export interface CacheStats {
  caches: { name: string; entries: number; path_scoped: boolean }[];
  total_entries: number;
}

export class CacheRegistry {
  private readonly caches = new Map<string, CacheHandle>();

  register(name: string, handle: CacheHandle): void {
    this.caches.set(name, handle);
  }

  stats(): CacheStats {
    const caches = [...this.caches].map(([name, h]) => ({ name, entries: h.size(), path_scoped: h.pathScoped }));
    return { caches, total_entries: caches.reduce((sum, c) => sum + c.entries, 0) };
  }

  clearAll(): number {
    let cleared = 0;
    for (const handle of this.caches.values()) cleared += handle.clear();
    return cleared;
  }

  /** What a key holder may clear: path-keyed entries under its base path. */
  clearUnder(basePath: string): number {
    let cleared = 0;
    for (const handle of this.caches.values()) if (handle.pathScoped) cleared += handle.clear({ basePath });
    return cleared;
  }
}
