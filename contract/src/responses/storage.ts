import { WEBDAV_POLICIES, type MountList, type MountView } from '../mounts.js';
import {
  FTP_TLS_MODES,
  STORAGE_PROVIDERS,
  STORAGE_TEST_STEPS,
  STORAGE_TYPES,
  type StorageConfigInUse,
  type StorageConfigTestResult,
  type StorageConfigView,
} from '../storageConfigs.js';
import { z } from '../zod.js';
import { count, isoTime, shapeOf } from './define.js';

export const storageConfigViewSchema = shapeOf<StorageConfigView>()(
  z
    .object({
      id: z.string(),
      name: z.string(),
      storage_type: z.enum(STORAGE_TYPES),
      provider: z.enum(STORAGE_PROVIDERS).nullable(),
      endpoint: z.string(),
      bucket: z.string(),
      region: z.string(),
      access_key_id: z.string(),
      secret_access_key_masked: z.string().meta({ description: "Masked secret, '' when none is stored." }),
      has_secret: z.boolean(),
      endpoint_url: z.string().optional().meta({ description: 'WebDAV configs: the root collection.' }),
      username: z.string().optional().meta({ description: 'WebDAV, FTP and SFTP configs: the user.' }),
      tls_insecure: z
        .boolean()
        .optional()
        .meta({ description: 'WebDAV and FTP configs: any TLS certificate is accepted.' }),
      host: z.string().optional().meta({ description: 'FTP and SFTP configs: the server.' }),
      port: z.number().int().optional().meta({ description: 'FTP and SFTP configs: the control or SSH port.' }),
      tls: z
        .enum(FTP_TLS_MODES)
        .optional()
        .meta({ description: 'FTP configs: none, explicit (AUTH TLS) or implicit.' }),
      root_folder: z.string().optional().meta({ description: "SFTP configs: the remote root folder ('' = home)." }),
      host_key_sha256: z
        .string()
        .optional()
        .meta({ description: "SFTP configs: the pinned host key's SHA256 fingerprint ('' until the first test)." }),
      has_password: z.boolean().optional().meta({ description: 'SFTP configs: a password is stored.' }),
      has_private_key: z.boolean().optional().meta({ description: 'SFTP configs: a private key is stored.' }),
      rclone_remote: z
        .string()
        .optional()
        .meta({ description: 'rclone configs: the name of the rclone.conf section.' }),
      rclone_type: z
        .string()
        .optional()
        .meta({ description: 'rclone configs: the backend of the section (onedrive, drive, …).' }),
      root_path: z
        .string()
        .meta({ description: "Local configs: the root folder on the server ('' for S3 and key holders)." }),
      path_style: z.boolean(),
      default_folder: z.string(),
      custom_host: z.string(),
      signature_expires_in: count,
      total_capacity: count.nullable().meta({ description: 'Bytes; null = unlimited.' }),
      used_bytes: count,
      used_scope: z.enum(['storage', 'shares']),
      is_default: z.boolean(),
      is_builtin: z.boolean(),
      created_at: isoTime,
      updated_at: isoTime,
    })
    .meta({ id: 'StorageConfigView' }),
);

const testStep = z.object({
  step: z.enum(STORAGE_TEST_STEPS),
  success: z.boolean(),
  latency_ms: z.number().min(0),
  message: z.string(),
});

export const storageConfigTestResultSchema = shapeOf<StorageConfigTestResult>()(
  z
    .object({
      success: z.boolean(),
      steps: z.array(testStep),
      total_ms: z.number().min(0),
      cors: z
        .object({
          success: z.boolean(),
          latency_ms: z.number().min(0),
          origin: z.string(),
          problem: z.enum(['preflight', 'method', 'etag', 'unreachable']).optional(),
          message: z.string(),
        })
        .optional(),
    })
    .meta({ id: 'StorageConfigTestResult' }),
);

export const storageConfigInUseSchema = shapeOf<StorageConfigInUse>()(
  z.object({ files: count, mounts: count, mount_paths: z.array(z.string()) }),
);

export const mountViewSchema = shapeOf<MountView>()(
  z
    .object({
      id: z.string(),
      name: z.string(),
      path: z.string(),
      storage_type: z.string(),
      storage_config_id: z.string(),
      remark: z.string(),
      sort_order: z.int(),
      cache_ttl: count,
      is_active: z.boolean(),
      web_proxy: z.boolean(),
      enable_sign: z.boolean(),
      sign_expires: count.nullable(),
      webdav_policy: z.enum(WEBDAV_POLICIES),
      created_by: z.string().meta({ description: "'system', the admin's id, or apikey:<id>." }),
      created_at: isoTime,
      updated_at: isoTime,
    })
    .meta({ id: 'MountView' }),
);

export const mountListSchema = shapeOf<MountList>()(z.object({ items: z.array(mountViewSchema), total: count }));
