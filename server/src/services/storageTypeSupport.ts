// Small helpers the storage type definitions share (storageTypes.ts and the per-type files beside it).
import type { SecretCipher } from '../security/cipher.js';
import { StorageError, type StorageDriver } from '../storage/types.js';

export function decryptOrBlank(cipher: SecretCipher, encrypted: string): string {
  try {
    return encrypted ? cipher.decrypt(encrypted) : '';
  } catch {
    // Encrypted under another ENCRYPTION_KEY: requests fail with 'denied' until the secret is re-entered.
    return '';
  }
}

/** A driver whose every call fails with StorageError('unavailable'): for a config that cannot be served. */
export function unavailableDriver(kind: string, message: string): StorageDriver {
  const fail = () => Promise.reject(new StorageError('unavailable', message));
  return { kind, stat: fail, list: fail, read: fail, write: fail, mkdir: fail, remove: fail, move: fail };
}
