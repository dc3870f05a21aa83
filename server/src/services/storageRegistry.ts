import path from 'node:path';
import type { StorageDriver } from '../storage/types.js';
import type { SecretCipher } from '../security/cipher.js';

/** What the registry needs of a storage config row. */
export interface DriverConfig {
  id: string;
  storage_type: string;
  endpoint: string;
  bucket: string;
  region: string;
  access_key_id: string;
  secret_encrypted: string;
  path_style: number;
  updated_at: string;
}

export interface S3DriverSettings {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/** Constructors of the drivers, injected by server.ts so this service does not depend on their modules. */
export interface DriverFactories {
  local(root: string): StorageDriver;
  s3(settings: S3DriverSettings): StorageDriver;
}

/** Builds one driver per storage config and caches it until the config changes. */
export class StorageRegistry {
  private readonly cache = new Map<string, { version: string; driver: StorageDriver }>();

  constructor(
    private readonly deps: {
      factories: DriverFactories;
      cipher: SecretCipher;
      /** Root of the built-in local storage (DATA_DIR/storage/local). */
      localRoot: string;
    },
  ) {}

  get localRoot(): string {
    return path.resolve(this.deps.localRoot);
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

  /** A driver built from settings that are not saved (used by nothing yet; handy for tests). */
  build(config: DriverConfig): StorageDriver {
    if (config.storage_type === 'local') return this.deps.factories.local(this.localRoot);
    if (config.storage_type === 's3') {
      let secret: string;
      try {
        secret = config.secret_encrypted ? this.deps.cipher.decrypt(config.secret_encrypted) : '';
      } catch {
        // Encrypted under another ENCRYPTION_KEY: requests will fail with 'denied' until the secret is re-entered.
        secret = '';
      }
      return this.deps.factories.s3({
        endpoint: config.endpoint || undefined,
        region: config.region || 'us-east-1',
        bucket: config.bucket,
        accessKeyId: config.access_key_id,
        secretAccessKey: secret,
        forcePathStyle: config.path_style === 1,
      });
    }
    throw new Error(`unknown storage type ${config.storage_type}`);
  }

  private release(driver: StorageDriver): void {
    // Let in-flight requests finish on the old client before its sockets close.
    const timer = setTimeout(() => void driver.close?.().catch(() => undefined), 60_000);
    timer.unref();
  }
}
