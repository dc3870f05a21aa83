/**
 * Moving in from CloudPaste: POST /api/admin/import/cloudpaste (admin only).
 *
 * Body: `{ backup, dry_run?, local_roots?, on_conflict? }`. `backup` is a CloudPaste 1.x backup as
 * exported (full or modules): the parsed object, or the file's text as a string (the web app sends the
 * text so a truncated file is named as such). `local_roots` maps each CloudPaste LOCAL config's
 * `root_path` to a folder on this server inside LOCAL_STORAGE_ROOTS. `on_conflict`: `skip` (default)
 * or `rename` for slugs, mount paths and key names already taken by other rows.
 *
 * Answer: CloudpasteImportReport (same shape for a dry run, which writes nothing).
 */
import { z } from './zod.js';

/** The largest import body read (a 100 MB backup plus the request's own fields); larger → 413. */
export const CLOUDPASTE_IMPORT_MAX_BYTES = 110 * 1024 * 1024;

export const CLOUDPASTE_CONFLICT_MODES = ['skip', 'rename'] as const;
export type CloudpasteConflictMode = (typeof CLOUDPASTE_CONFLICT_MODES)[number];

export const cloudpasteImportSchema = z.strictObject({
  backup: z.union([z.string(), z.record(z.string(), z.unknown())], {
    error: 'backup must be the CloudPaste backup (its JSON object or the file text)',
  }),
  dry_run: z.boolean({ error: 'dry_run must be true or false' }).default(false),
  local_roots: z
    .record(z.string(), z.string({ error: 'each local_roots value must be a folder path' }), {
      error: 'local_roots must map CloudPaste root_path → folder here',
    })
    .default({}),
  on_conflict: z.enum(CLOUDPASTE_CONFLICT_MODES, { error: 'on_conflict must be "skip" or "rename"' }).default('skip'),
});
export type CloudpasteImportInput = z.input<typeof cloudpasteImportSchema>;
export type CloudpasteImportRequest = z.output<typeof cloudpasteImportSchema>;

export const CLOUDPASTE_IMPORT_KINDS = [
  'storage_configs',
  'api_keys',
  'pastes',
  'files',
  'mounts',
  'settings',
] as const;
export type CloudpasteImportKind = (typeof CLOUDPASTE_IMPORT_KINDS)[number];

/** One row of the backup: `id` is CloudPaste's id (or the setting key), `name` what a person knows it by. */
export interface CloudpasteImportItem {
  id: string;
  name: string;
  reason?: string;
}

export interface CloudpasteImportKindReport {
  /** Rows of this kind in the backup. */
  total: number;
  created: number;
  created_items: CloudpasteImportItem[];
  skipped: CloudpasteImportItem[];
  not_supported: CloudpasteImportItem[];
}

/** A CloudPaste LOCAL config and where its files are read from here (null: not mapped, not imported). */
export interface CloudpasteLocalRoot {
  root_path: string;
  configs: string[];
  mapped_to: string | null;
}

export interface CloudpasteImportReport {
  dry_run: boolean;
  source: {
    version: string;
    schema_version: string;
    backup_type: string;
    timestamp: string;
    total_records: number;
  };
  kinds: Record<CloudpasteImportKind, CloudpasteImportKindReport>;
  local_roots: CloudpasteLocalRoot[];
  /** Tables of the backup that are not imported at all, with why. */
  ignored_tables: { table: string; rows: number; reason: string }[];
  warnings: string[];
}
