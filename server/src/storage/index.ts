// Storage drivers behind one interface (ARCHITECTURE.md). Callers build drivers with `createDriver`.
import { FtpDriver, type FtpDriverOptions } from './ftp/driver.js';
import { LocalDriver, type LocalDriverOptions } from './local/driver.js';
import { RcloneDriver, type RcloneDriverOptions } from './rclone/driver.js';
import { S3Driver, type S3DriverOptions } from './s3/driver.js';
import type { StorageDriver } from './types.js';
import { SftpDriver, type SftpDriverOptions } from './sftp/driver.js';
import { WebDavDriver, type WebDavDriverOptions } from './webdav/driver.js';

export * from './types.js';
export * from './paths.js';
export { resolveRange } from './streams.js';
export { LocalDriver, type LocalDriverOptions } from './local/driver.js';
export { S3Driver, type S3DriverOptions } from './s3/driver.js';
export { WebDavDriver, type WebDavDriverOptions } from './webdav/driver.js';
export { FtpDriver, type FtpDriverOptions } from './ftp/driver.js';
export { SftpDriver, type SftpDriverOptions } from './sftp/driver.js';
export { RcloneDriver, type RcloneDriverOptions } from './rclone/driver.js';

export type DriverConfig =
  | ({ kind: 'local' } & LocalDriverOptions)
  | ({ kind: 's3' } & S3DriverOptions)
  | ({ kind: 'webdav' } & WebDavDriverOptions)
  | ({ kind: 'ftp' } & FtpDriverOptions)
  | ({ kind: 'sftp' } & SftpDriverOptions)
  | ({ kind: 'rclone' } & RcloneDriverOptions);

/** Builds a driver from plain options (no database rows; the caller decrypts secrets). */
export function createDriver(config: DriverConfig): StorageDriver {
  switch (config.kind) {
    case 'local':
      return new LocalDriver(config);
    case 's3':
      return new S3Driver(config);
    case 'webdav':
      return new WebDavDriver(config);
    case 'ftp':
      return new FtpDriver(config);
    case 'sftp':
      return new SftpDriver(config);
    case 'rclone':
      return new RcloneDriver(config);
  }
}
