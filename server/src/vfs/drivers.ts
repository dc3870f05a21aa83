// The driver behind a resolved path, kept where only the vfs reaches it: `Resolved` carries no driver, so a
// service cannot call one. Files outside server/src/vfs never import this module (a test
// of server/src/vfs checks the sources).
import type { StorageDriver } from '../storage/types.js';
import type { Resolved } from './types.js';

const drivers = new WeakMap<Resolved, StorageDriver>();

/** Ties a driver to a resolved path (Vfs.resolve* only). */
export function withDriver<T extends Resolved>(resolved: T, driver: StorageDriver): T {
  drivers.set(resolved, driver);
  return resolved;
}

/** The driver of a path resolved by the vfs; throws for an object the vfs did not resolve. */
export function driverOf(resolved: Resolved): StorageDriver {
  const driver = drivers.get(resolved);
  if (!driver) throw new Error(`${resolved.path} was not resolved by the vfs`);
  return driver;
}
