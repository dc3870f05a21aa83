import { sql, type Kysely } from 'kysely';
import { trackRowCount } from '../../src/db/counters.js';
import type { Database, FilesTable, PastesTable, StorageConfigsTable } from '../../src/db/schema.js';
import type { TestServer } from './harness.js';

/**
 * Typed rows for the feature tables (pastes, storage_configs, files from the real migrations; mounts,
 * whose feature is not built yet, in the documented shape). Every NOT NULL column gets a sensible
 * default, so tests name only the columns they care about.
 */

/** Anything with the real schema's tables: the server's own Kysely or a widened one. */
type Db = Kysely<Database>;

const EPOCH = '2026-01-01T00:00:00.000Z';

function dbOf(target: TestServer | Db): Db {
  return 'built' in target ? target.built.database.db : target;
}

export type PasteRowInput = Pick<PastesTable, 'id'> & Partial<PastesTable>;

export function pasteRow(input: PasteRowInput): PastesTable {
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
  if (list.length) await dbOf(target).insertInto('pastes').values(list).execute();
}

export type StorageConfigRowInput = Pick<StorageConfigsTable, 'id'> & Partial<StorageConfigsTable>;

/** Without `root_path` unless given: tests that stop before migration 0012 insert rows without it. */
export function storageConfigRow(
  input: StorageConfigRowInput,
): Omit<StorageConfigsTable, 'root_path'> & Partial<StorageConfigsTable> {
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

export function fileRow(input: FileRowInput): FilesTable {
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
    ...input,
  };
}

export async function insertFile(target: TestServer | Db, rows: FileRowInput | FileRowInput[]): Promise<void> {
  const list = (Array.isArray(rows) ? rows : [rows]).map(fileRow);
  if (list.length) await dbOf(target).insertInto('files').values(list).execute();
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

/** Rows of the mounts table, which only these tests create (the mounts feature is not built). */
export interface MountRow {
  id: string;
  name: string;
  storage_config_id: string | null;
}

/**
 * Creates `mounts` in its documented shape unless it already exists (a later migration may own it),
 * and registers its row counter as the mounts migration must (db/counters.ts).
 */
export async function ensureMountsTable(target: TestServer | Db): Promise<void> {
  const db = dbOf(target);
  await sql`create table if not exists mounts (id varchar(64) primary key, name varchar(50) not null,
    storage_config_id varchar(64) references storage_configs (id))`.execute(db);
  await trackRowCount(db, 'mounts');
}

export async function insertMount(
  target: TestServer | Db,
  rows: (Pick<MountRow, 'id'> & Partial<MountRow>) | (Pick<MountRow, 'id'> & Partial<MountRow>)[],
): Promise<void> {
  const list = (Array.isArray(rows) ? rows : [rows]).map((r) => ({
    name: `mount ${r.id}`,
    storage_config_id: null,
    ...r,
  }));
  if (!list.length) return;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- mounts is not in the real schema yet
  await (dbOf(target) as unknown as Kysely<any>).insertInto('mounts').values(list).execute();
}
