import type { BackupModule } from '@clipnest/contract';

/**
 * Which tables each backup module holds, with their primary key.
 * Tables a module names but this install lacks (a feature not built yet) are skipped.
 * Transient tables (login tokens, upload sessions, stats) are never backed up, nor the admin's second factors (TOTP
 * secret, recovery codes, passkeys: bound to a device and to this host; an account restored in overwrite mode
 * signs in with its password alone, so a restore never locks the admin out), nor the dashboard
 * counters (db/counters.ts): they are derived, and the rows a restore writes fire their triggers.
 */
export const MODULE_TABLES: Record<BackupModule, { table: string; key: string }[]> = {
  account_management: [{ table: 'admins', key: 'id' }],
  system_settings: [{ table: 'settings', key: 'key' }],
  key_management: [{ table: 'api_keys', key: 'id' }],
  storage_config: [{ table: 'storage_configs', key: 'id' }],
  mount_management: [{ table: 'mounts', key: 'id' }],
  file_management: [
    { table: 'files', key: 'id' },
    { table: 'folder_shares', key: 'id' },
    { table: 'bundle_files', key: 'id' },
    { table: 'upload_requests', key: 'id' },
    { table: 'upload_request_files', key: 'id' },
  ],
  text_management: [{ table: 'pastes', key: 'id' }],
};

/** Insert order respects foreign keys (configs before the mounts and files that use them); deletes run in reverse. */
export const TABLE_ORDER = [
  'admins',
  'settings',
  'api_keys',
  'storage_configs',
  'mounts',
  'files',
  'folder_shares',
  'bundle_files',
  'upload_requests',
  'upload_request_files',
  'pastes',
];
