import type { StorageConfigRow } from '../../repositories/storageConfigRepository.js';

/** The columns of a storage config row that every new config starts from before its own values are set. */
export type BlankStorageColumns = Omit<
  StorageConfigRow,
  'id' | 'name' | 'storage_type' | 'is_default' | 'created_at' | 'updated_at'
>;

/**
 * A new config's starting columns: no provider, S3 target, secret or local root of its own, no default folder or
 * capacity, presigned links valid for an hour. The built-in config, `create` and the CloudPaste import spread it.
 */
export const BLANK_STORAGE_COLUMNS: Readonly<BlankStorageColumns> = Object.freeze({
  provider: null,
  endpoint: '',
  bucket: '',
  region: '',
  access_key_id: '',
  secret_encrypted: '',
  path_style: 0,
  default_folder: '',
  custom_host: '',
  signature_expires_in: 3600,
  total_capacity: null,
  root_path: '',
  options_json: '{}',
});
