import { SCHEDULED_BACKUP_DIR } from '@clipnest/contract';
import { AppError } from '../../../errors.js';
import { isStorageError } from '../../../storage/types.js';
import type { BackupTarget, BackupTargets } from './backupScheduler.js';
import type { StorageConfigService } from '../../storageConfigs/storageConfigService.js';

/** Folder, in the chosen storage config, that scheduled backups are written to. */
export const BACKUP_FOLDER = SCHEDULED_BACKUP_DIR;

/** Scheduled backups go to any storage config: the built-in local disk or an S3 bucket. */
export function storageBackupTargets(configs: StorageConfigService): BackupTargets {
  return {
    async available() {
      const page = await configs.list(1, 1000, false);
      return page.items.map((c) => ({ id: c.id, name: c.name }));
    },
    async open(storageConfigId): Promise<BackupTarget | null> {
      let row;
      try {
        row = await configs.requireRow(storageConfigId);
      } catch (error) {
        if (error instanceof AppError && error.kind === 'NOT_FOUND') return null;
        throw error;
      }
      const driver = configs.driverOf(row);
      return {
        async list() {
          try {
            const names: string[] = [];
            let cursor: string | undefined;
            do {
              const page = await driver.list(BACKUP_FOLDER, { cursor });
              names.push(...page.entries.filter((e) => !e.isDir).map((e) => e.name));
              cursor = page.cursor;
            } while (cursor);
            return names;
          } catch (error) {
            if (isStorageError(error, 'not_found')) return [];
            throw error;
          }
        },
        async write(name, body) {
          const bytes = new TextEncoder().encode(body);
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(bytes);
              controller.close();
            },
          });
          await driver.write(`${BACKUP_FOLDER}/${name}`, stream, {
            contentType: 'application/json',
            size: bytes.byteLength,
          });
        },
        async remove(name) {
          await driver.remove(`${BACKUP_FOLDER}/${name}`);
        },
      };
    },
  };
}
