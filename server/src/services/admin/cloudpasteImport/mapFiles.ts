import type { FileRow } from '../../../repositories/fileRepository.js';
import { rowProblem } from '../backup/backupRowRules.js';
import type { CloudpasteRow } from './backupFile.js';
import { creator, freeValue, type ImportContext } from './context.js';
import { configOf } from './configRefs.js';
import { cpFile, cpPlainPassword, parseRows } from './rows.js';
import { importedPasswordHash } from './sharePasswords.js';

/** Whether the object a LOCAL share points at is in the mapped root (to warn before links break). */
export type ObjectCheck = (root: string, storagePath: string) => Promise<boolean>;

/**
 * files (+ file_passwords): the share points at the object in place (same storage config and path,
 * nothing copied). A share whose storage config is not imported follows it (skipped or not supported).
 */
export async function mapFiles(
  ctx: ImportContext,
  table: CloudpasteRow[] | undefined,
  passwordTable: CloudpasteRow[] | undefined,
  objectExists: ObjectCheck,
): Promise<void> {
  const rows = parseRows('files', table, cpFile);
  const plains = new Map(
    parseRows('file_passwords', passwordTable, cpPlainPassword('file_id')).map((p) => [
      String(p.file_id),
      String(p.plain_password),
    ]),
  );
  ctx.report.total('files', rows.length);
  const existingIds = await ctx.lookup.existing(
    'files',
    'id',
    rows.map((r) => r.id),
  );
  const planned = new Set<string>();
  const missing = new Map<string, string[]>();
  for (const row of rows) {
    if (existingIds.has(row.id)) {
      ctx.report.skipped('files', row.id, row.slug, 'already imported');
      continue;
    }
    const config = await configOf(ctx, row.storage_config_id);
    if (!config.ok) {
      const reason = `its storage config ${config.name} is not imported: ${config.reason}`;
      if (config.unsupported) ctx.report.notSupported('files', row.id, row.slug, reason);
      else ctx.report.skipped('files', row.id, row.slug, reason);
      continue;
    }
    const slug = await freeValue(ctx, row.slug, (c) => ctx.lookup.existing('files', 'slug', c), planned);
    if (slug === undefined) {
      ctx.report.skipped('files', row.id, row.slug, 'the slug is taken by another file share here');
      continue;
    }
    const file: FileRow = {
      id: row.id,
      slug,
      filename: row.filename,
      mimetype: row.mimetype || 'application/octet-stream',
      size: row.size ?? 0,
      storage_config_id: String(row.storage_config_id),
      storage_path: (row.storage_path ?? '').replace(/^\/+/, ''),
      etag: row.etag ?? null,
      // CloudPaste has no end-to-end encryption: every imported row is readable by the server.
      encryption: null,
      remark: (row.remark ?? '').slice(0, 1000),
      password_hash: null,
      expires_at: row.expires_at ?? null,
      max_views: row.max_views ?? 0,
      views: row.views ?? 0,
      use_proxy: row.use_proxy === 1 ? 1 : 0,
      created_by: creator(ctx, row.created_by),
      created_at: row.created_at ?? ctx.now,
      updated_at: row.updated_at ?? row.created_at ?? ctx.now,
      mount_id: null,
    };
    const problem = rowProblem('files', file);
    if (problem) {
      ctx.report.skipped('files', row.id, row.slug, `cannot be imported: ${problem}`);
      continue;
    }
    file.password_hash = await importedPasswordHash(ctx, `file ${row.slug}`, row.password, plains.get(row.id));
    if (config.type === 'local' && config.root && !(await objectExists(config.root, file.storage_path))) {
      const list = missing.get(config.name) ?? [];
      list.push(file.storage_path);
      missing.set(config.name, list);
    }
    planned.add(slug);
    ctx.writes.files.push(file);
    ctx.report.created('files', row.id, slug, slug !== row.slug ? `slug renamed to ${slug}` : undefined);
  }
  for (const [name, paths] of missing) {
    const root = [...ctx.configs.values()].find((c) => c.ok && c.name === name);
    const where = root?.ok ? root.root : '?';
    ctx.report.warn(
      `${paths.length} file(s) of ${name} are not in ${where} (e.g. ${paths[0]}): copy CloudPaste's storage folder there, or their links answer "not found"`,
    );
  }
}
