import { normalizeVirtualPath } from '@clipnest/contract';
import type { ApiKeyRow } from '../../../repositories/apiKeyRepository.js';
import { sha256Hex } from '../../../security/secrets.js';
import { apiKeyValueProblem, rowProblem } from '../backup/backupRowRules.js';
import type { CloudpasteRow } from './backupFile.js';
import { freeValue, type ImportContext } from './context.js';
import { mapPermissions, mapRole } from './permissions.js';
import { cpAcl, cpApiKey, parseRows } from './rows.js';

/** CloudPaste writes "never" as the end of year 9999. */
const NEVER = '9999-12-31T23:59:59.000Z';

/**
 * api_keys: the same key values (scripts keep working), permissions mapped bit by bit, role, base path,
 * expiry, enabled. CloudPaste's seeded guest key (disabled, no permissions) is left out.
 */
export async function mapApiKeys(
  ctx: ImportContext,
  table: CloudpasteRow[] | undefined,
  aclTable: CloudpasteRow[] | undefined,
): Promise<void> {
  const rows = parseRows('api_keys', table, cpApiKey);
  const acl = parseRows('principal_storage_acl', aclTable, cpAcl);
  ctx.report.total('api_keys', rows.length);
  const existingIds = await ctx.lookup.existing(
    'api_keys',
    'id',
    rows.map((r) => r.id),
  );
  const plannedNames = new Set<string>();
  const plannedHashes = new Set<string>();
  for (const row of rows) {
    if (existingIds.has(row.id)) {
      ctx.report.skipped('api_keys', row.id, row.name, 'already imported');
      continue;
    }
    const role = mapRole(row.role);
    const permissions = row.permissions ?? 0;
    const enabled = row.is_enable ?? 1;
    if (role.isGuest === 1 && permissions === 0 && enabled === 0) {
      ctx.report.skipped('api_keys', row.id, row.name, "CloudPaste's seeded guest key (disabled, no permissions)");
      continue;
    }
    const weak = apiKeyValueProblem(row.key);
    if (weak) {
      ctx.report.skipped('api_keys', row.id, row.name, `not imported: ${weak}; create a new key here`);
      continue;
    }
    const keyHash = sha256Hex(row.key);
    if ((await ctx.lookup.existing('api_keys', 'key_hash', [keyHash])).has(keyHash) || plannedHashes.has(keyHash)) {
      ctx.report.skipped('api_keys', row.id, row.name, 'this key value is already used by another key here');
      continue;
    }
    const name = await freeValue(
      ctx,
      row.name.slice(0, 64),
      (candidates) => ctx.lookup.existing('api_keys', 'name', candidates),
      plannedNames,
      (base, n) => `${base.slice(0, 58)} (${n})`,
    );
    if (name === undefined) {
      ctx.report.skipped('api_keys', row.id, row.name, `a key named "${row.name}" already exists here`);
      continue;
    }
    const basicPath = normalizeVirtualPath((row.basic_path ?? '/').trim() || '/');
    if (basicPath === null) {
      ctx.report.skipped(
        'api_keys',
        row.id,
        row.name,
        `basic_path ${JSON.stringify(row.basic_path)} is not a valid path`,
      );
      continue;
    }
    const mapped = mapPermissions(permissions);
    const now = ctx.now;
    const key: ApiKeyRow = {
      id: row.id,
      name,
      key_hash: keyHash,
      key_encrypted: ctx.cipher.encrypt(row.key),
      key_prefix: row.key.slice(0, 4),
      permissions: mapped.permissions,
      role: role.role,
      basic_path: basicPath,
      is_guest: role.isGuest,
      enabled: enabled === 1 ? 1 : 0,
      expires_at:
        row.expires_at && row.expires_at !== NEVER && !row.expires_at.startsWith('9999-') ? row.expires_at : null,
      created_at: row.created_at ?? now,
      updated_at: row.updated_at ?? row.created_at ?? now,
      last_used: row.last_used ?? null,
    };
    const problem = rowProblem('api_keys', key);
    if (problem) {
      ctx.report.skipped('api_keys', row.id, row.name, `cannot be imported: ${problem}`);
      continue;
    }
    plannedNames.add(name);
    plannedHashes.add(keyHash);
    ctx.writes.api_keys.push(key);
    const notes = [...mapped.notes];
    if (name !== row.name) notes.push(`renamed to "${name}"`);
    const limited = acl
      .filter((a) => a.subject_id === row.id)
      .map((a) => ctx.configs.get(a.storage_config_id)?.name ?? a.storage_config_id);
    if (limited.length > 0) {
      ctx.report.warn(
        `key ${row.name}: CloudPaste limited it to the storage configs ${limited.join(', ')}; keys here are limited by permissions and base path only`,
      );
    }
    ctx.report.created('api_keys', row.id, name, notes.join('; ') || undefined);
  }
}
