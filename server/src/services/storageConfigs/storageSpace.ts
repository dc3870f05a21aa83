// How full a storage is, for WebDAV's RFC 4331 quota properties (Windows Explorer and Finder show the free
// space of a mapped drive from them). Cheap by construction: a statfs of a local root and the usage counter
// the app already keeps per config, cached for a few seconds; never a walk of the tree.
import type { Clock } from '../../lib/clock.js';
import type { StorageConfigService } from './storageConfigService.js';

/** RFC 4331: bytes counted as used, and bytes that may still be written. */
export interface SpaceFigures {
  usedBytes: number;
  availableBytes: number;
  /** Set when the figures are a disk's own (no capacity configured): two configs on one disk count it once. */
  volume?: string;
}

/** How long a config's figures are reused. */
const SPACE_TTL_MS = 10_000;

export class StorageSpaceService {
  private readonly cache = new Map<string, { at: number; figures: Promise<SpaceFigures | undefined> }>();

  constructor(
    private readonly deps: {
      storageConfigs: Pick<StorageConfigService, 'requireRow' | 'usedBytes' | 'driverOf'>;
      clock: Clock;
    },
  ) {}

  /**
   * A storage config's figures, or undefined when nothing is known (an S3 bucket without a configured
   * capacity has no size). With `total_capacity`: used is the app's usage counter of the config, available
   * what is left of the capacity (never more than the disk has free, for a local root). Without: a local
   * root answers its disk (statfs: used, and free for this process).
   */
  of(configId: string): Promise<SpaceFigures | undefined> {
    const now = this.deps.clock.now().getTime();
    const hit = this.cache.get(configId);
    if (hit && now - hit.at < SPACE_TTL_MS) return hit.figures;
    if (this.cache.size > 1000) this.cache.clear();
    const figures = this.measure(configId).catch(() => undefined);
    this.cache.set(configId, { at: now, figures });
    return figures;
  }

  private async measure(configId: string): Promise<SpaceFigures | undefined> {
    const row = await this.deps.storageConfigs.requireRow(configId);
    const driver = this.deps.storageConfigs.driverOf(row);
    const disk = driver.space ? await driver.space().catch(() => undefined) : undefined;
    const capacity = row.total_capacity;
    if (capacity === null || capacity === undefined) {
      return disk ? { usedBytes: disk.usedBytes, availableBytes: disk.freeBytes, volume: disk.volume } : undefined;
    }
    const used = await this.deps.storageConfigs.usedBytes(configId);
    const left = Math.max(0, capacity - used);
    return { usedBytes: used, availableBytes: disk ? Math.min(left, disk.freeBytes) : left };
  }

  /** Several storages together (a folder above mounts of different storages): a shared disk counted once. */
  static combine(all: Array<SpaceFigures | undefined>): SpaceFigures | undefined {
    const seen = new Set<string>();
    let out: SpaceFigures | undefined;
    for (const figures of all) {
      if (!figures || (figures.volume !== undefined && seen.has(figures.volume))) continue;
      if (figures.volume !== undefined) seen.add(figures.volume);
      out = {
        usedBytes: (out?.usedBytes ?? 0) + figures.usedBytes,
        availableBytes: (out?.availableBytes ?? 0) + figures.availableBytes,
      };
    }
    return out;
  }
}
