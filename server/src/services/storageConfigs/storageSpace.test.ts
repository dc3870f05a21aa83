import { describe, expect, it } from 'vitest';
import type { StorageConfigRow } from '../../repositories/storageConfigRepository.js';
import type { StorageDriver, StorageSpace } from '../../storage/types.js';
import { StorageSpaceService } from './storageSpace.js';

const GB = 1024 ** 3;

function service(configs: Record<string, { capacity: number | null; used: number; disk?: StorageSpace }>) {
  let now = 0;
  const calls = { space: 0 };
  const space = new StorageSpaceService({
    clock: { now: () => new Date(now) },
    storageConfigs: {
      requireRow: async (id: string) => ({ id, total_capacity: configs[id]!.capacity }) as StorageConfigRow,
      usedBytes: async (id: string) => configs[id]!.used,
      driverOf: (row: StorageConfigRow) => {
        const disk = configs[row.id]!.disk;
        return (
          disk
            ? {
                space: async () => {
                  calls.space++;
                  return disk;
                },
              }
            : {}
        ) as StorageDriver;
      },
    },
  });
  return { space, calls, advance: (ms: number) => (now += ms) };
}

describe('StorageSpaceService', () => {
  const disk = { totalBytes: 100 * GB, usedBytes: 60 * GB, freeBytes: 35 * GB, volume: 'dev:1' };

  it('answers a disk without a capacity, what is left of a capacity (bounded by the disk), nothing for a bucket without one', async () => {
    const { space } = service({
      disk: { capacity: null, used: 5, disk },
      small: { capacity: 10 * GB, used: 4 * GB, disk },
      big: { capacity: 500 * GB, used: 1 * GB, disk },
      bucket: { capacity: null, used: 7 },
      sized: { capacity: 2 * GB, used: 3 * GB },
    });
    expect(await space.of('disk')).toEqual({ usedBytes: 60 * GB, availableBytes: 35 * GB, volume: 'dev:1' });
    expect(await space.of('small')).toEqual({ usedBytes: 4 * GB, availableBytes: 6 * GB });
    expect(await space.of('big')).toEqual({ usedBytes: 1 * GB, availableBytes: 35 * GB });
    expect(await space.of('bucket')).toBeUndefined();
    expect(await space.of('sized')).toEqual({ usedBytes: 3 * GB, availableBytes: 0 });
  });

  it('caches a config for 10 s', async () => {
    const { space, calls, advance } = service({ disk: { capacity: null, used: 0, disk } });
    await space.of('disk');
    await space.of('disk');
    expect(calls.space).toBe(1);
    advance(10_001);
    await space.of('disk');
    expect(calls.space).toBe(2);
  });

  it('adds storages up, a shared disk once', () => {
    const a = { usedBytes: 60, availableBytes: 35, volume: 'dev:1' };
    expect(StorageSpaceService.combine([a, { ...a }, { usedBytes: 1, availableBytes: 9 }, undefined])).toEqual({
      usedBytes: 61,
      availableBytes: 44,
    });
    expect(StorageSpaceService.combine([undefined])).toBeUndefined();
  });
});
