import type { Kysely } from 'kysely';
import type { Database, FilesTable, MountsTable, PastesTable, StorageConfigsTable } from '../../src/db/schema.js';
import type { TestServer } from './harness.js';

/**
 * Typed rows for the feature tables (pastes, storage_configs, files, mounts). Every NOT NULL column gets a sensible
 * default, so tests name only the columns they care about.
 */

/** Anything with the real schema's tables: the server's own Kysely or a widened one. */
type Db = Kysely<Database>;

const EPOCH = '2026-01-01T00:00:00.000Z';

function dbOf(target: TestServer | Db): Db {
  return 'built' in target ? target.built.database.db : target;
}

export type PasteRowInput = Pick<PastesTable, 'id'> & Partial<PastesTable>;

/** Without `encryption` (0016) unless given, so rows can be written before that migration ran. */
export function pasteRow(input: PasteRowInput): Omit<PastesTable, 'encryption'> & Partial<PastesTable> {
  const created = input.created_at ?? EPOCH;
  return {
    slug: input.id,
    content: `content of ${input.id}`,
    type: 'markdown',
    remark: '',
    password_hash: null,
    expires_at: null,
    max_views: 0,
    views: 0,
    created_by: 'admin',
    created_at: created,
    updated_at: created,
    ...input,
  };
}

/** Inserts pastes (one or many; batched by the caller for large counts). */
export async function insertPaste(target: TestServer | Db, rows: PasteRowInput | PasteRowInput[]): Promise<void> {
  const list = (Array.isArray(rows) ? rows : [rows]).map(pasteRow);
  if (list.length)
    await dbOf(target)
      .insertInto('pastes')
      .values(list as PastesTable[])
      .execute();
}

export type StorageConfigRowInput = Pick<StorageConfigsTable, 'id'> & Partial<StorageConfigsTable>;

/** Without `root_path` and `options_json` unless given: tests that stop before migrations 0012/0022 insert rows without them. */
export function storageConfigRow(
  input: StorageConfigRowInput,
): Omit<StorageConfigsTable, 'root_path' | 'options_json'> & Partial<StorageConfigsTable> {
  const created = input.created_at ?? EPOCH;
  return {
    name: `config ${input.id}`,
    storage_type: 's3',
    provider: null,
    endpoint: 'http://127.0.0.1:9/',
    bucket: 'bucket',
    region: 'us-east-1',
    access_key_id: '',
    secret_encrypted: '',
    path_style: 1,
    default_folder: '',
    custom_host: '',
    signature_expires_in: 3600,
    total_capacity: null,
    is_default: 0,
    created_at: created,
    updated_at: created,
    ...input,
  };
}

export async function insertStorageConfig(
  target: TestServer | Db,
  rows: StorageConfigRowInput | StorageConfigRowInput[],
): Promise<void> {
  const list = (Array.isArray(rows) ? rows : [rows]).map(storageConfigRow);
  if (list.length)
    await dbOf(target)
      .insertInto('storage_configs')
      .values(list as StorageConfigsTable[])
      .execute();
}

export type FileRowInput = Pick<FilesTable, 'id' | 'storage_config_id'> & Partial<FilesTable>;

/** Without `encryption` (0016) unless given, so rows can be written before that migration ran. */
export function fileRow(input: FileRowInput): Omit<FilesTable, 'encryption'> & Partial<FilesTable> {
  const created = input.created_at ?? EPOCH;
  const filename = input.filename ?? `${input.id}.bin`;
  return {
    slug: input.id,
    filename,
    mimetype: 'application/octet-stream',
    size: 0,
    storage_path: `${input.id}/${filename}`,
    etag: null,
    remark: '',
    password_hash: null,
    expires_at: null,
    max_views: 0,
    views: 0,
    use_proxy: 1,
    created_by: 'admin',
    created_at: created,
    updated_at: created,
    mount_id: null,
    ...input,
  };
}

export async function insertFile(target: TestServer | Db, rows: FileRowInput | FileRowInput[]): Promise<void> {
  // mount_id (0010) is left out unless set, so rows can be written before that migration ran.
  const list = (Array.isArray(rows) ? rows : [rows])
    .map(fileRow)
    .map(({ mount_id, ...rest }) => (mount_id === null ? rest : { ...rest, mount_id }));
  if (list.length)
    await dbOf(target)
      .insertInto('files')
      .values(list as FilesTable[])
      .execute();
}

/** The built-in local storage config every install creates at start. */
export async function builtinLocalConfig(target: TestServer | Db): Promise<StorageConfigsTable> {
  return dbOf(target)
    .selectFrom('storage_configs')
    .selectAll()
    .where('storage_type', '=', 'local')
    .where('root_path', '=', '')
    .executeTakeFirstOrThrow();
}

export type MountRowInput = Pick<MountsTable, 'id' | 'storage_config_id'> & Partial<MountsTable>;

export function mountRow(input: MountRowInput): MountsTable {
  const created = input.created_at ?? EPOCH;
  return {
    name: `mount ${input.id}`,
    path: `/${input.id}`,
    storage_type: 's3',
    remark: '',
    sort_order: 0,
    cache_ttl: 300,
    is_active: 1,
    web_proxy: 0,
    enable_sign: 0,
    sign_expires: null,
    webdav_policy: '302_redirect',
    created_by: 'admin',
    created_at: created,
    updated_at: created,
    ...input,
  };
}

export async function insertMount(target: TestServer | Db, rows: MountRowInput | MountRowInput[]): Promise<void> {
  const list = (Array.isArray(rows) ? rows : [rows]).map(mountRow);
  if (list.length) await dbOf(target).insertInto('mounts').values(list).execute();
}
