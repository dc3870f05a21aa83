import { stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../errors.js';
import { BLANK_STORAGE_COLUMNS } from '../../storageConfigs/storageConfigDefaults.js';
import type { StorageRegistry } from '../../../storage/storageRegistry.js';
import type { ObjectCheck } from './mapFiles.js';
import type { LocalRootCheck } from './mapStorageConfigs.js';

/**
 * The folder a CloudPaste LOCAL root maps to, checked like a local config's root_path (inside
 * LOCAL_STORAGE_ROOTS after resolving symlinks, not the built-in share storage); 400 naming local_roots.
 */
export function localRootCheck(registry: StorageRegistry): LocalRootCheck {
  return async (cloudpasteRoot, target) => {
    // The files must be copied there first: a missing folder is named (and never created, not even by a dry run).
    if (
      path.isAbsolute(target) &&
      !(await stat(target).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    ) {
      const message = `the folder ${target} does not exist here: copy CloudPaste's storage folder there first`;
      throw AppError.validation(`not imported, nothing was changed: local_roots["${cloudpasteRoot}"]: ${message}`, [
        { path: `local_roots.${cloudpasteRoot}`, message },
      ]);
    }
    try {
      const columns = await registry.typeOf('local').columns({ root_path: target }, registry.context);
      return String(columns.root_path);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const message = error.message.replace(/^root_path/, 'the folder');
      throw AppError.validation(
        `not imported, nothing was changed: local_roots["${cloudpasteRoot}"] = ${JSON.stringify(target)}: ${message}`,
        [{ path: `local_roots.${cloudpasteRoot}`, message }],
      );
    }
  };
}

/** Whether `storagePath` exists under a local root, through the local driver (same path rules as a download). */
export function localObjectCheck(registry: StorageRegistry): ObjectCheck {
  return async (root, storagePath) => {
    const driver = registry.build({
      id: 'cloudpaste-import-check',
      storage_type: 'local',
      ...BLANK_STORAGE_COLUMNS,
      root_path: root,
      updated_at: '',
    });
    try {
      await driver.stat(storagePath);
      return true;
    } catch {
      return false;
    } finally {
      await driver.close?.().catch(() => undefined);
    }
  };
}
