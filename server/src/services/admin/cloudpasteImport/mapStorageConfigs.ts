import { SIGNATURE_EXPIRES_MAX, SIGNATURE_EXPIRES_MIN, type StorageProvider } from '@clipnest/contract';
import type { StorageConfigRow } from '../../../repositories/storageConfigRepository.js';
import { rowProblem } from '../backup/backupRowRules.js';
import { BLANK_STORAGE_COLUMNS } from '../../storageConfigs/storageConfigDefaults.js';
import type { CloudpasteRow } from './backupFile.js';
import { decodeCloudpasteSecret } from './cloudpasteSecrets.js';
import type { ImportContext } from './context.js';
import { badRow } from './errors.js';
import { mapRemoteConfig, REMOTE_TYPES } from './mapRemoteConfigs.js';
import { cpStorageConfig, parseRows } from './rows.js';

const PROVIDERS: Record<string, StorageProvider> = {
  'aws s3': 'aws',
  aws: 'aws',
  'cloudflare r2': 'cloudflare_r2',
  r2: 'cloudflare_r2',
  'backblaze b2': 'backblaze_b2',
  b2: 'backblaze_b2',
  minio: 'minio',
  'aliyun oss': 'aliyun_oss',
  oss: 'aliyun_oss',
};

function str(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}

/** Checks a folder a LOCAL root is mapped to and answers its real path (400 naming local_roots otherwise). */
export type LocalRootCheck = (cloudpasteRoot: string, target: string) => Promise<string>;

/**
 * storage_configs: S3 with its fields as they are (secrets decoded and re-encrypted), LOCAL with the folder
 * `local_roots` maps its root to, WEBDAV as webdav, ONEDRIVE and GOOGLE_DRIVE as rclone sections
 * (mapRemoteConfigs.ts); other types are not supported (and the rows that use them follow).
 */
export async function mapStorageConfigs(
  ctx: ImportContext,
  table: CloudpasteRow[] | undefined,
  localRoots: Record<string, string>,
  checkRoot: LocalRootCheck,
): Promise<void> {
  const rows = parseRows('storage_configs', table, cpStorageConfig);
  ctx.report.total('storage_configs', rows.length);
  const existing = await ctx.lookup.configs(rows.map((r) => r.id));
  const usedRoots = new Set<string>();
  for (const [index, row] of rows.entries()) {
    const type = row.storage_type.toUpperCase();
    const config = row.config_json;
    if (type === 'LOCAL') {
      const root = str(config.root_path);
      if (!root) throw badRow('storage_configs', index, row.id, 'config_json.root_path: is required for LOCAL');
      usedRoots.add(root);
      const target = localRoots[root];
      let entry = ctx.report.localRoots.find((e) => e.root_path === root);
      if (!entry) {
        entry = { root_path: root, configs: [], mapped_to: null };
        ctx.report.localRoots.push(entry);
      }
      entry.configs.push(row.name);
      if (target !== undefined) entry.mapped_to = await checkRoot(root, target);
    }
    const here = existing.get(row.id);
    if (here) {
      ctx.configs.set(row.id, { ok: true, type: here.storage_type, name: here.name, root: here.root_path || null });
      ctx.report.skipped('storage_configs', row.id, row.name, 'already imported');
      continue;
    }
    const base: StorageConfigRow = {
      id: row.id,
      name: row.name.slice(0, 100),
      storage_type: 's3',
      ...BLANK_STORAGE_COLUMNS,
      default_folder: str(config.default_folder).replace(/^\/+|\/+$/g, ''),
      total_capacity: typeof config.total_storage_bytes === 'number' ? config.total_storage_bytes : null,
      is_default: row.is_default === 1 ? 1 : 0,
      created_at: row.created_at ?? ctx.now,
      updated_at: row.updated_at ?? row.created_at ?? ctx.now,
    };
    let mapped: StorageConfigRow;
    if (type === 'S3') {
      const secret = (field: string): string => {
        const plain = decodeCloudpasteSecret(str(config[field]));
        if (plain === undefined) {
          throw badRow(
            'storage_configs',
            index,
            row.id,
            `config_json.${field}: is not CloudPaste's encrypted:<mac>:<base64>`,
          );
        }
        return plain;
      };
      const endpoint = str(config.endpoint_url).trim().replace(/\/+$/, '');
      const blocked = endpoint ? ctx.endpointGuard.endpointBlocked(endpoint) : null;
      if (blocked) throw badRow('storage_configs', index, row.id, `config_json.endpoint_url: refused: ${blocked}`);
      const secretKey = secret('secret_access_key');
      const signature = Number(config.signature_expires_in ?? 3600);
      mapped = {
        ...base,
        provider: PROVIDERS[str(config.provider_type).toLowerCase()] ?? 'other',
        endpoint,
        bucket: str(config.bucket_name),
        region: str(config.region),
        access_key_id: secret('access_key_id'),
        secret_encrypted: secretKey ? ctx.cipher.encrypt(secretKey) : '',
        path_style: config.path_style ? 1 : 0,
        custom_host: str(config.custom_host),
        signature_expires_in: Number.isInteger(signature)
          ? Math.min(SIGNATURE_EXPIRES_MAX, Math.max(SIGNATURE_EXPIRES_MIN, signature))
          : 3600,
      };
    } else if (type === 'LOCAL') {
      const root = str(config.root_path);
      const target = ctx.report.localRoots.find((e) => e.root_path === root)?.mapped_to ?? null;
      if (target === null) {
        const reason = `its LOCAL root ${root} is not mapped: copy that folder here and give local_roots["${root}"]`;
        ctx.configs.set(row.id, { ok: false, name: row.name, reason, unsupported: false });
        ctx.report.skipped('storage_configs', row.id, row.name, reason);
        continue;
      }
      mapped = { ...base, storage_type: 'local', root_path: target };
      if (config.readonly === 1 || config.readonly === true) {
        ctx.report.warn(`${row.name}: CloudPaste's read-only flag has no counterpart here; the folder is writable`);
      }
    } else {
      const remote = (REMOTE_TYPES as readonly string[]).includes(type)
        ? mapRemoteConfig(ctx, type as (typeof REMOTE_TYPES)[number], config, base, { index, id: row.id })
        : {
            unsupported: `storage type ${row.storage_type} is not supported here (local, S3, WebDAV, OneDrive and Google Drive only)`,
          };
      if ('unsupported' in remote) {
        const reason = remote.unsupported;
        ctx.configs.set(row.id, { ok: false, name: row.name, reason, unsupported: true });
        ctx.report.notSupported('storage_configs', row.id, row.name, reason);
        continue;
      }
      mapped = remote.row;
      for (const warning of remote.warnings) ctx.report.warn(warning);
    }
    const problem = rowProblem('storage_configs', mapped, ctx.endpointGuard);
    if (problem) {
      const reason = `cannot be imported: ${problem}`;
      ctx.configs.set(row.id, { ok: false, name: row.name, reason, unsupported: false });
      ctx.report.skipped('storage_configs', row.id, row.name, reason);
      continue;
    }
    if (row.url_proxy) ctx.report.warn(`${row.name}: url_proxy (${row.url_proxy}) has no counterpart and was left out`);
    ctx.writes.storage_configs.push(mapped);
    if (mapped.is_default === 1) ctx.writes.defaultConfigId = mapped.id;
    ctx.configs.set(row.id, { ok: true, type: mapped.storage_type, name: mapped.name, root: mapped.root_path || null });
    ctx.report.created('storage_configs', row.id, row.name);
  }
  for (const root of Object.keys(localRoots)) {
    if (!usedRoots.has(root)) throw badRow('local_roots', -1, root, 'names no LOCAL root_path of this backup', true);
  }
}
