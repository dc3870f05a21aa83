import path from 'node:path';
import { StorageEndpointGuard } from '../net/storageEndpointGuard.js';
import type { SecretCipher } from '../security/cipher.js';
import type { StorageDriver } from './types.js';
import { LocalRoots } from './local/localRoots.js';
import {
  storageTypeOf,
  type DriverConfig,
  type DriverFactories,
  type StorageTypeContext,
  type StorageTypeDefinition,
} from './storageTypes.js';

export type { DriverConfig, DriverFactories, S3DriverSettings } from './storageTypes.js';

/**
 * The driver registry: finds a config's storage type (storageTypes.ts), builds its driver with the type's
 * factory, and caches it until the config changes. `driverFor(config)` is the one way to get a driver.
 */
export class StorageRegistry {
  private readonly cache = new Map<string, { version: string; driver: StorageDriver }>();

  constructor(deps: {
    factories: DriverFactories;
    cipher: SecretCipher;
    /** Root of the built-in local storage (DATA_DIR/storage/local). */
    localRoot: string;
    /** Where other local configs may live (LOCAL_STORAGE_ROOTS); default: the built-in root's parent. */
    localRoots?: LocalRoots;
    /** The storage endpoint guard (default: its default rules, loopback and LAN allowed). */
    endpointGuard?: StorageEndpointGuard;
  }) {
    this.context = {
      factories: deps.factories,
      cipher: deps.cipher,
      builtinLocalRoot: path.resolve(deps.localRoot),
      localRoots: deps.localRoots ?? new LocalRoots([path.dirname(path.resolve(deps.localRoot))]),
      endpointGuard: deps.endpointGuard ?? new StorageEndpointGuard(),
      remember: (id, patch) => this.rememberSink?.(id, patch),
    };
  }

  private rememberSink: StorageTypeContext['remember'] | undefined;

  /** Where drivers' learned columns go (the storage config service stores them). */
  onRemember(sink: StorageTypeContext['remember']): void {
    this.rememberSink = sink;
  }

  /** What the storage types need to check options and build drivers. */
  readonly context: StorageTypeContext;

  get localRoot(): string {
    return this.context.builtinLocalRoot;
  }

  /** The definition of a storage type; unknown types throw (rows are written by this app only). */
  typeOf(type: string): StorageTypeDefinition {
    const def = storageTypeOf(type);
    if (!def) throw new Error(`unknown storage type ${type}`);
    return def;
  }

  /** The driver for a config; rebuilt when the row's updated_at changed since it was built. */
  driverFor(config: DriverConfig): StorageDriver {
    const cached = this.cache.get(config.id);
    if (cached && cached.version === config.updated_at) return cached.driver;
    if (cached) this.release(cached.driver);
    const driver = this.build(config);
    this.cache.set(config.id, { version: config.updated_at, driver });
    return driver;
  }

  /** Drops the cached driver of a config (after an update or delete). */
  invalidate(id: string): void {
    const cached = this.cache.get(id);
    if (!cached) return;
    this.cache.delete(id);
    this.release(cached.driver);
  }

  async closeAll(): Promise<void> {
    const drivers = [...this.cache.values()].map((c) => c.driver);
    this.cache.clear();
    await Promise.all(drivers.map((d) => d.close?.().catch(() => undefined)));
  }

  /** A driver built from a config without caching it (the config test uses a fresh one). */
  build(config: DriverConfig): StorageDriver {
    return this.typeOf(config.storage_type).build(config, this.context);
  }

  private release(driver: StorageDriver): void {
    // Let in-flight requests finish on the old client before its sockets close.
    const timer = setTimeout(() => void driver.close?.().catch(() => undefined), 60_000);
    timer.unref();
  }
}
