import { BUILTIN_LOCAL_CONFIG_NAME, type StorageConfigView } from '@clipnest/contract';
import type { TFunction } from './translate';

/**
 * The name to show for a storage config: the built-in one keeps the server's English default name until
 * the admin renames it, so the UI words it itself; every other name is the admin's.
 */
export function storageConfigName(t: TFunction, config: Pick<StorageConfigView, 'name' | 'is_builtin'>): string {
  return config.is_builtin && config.name === BUILTIN_LOCAL_CONFIG_NAME ? t('files.storage.builtinName') : config.name;
}
