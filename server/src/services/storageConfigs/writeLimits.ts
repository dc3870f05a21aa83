// The one limit of writes into mounted storage: fs upload and update, presign and
// multipart init, WebDAV PUT, copies (WebDAV COPY/MOVE across storages, copy tasks). The Vfs asks it for every
// write (Vfs.checkWrite); the answer is the spec's 413: the max upload size, or "insufficient storage" with
// the file size, remaining space and total capacity when the storage config's total_capacity would be passed.
import type { Resolved } from '../../vfs/types.js';
import type { WriteLimit } from '../../vfs/vfs.js';
import { insufficientStorage, tooLargeError } from '../shares/fileShareRules.js';
import type { StorageUsage } from './storageUsage.js';

export function mountWriteLimit(deps: {
  /** The max upload size setting, in bytes. */
  maxUploadSize: () => Promise<number>;
  /** A storage config's total_capacity in bytes (null: unlimited). */
  capacityOf: (storageConfigId: string) => Promise<number | null>;
  usage: Pick<StorageUsage, 'usedBytes'>;
}): (resolved: Resolved) => Promise<WriteLimit> {
  return async (resolved) => {
    const configId = resolved.mount.storage_config_id;
    const [maxUpload, capacity] = await Promise.all([deps.maxUploadSize(), deps.capacityOf(configId)]);
    if (capacity === null) return { maxBytes: maxUpload, tooLarge: () => tooLargeError(maxUpload) };
    const remaining = Math.max(0, capacity - (await deps.usage.usedBytes(configId)));
    return {
      maxBytes: Math.min(maxUpload, remaining),
      tooLarge: (bytes, atLeast) =>
        bytes > maxUpload ? tooLargeError(maxUpload) : insufficientStorage(bytes, remaining, capacity, atLeast),
    };
  };
}
