import { createMountSchema, WEBDAV_POLICIES } from '@clipnest/contract';
import type { MountRow } from '../../../repositories/mountRepository.js';
import type { CloudpasteRow } from './backupFile.js';
import { configOf } from './configRefs.js';
import { freeValue, type ImportContext } from './context.js';
import { cpMount, parseRows } from './rows.js';

/** storage_mounts: path, config and the options that have a counterpart (checked like a mount the API creates). */
export async function mapMounts(ctx: ImportContext, table: CloudpasteRow[] | undefined): Promise<void> {
  const rows = parseRows('storage_mounts', table, cpMount);
  ctx.report.total('mounts', rows.length);
  const existingIds = await ctx.lookup.existing(
    'mounts',
    'id',
    rows.map((r) => r.id),
  );
  const planned = new Set<string>();
  for (const row of rows) {
    const label = `${row.mount_path} (${row.name})`;
    if (existingIds.has(row.id)) {
      ctx.report.skipped('mounts', row.id, label, 'already imported');
      continue;
    }
    const config = await configOf(ctx, row.storage_config_id);
    if (!config.ok) {
      const reason = `its storage config ${config.name} is not imported: ${config.reason}`;
      if (config.unsupported) ctx.report.notSupported('mounts', row.id, label, reason);
      else ctx.report.skipped('mounts', row.id, label, reason);
      continue;
    }
    if (config.type === 'local' && !config.root) {
      ctx.report.skipped('mounts', row.id, label, 'the built-in share storage cannot be mounted');
      continue;
    }
    const notes: string[] = [];
    let policy = row.webdav_policy ?? '302_redirect';
    if (!(WEBDAV_POLICIES as readonly string[]).includes(policy)) {
      notes.push(`webdav_policy ${policy} has no counterpart: 302_redirect`);
      policy = '302_redirect';
    }
    const parsed = createMountSchema.safeParse({
      name: row.name,
      path: row.mount_path,
      storage_config_id: row.storage_config_id,
      remark: row.remark ?? '',
      sort_order: row.sort_order ?? 0,
      cache_ttl: row.cache_ttl ?? 300,
      is_active: (row.is_active ?? 1) === 1,
      web_proxy: row.web_proxy === 1,
      enable_sign: row.enable_sign === 1,
      sign_expires: row.sign_expires || null,
      webdav_policy: policy,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      ctx.report.skipped('mounts', row.id, label, `cannot be imported: ${issue?.message ?? 'invalid'}`);
      continue;
    }
    const input = parsed.data;
    const path = await freeValue(ctx, input.path, (c) => ctx.lookup.existing('mounts', 'path', c), planned);
    if (path === undefined) {
      ctx.report.skipped('mounts', row.id, label, `a mount already uses ${input.path} here`);
      continue;
    }
    if (path !== input.path) notes.push(`path renamed to ${path}`);
    planned.add(path);
    const mount: MountRow = {
      id: row.id,
      name: input.name,
      path,
      storage_type: config.type,
      storage_config_id: input.storage_config_id,
      remark: input.remark,
      sort_order: input.sort_order,
      cache_ttl: input.cache_ttl,
      is_active: input.is_active ? 1 : 0,
      web_proxy: input.web_proxy ? 1 : 0,
      enable_sign: input.enable_sign ? 1 : 0,
      sign_expires: input.sign_expires,
      webdav_policy: input.webdav_policy,
      created_by: ctx.adminId,
      created_at: row.created_at ?? ctx.now,
      updated_at: row.updated_at ?? row.created_at ?? ctx.now,
    };
    ctx.writes.mounts.push(mount);
    ctx.report.created('mounts', row.id, `${path} (${row.name})`, notes.join('; ') || undefined);
  }
}
