// Helpers the storage type definitions share (storageTypes.ts and the per-type files).
import { AppError } from '../errors.js';
import type { StorageEndpointGuard } from '../net/storageEndpointGuard.js';
import type { SecretCipher } from '../security/cipher.js';
import type { StorageDriver } from './types.js';
import { StorageError } from './types.js';

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

/** A refused endpoint as the 400 naming its field. */
export function assertEndpointAllowed(
  ctx: { endpointGuard: Pick<StorageEndpointGuard, 'endpointBlocked'> },
  field: string,
  url: string,
): void {
  const blocked = ctx.endpointGuard.endpointBlocked(url);
  if (blocked)
    throw AppError.validation(`${field} refused: ${blocked}`, [{ path: field, message: `refused: ${blocked}` }]);
}
