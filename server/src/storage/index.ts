// Storage drivers behind one interface (ARCHITECTURE.md). Callers build drivers with `createDriver`.
import { LocalDriver, type LocalDriverOptions } from './local/localDriver.js';
import type { StorageDriver } from './types.js';

export * from './types.js';
export * from './paths.js';
export { LocalDriver, type LocalDriverOptions } from './local/localDriver.js';

export type DriverConfig = { kind: 'local' } & LocalDriverOptions;

/** Builds a driver from plain options (no database rows, no secrets decryption here). */
export function createDriver(config: DriverConfig): StorageDriver {
  switch (config.kind) {
    case 'local':
      return new LocalDriver(config);
  }
}
