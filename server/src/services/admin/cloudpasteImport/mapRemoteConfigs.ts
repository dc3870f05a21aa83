import { formatRcloneSection, parseRcloneSection, webdavOptionsSchema } from '@clipnest/contract';
import type { StorageConfigRow } from '../../../repositories/storageConfigRepository.js';
import { decodeCloudpasteSecret } from './cloudpasteSecrets.js';
import type { ImportContext } from './context.js';
import { badRow } from './errors.js';

/** What a CloudPaste WEBDAV / ONEDRIVE / GOOGLE_DRIVE config becomes: a row, or why it cannot be one. */
export type RemoteMapping = { row: StorageConfigRow; warnings: string[] } | { unsupported: string };

/** The CloudPaste types this file maps. */
export const REMOTE_TYPES = ['WEBDAV', 'ONEDRIVE', 'GOOGLE_DRIVE'] as const;

function str(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}

function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

/** rclone's token JSON from a refresh token alone: expired, so rclone refreshes it on first use. */
function tokenJson(refreshToken: string): string {
  return JSON.stringify({
    access_token: '',
    token_type: 'Bearer',
    refresh_token: refreshToken,
    expiry: '2000-01-01T00:00:00Z',
  });
}

/** A name rclone takes for the section, from the config's name. */
function remoteName(name: string, fallback: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_.+@-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  return cleaned || fallback;
}

/**
 * WEBDAV → webdav (endpoint_url, username, password, tls_insecure_skip_verify); ONEDRIVE → an rclone `onedrive`
 * section, GOOGLE_DRIVE → an rclone `drive` section, each built from client_id, client_secret and refresh_token
 * (CloudPaste keeps no access token: rclone gets an expired one and refreshes it). Configs renewed through
 * CloudPaste's online API (use_online_api) have no client of their own and are not supported.
 */
export function mapRemoteConfig(
  ctx: ImportContext,
  type: (typeof REMOTE_TYPES)[number],
  config: Record<string, unknown>,
  base: StorageConfigRow,
  where: { index: number; id: string },
): RemoteMapping {
  const secret = (field: string): string => {
    const plain = decodeCloudpasteSecret(str(config[field]));
    if (plain === undefined) {
      throw badRow(
        'storage_configs',
        where.index,
        where.id,
        `config_json.${field}: is not CloudPaste's encrypted:<mac>:<base64>`,
      );
    }
    return plain;
  };
  if (type === 'WEBDAV') {
    const endpoint = webdavOptionsSchema.shape.endpoint_url.safeParse(str(config.endpoint_url));
    if (!endpoint.success) {
      throw badRow(
        'storage_configs',
        where.index,
        where.id,
        `config_json.endpoint_url: ${endpoint.error.issues[0]?.message}`,
      );
    }
    const blocked = ctx.endpointGuard.endpointBlocked(endpoint.data);
    if (blocked)
      throw badRow('storage_configs', where.index, where.id, `config_json.endpoint_url: refused: ${blocked}`);
    const password = secret('password');
    return {
      row: {
        ...base,
        storage_type: 'webdav',
        endpoint: endpoint.data,
        access_key_id: str(config.username).trim(),
        secret_encrypted: password ? ctx.cipher.encrypt(password) : '',
        path_style: truthy(config.tls_insecure_skip_verify) ? 1 : 0,
      },
      warnings: [],
    };
  }
  if (truthy(config.use_online_api)) {
    return {
      unsupported: `${type} renewed through CloudPaste's online API (use_online_api) cannot be imported: make an rclone config for it (rclone authorize)`,
    };
  }
  const refreshToken = secret('refresh_token');
  const clientId = str(config.client_id).trim();
  if (!refreshToken) return { unsupported: `${type} config without a refresh_token cannot be imported` };
  const options: Record<string, string> = {
    client_id: clientId,
    client_secret: secret('client_secret'),
  };
  const warnings: string[] = [];
  let rcloneType: string;
  if (type === 'ONEDRIVE') {
    rcloneType = 'onedrive';
    const region = str(config.region);
    if (region && region !== 'global') options.region = region;
    // CloudPaste does not keep the drive's id and type; rclone needs both.
    warnings.push(
      `${base.name}: add drive_id and drive_type to its rclone config (rclone config reconnect, or GET /me/drive of Microsoft Graph) before using it`,
    );
  } else {
    rcloneType = 'drive';
    options.scope = 'drive';
    const rootId = str(config.root_id).trim();
    if (rootId && rootId !== 'root') options.root_folder_id = rootId;
  }
  options.token = tokenJson(refreshToken);
  const section = formatRcloneSection(remoteName(base.name, rcloneType), rcloneType, options);
  const parsed = parseRcloneSection(section);
  if (!parsed.ok) return { unsupported: `${type} config cannot be made an rclone config: ${parsed.message}` };
  return {
    row: {
      ...base,
      storage_type: 'rclone',
      secret_encrypted: ctx.cipher.encrypt(section),
      options_json: JSON.stringify({ remote: parsed.section.name, type: parsed.section.type }),
    },
    warnings,
  };
}
