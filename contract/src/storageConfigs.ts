/**
 * Storage configs (spec §7 "Storage configs": /api/s3-configs).
 *
 * Note for the web helper:
 * - List: GET /api/s3-configs?page=&limit= → ListPage<StorageConfigView> (with `page`). Admin, or a key with
 *   FILE_SHARE (upload target select): keys get endpoint/bucket/keys/folder/host blanked. Everything else: admin.
 * - Create: POST with `createStorageConfigSchema`; update: PUT /{id} with `updateStorageConfigSchema`
 *   (every field optional; omit `secret_access_key` or send '' to keep the stored secret).
 * - The secret is write-only: replies carry `secret_access_key_masked` ("••••abcd") and `has_secret`.
 * - Types come from STORAGE_TYPE_SPECS (local, s3, webdav, ftp, sftp, rclone): create with `storage_type` (default 's3') and that
 *   type's options. WebDAV configs take `endpoint_url`, `username`, `password` (write-only: answered only as
 *   `has_secret`) and `tls_insecure`; views of them carry `endpoint_url`, `username` and `tls_insecure`. FTP configs take `host`, `port` (21), `username` (blank = anonymous),
 *   `password` (write-only), `tls` (none | explicit | implicit) and `tls_insecure`; views carry all but the password. Local configs name a `root_path` inside the operator's LOCAL_STORAGE_ROOTS (400 naming root_path
 *   otherwise). The built-in local config (`is_builtin: true`, DATA_DIR/storage/local) cannot be deleted
 *   and its root cannot change; S3 fields sent to a local config (or root_path to S3) → 400.
 * - rclone configs take `rclone_config` (one rclone.conf section, write-only, answered only as `has_secret`); views
 *   carry `rclone_remote` (its name) and `rclone_type` (its backend).
 * - DELETE of a config used by files/mounts → 409, data StorageConfigInUse `{ files, mounts, mount_paths }`.
 * - POST /{id}/test → StorageConfigTestResult (always 200; `success` says whether every step passed).
 * - PROVIDER_PRESETS gives endpoint patterns to prefill the form ({region}, {account_id} placeholders).
 */
import { parseRcloneSection, RCLONE_CONFIG_MAX } from './rcloneSection.js';
import { z } from './zod.js';

/** The name the server gives the built-in local config (an English default: clients translate it). */
export const BUILTIN_LOCAL_CONFIG_NAME = 'Local storage';

export const STORAGE_TYPES = ['local', 's3', 'webdav', 'ftp', 'sftp', 'rclone'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

export const STORAGE_PROVIDERS = ['aws', 'cloudflare_r2', 'backblaze_b2', 'minio', 'aliyun_oss', 'other'] as const;
export type StorageProvider = (typeof STORAGE_PROVIDERS)[number];

export interface ProviderPreset {
  provider: StorageProvider;
  label: string;
  endpoint: string;
  region: string;
  path_style: boolean;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    provider: 'aws',
    label: 'Amazon S3',
    endpoint: 'https://s3.{region}.amazonaws.com',
    region: 'us-east-1',
    path_style: false,
  },
  {
    provider: 'cloudflare_r2',
    label: 'Cloudflare R2',
    endpoint: 'https://{account_id}.r2.cloudflarestorage.com',
    region: 'auto',
    path_style: true,
  },
  {
    provider: 'backblaze_b2',
    label: 'Backblaze B2',
    endpoint: 'https://s3.{region}.backblazeb2.com',
    region: 'us-west-004',
    path_style: true,
  },
  { provider: 'minio', label: 'MinIO', endpoint: 'http://127.0.0.1:9000', region: 'us-east-1', path_style: true },
  {
    provider: 'aliyun_oss',
    label: 'Aliyun OSS',
    endpoint: 'https://oss-{region}.aliyuncs.com',
    region: 'cn-hangzhou',
    path_style: false,
  },
  { provider: 'other', label: 'Other S3-compatible', endpoint: '', region: 'us-east-1', path_style: true },
];

export const STORAGE_CONFIG_NAME_MAX = 100;
/** Presigned URL lifetime bounds in seconds. */
export const SIGNATURE_EXPIRES_MIN = 60;
export const SIGNATURE_EXPIRES_MAX = 7 * 24 * 3600;
export const SIGNATURE_EXPIRES_DEFAULT = 3600;

const nameSchema = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name is required')
  .max(STORAGE_CONFIG_NAME_MAX, `name must be at most ${STORAGE_CONFIG_NAME_MAX} characters`);

const endpointSchema = z
  .string()
  .trim()
  .max(500, 'endpoint is too long')
  .refine((s) => s === '' || /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(s), {
    message: 'endpoint must be an http(s) URL, e.g. https://s3.us-east-1.amazonaws.com',
  })
  .transform((s) => s.replace(/\/+$/, ''));

const bucketSchema = z
  .string({ error: 'bucket is required' })
  .trim()
  .min(1, 'bucket is required')
  .max(255, 'bucket is too long')
  .regex(/^[A-Za-z0-9._-]+$/, 'bucket may only contain letters, digits, ".", "_" and "-"');

const regionSchema = z
  .string()
  .trim()
  .max(64, 'region is too long')
  .regex(/^[A-Za-z0-9_-]*$/, 'region may only contain letters, digits, "_" and "-"');

const folderSchema = z
  .string()
  .max(500, 'default_folder is too long')
  .transform((value, ctx) => {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'default_folder contains control characters' });
      return z.NEVER;
    }
    const segments = value
      .replace(/\\/g, '/')
      .split('/')
      .filter((s) => s !== '' && s !== '.');
    if (segments.some((s) => s === '..' || /%2e%2e/i.test(s) || /%2f|%5c|%00/i.test(s))) {
      ctx.addIssue({ code: 'custom', message: 'default_folder may not contain ".." or encoded separators' });
      return z.NEVER;
    }
    return segments.join('/');
  });

const customHostSchema = z
  .string()
  .trim()
  .max(500, 'custom_host is too long')
  .refine((s) => s === '' || /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(s), {
    message: 'custom_host must be an http(s) URL',
  })
  .transform((s) => s.replace(/\/+$/, ''));

const signatureSchema = z
  .number({ error: 'signature_expires_in must be a number of seconds' })
  .int('signature_expires_in must be whole seconds')
  .min(SIGNATURE_EXPIRES_MIN, `signature_expires_in must be at least ${SIGNATURE_EXPIRES_MIN} seconds`)
  .max(SIGNATURE_EXPIRES_MAX, `signature_expires_in must be at most ${SIGNATURE_EXPIRES_MAX} seconds (7 days)`);

const capacitySchema = z
  .number({ error: 'total_capacity must be a number of bytes or null' })
  .int('total_capacity must be whole bytes')
  .min(0, 'total_capacity cannot be negative')
  .max(Number.MAX_SAFE_INTEGER, 'total_capacity is too large')
  .nullable();

const keyIdSchema = z.string().trim().max(256, 'access_key_id is too long');
const secretSchema = z.string().max(1024, 'secret_access_key is too long');

/**
 * Root folder of a local config: an absolute path on the server, no `..` segments, no control characters.
 * The server also requires it to lie inside one of the operator's LOCAL_STORAGE_ROOTS (after resolving
 * symlinks), creates it when missing, and stores its real path.
 */
export const LOCAL_ROOT_PATH_MAX = 4096;
export const localRootPathSchema = z
  .string({ error: 'root_path is required' })
  .trim()
  .min(1, 'root_path is required')
  .max(LOCAL_ROOT_PATH_MAX, `root_path must be at most ${LOCAL_ROOT_PATH_MAX} characters`)
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: 'root_path contains control characters' })
  .refine((s) => s.startsWith('/') || /^[A-Za-z]:[\\/]/.test(s), {
    message: 'root_path must be an absolute path, e.g. /srv/clipnest/share',
  })
  .refine((s) => !s.split(/[\\/]/).includes('..'), { message: 'root_path may not contain ".." segments' });

/**
 * The options each storage type declares (its driver's settings). Secret fields are write-only: stored
 * encrypted, answered masked (`<field>_masked`, `has_secret`), and left unchanged when an edit sends them
 * blank or leaves them out.
 */
export const localOptionsSchema = z.strictObject({
  root_path: localRootPathSchema,
});

export const s3OptionsSchema = z.strictObject({
  provider: z
    .enum(STORAGE_PROVIDERS, { error: `provider must be one of ${STORAGE_PROVIDERS.join(', ')}` })
    .default('other'),
  endpoint: endpointSchema.default(''),
  bucket: bucketSchema,
  region: regionSchema.default(''),
  access_key_id: keyIdSchema.min(1, 'access_key_id is required'),
  secret_access_key: secretSchema.min(1, 'secret_access_key is required'),
  path_style: z.boolean({ error: 'path_style must be true or false' }).default(false),
  custom_host: customHostSchema.default(''),
  signature_expires_in: signatureSchema.default(SIGNATURE_EXPIRES_DEFAULT),
});

/**
 * WebDAV (CloudPaste's field names): the collection at `endpoint_url` is the storage's root (nothing above it is
 * reachable); `default_folder` is where file shares go inside it, as for S3. `password` is write-only.
 */
export const webdavOptionsSchema = z.strictObject({
  endpoint_url: z
    .string({ error: 'endpoint_url is required' })
    .trim()
    .min(1, 'endpoint_url is required')
    .max(500, 'endpoint_url is too long')
    .refine((s) => /^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/i.test(s), {
      message:
        'endpoint_url must be an http(s) URL without credentials, e.g. https://nas.local/remote.php/dav/files/me',
    }),
  username: z.string({ error: 'username must be text' }).trim().max(256, 'username is too long').default(''),
  password: z.string({ error: 'password must be text' }).max(1024, 'password is too long').default(''),
  tls_insecure: z.boolean({ error: 'tls_insecure must be true or false' }).default(false),
});

/** FTP's TLS modes: none (plain FTP), explicit (AUTH TLS on the usual port), implicit (TLS from the first byte). */
export const FTP_TLS_MODES = ['none', 'explicit', 'implicit'] as const;
export type FtpTlsMode = (typeof FTP_TLS_MODES)[number];
export const FTP_DEFAULT_PORT = 21;

/** A host name, an IPv4 address or an IPv6 address (brackets optional); no scheme, port, path or credentials. */
export const ftpHostSchema = z
  .string({ error: 'host is required' })
  .trim()
  .min(1, 'host is required')
  .max(253, 'host is too long')
  .refine((s) => /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(s) || /^\[?[0-9A-Fa-f:.]+\]?$/.test(s), {
    message: 'host must be a host name or an IP address, e.g. ftp.example.com (no ftp://, port or path)',
  })
  .transform((s) => s.replace(/^\[|\]$/g, ''));
export const ftpPortSchema = z
  .number({ error: 'port must be a number' })
  .int('port must be a whole number')
  .min(1, 'port must be between 1 and 65535')
  .max(65535, 'port must be between 1 and 65535');
export const ftpTlsSchema = z.enum(FTP_TLS_MODES, { error: `tls must be one of ${FTP_TLS_MODES.join(', ')}` });

/**
 * FTP / FTPS: the folder the login lands in is the storage's root (nothing above it is reachable);
 * `default_folder` is where file shares go inside it. A blank `username` logs in as anonymous. `password` is
 * write-only. `tls_insecure` accepts a self-signed certificate (explicit and implicit TLS).
 */
export const ftpOptionsSchema = z.strictObject({
  host: ftpHostSchema,
  port: ftpPortSchema.default(FTP_DEFAULT_PORT),
  username: z.string({ error: 'username must be text' }).trim().max(256, 'username is too long').default(''),
  password: z.string({ error: 'password must be text' }).max(1024, 'password is too long').default(''),
  tls: ftpTlsSchema.default('explicit'),
  tls_insecure: z.boolean({ error: 'tls_insecure must be true or false' }).default(false),
});

/** SFTP: a host name or an IP address (IPv6 without brackets), no scheme, user or port. */
export const SFTP_HOST_PATTERN =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?)*\.?|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$/;
/** A SHA-256 host key fingerprint as OpenSSH shows it: `SHA256:` then 43 base64 characters (prefix optional). */
export const SFTP_FINGERPRINT_PATTERN = /^(?:SHA256:)?[A-Za-z0-9+/]{43}=?$/;
export const SFTP_PRIVATE_KEY_MAX = 16_384;

const sftpHostSchema = z
  .string({ error: 'host is required' })
  .trim()
  .min(1, 'host is required')
  .max(253, 'host is too long')
  .regex(SFTP_HOST_PATTERN, 'host must be a host name or an IP address, without sftp:// or a port, e.g. nas.local');
const sftpPortSchema = z
  .number({ error: 'port must be a number' })
  .int('port must be a whole number')
  .min(1, 'port must be 1 to 65535')
  .max(65_535, 'port must be 1 to 65535');
const sftpUsernameSchema = z
  .string({ error: 'username is required' })
  .trim()
  .min(1, 'username is required')
  .max(256, 'username is too long');
const sftpPrivateKeySchema = z
  .string({ error: 'private_key must be text' })
  .max(SFTP_PRIVATE_KEY_MAX, 'private_key is too long')
  .refine((s) => s.trim() === '' || /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(s), {
    message: 'private_key must be a private key file (-----BEGIN … PRIVATE KEY-----), e.g. ~/.ssh/id_ed25519',
  });
const sftpFingerprintSchema = z
  .string({ error: 'host_key_sha256 must be text' })
  .trim()
  .refine((s) => s === '' || SFTP_FINGERPRINT_PATTERN.test(s), {
    message: 'host_key_sha256 must be a SHA256 fingerprint, e.g. SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s',
  })
  .transform((s) => s.replace(/^SHA256:/i, '').replace(/=+$/, ''));
const sftpRootFolderSchema = z
  .string({ error: 'root_folder must be text' })
  .trim()
  .max(1024, 'root_folder is too long')
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: 'root_folder contains control characters' });

/**
 * SFTP: the remote folder `root_folder` (absolute, or relative to the login's home; '' = the home) is the
 * storage's root, nothing outside it is reachable; `default_folder` is where file shares go inside it, as for the
 * other types. Sign-in with `password` or `private_key` (+ `passphrase`), all three write-only. The server's host
 * key is pinned (`host_key_sha256`) by the first successful test when left blank; a changed key is refused.
 */
export const sftpOptionsSchema = z.strictObject({
  host: sftpHostSchema,
  port: sftpPortSchema.default(22),
  username: sftpUsernameSchema,
  password: z.string({ error: 'password must be text' }).max(1024, 'password is too long').default(''),
  private_key: sftpPrivateKeySchema.default(''),
  passphrase: z.string({ error: 'passphrase must be text' }).max(1024, 'passphrase is too long').default(''),
  host_key_sha256: sftpFingerprintSchema.default(''),
  root_folder: sftpRootFolderSchema.default(''),
});

/** One rclone.conf section (rcloneSection.ts); '' passes (an edit that keeps the stored one). */
const rcloneConfigSchema = z
  .string({ error: 'rclone_config must be text' })
  .max(RCLONE_CONFIG_MAX, 'rclone_config is too long')
  .superRefine((text, ctx) => {
    if (text.trim() === '') return;
    const parsed = parseRcloneSection(text);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
  });

/**
 * rclone: one section of an rclone.conf (`rclone config show NAME`), write-only as a whole. The server runs
 * `rclone serve webdav` for it on 127.0.0.1 and talks WebDAV to that. `local` and wrapper types are refused.
 */
export const rcloneOptionsSchema = z.strictObject({
  rclone_config: rcloneConfigSchema.refine((s) => s.trim() !== '', { message: 'rclone_config is required' }),
});

export interface StorageTypeSpec {
  type: StorageType;
  /** The type's own fields (create: required ones required; update: all optional). */
  options:
    | typeof localOptionsSchema
    | typeof s3OptionsSchema
    | typeof webdavOptionsSchema
    | typeof ftpOptionsSchema
    | typeof sftpOptionsSchema
    | typeof rcloneOptionsSchema;
  /** Option fields that are secrets (never answered; blank on edit = keep). */
  secretFields: readonly string[];
}

export const STORAGE_TYPE_SPECS: Record<StorageType, StorageTypeSpec> = {
  local: { type: 'local', options: localOptionsSchema, secretFields: [] },
  s3: { type: 's3', options: s3OptionsSchema, secretFields: ['secret_access_key'] },
  webdav: { type: 'webdav', options: webdavOptionsSchema, secretFields: ['password'] },
  ftp: { type: 'ftp', options: ftpOptionsSchema, secretFields: ['password'] },
  sftp: { type: 'sftp', options: sftpOptionsSchema, secretFields: ['password', 'private_key', 'passphrase'] },
  rclone: { type: 'rclone', options: rcloneOptionsSchema, secretFields: ['rclone_config'] },
};

/** Option fields of every type but `type`: an edit sending one of them is refused (400 naming it). */
export function foreignOptionFields(type: StorageType): string[] {
  const own = new Set(Object.keys(STORAGE_TYPE_SPECS[type].options.shape));
  const foreign = STORAGE_TYPES.filter((t) => t !== type)
    .flatMap((t) => Object.keys(STORAGE_TYPE_SPECS[t].options.shape))
    .filter((k) => !own.has(k));
  return [...new Set(foreign)];
}

/** Fields every type has. */
const commonCreateFields = {
  name: nameSchema,
  default_folder: folderSchema.default(''),
  total_capacity: capacitySchema.default(null),
  is_default: z.boolean({ error: 'is_default must be true or false' }).default(false),
};

const createS3ConfigSchema = z
  .strictObject({
    // Omitted = s3: scripts written before local configs existed keep working.
    storage_type: z.literal('s3').default('s3'),
    ...commonCreateFields,
    ...s3OptionsSchema.shape,
  })
  .refine((v) => v.provider === 'aws' || v.endpoint !== '', {
    message: 'endpoint is required for this provider',
    path: ['endpoint'],
  });

const createLocalConfigSchema = z.strictObject({
  storage_type: z.literal('local'),
  ...commonCreateFields,
  ...localOptionsSchema.shape,
});

const createWebdavConfigSchema = z.strictObject({
  storage_type: z.literal('webdav'),
  ...commonCreateFields,
  ...webdavOptionsSchema.shape,
});

const createFtpConfigSchema = z.strictObject({
  storage_type: z.literal('ftp'),
  ...commonCreateFields,
  ...ftpOptionsSchema.shape,
});

const createSftpConfigSchema = z
  .strictObject({
    storage_type: z.literal('sftp'),
    ...commonCreateFields,
    ...sftpOptionsSchema.shape,
  })
  .refine((v) => v.password !== '' || v.private_key.trim() !== '', {
    message: 'a password or a private_key is required',
    path: ['password'],
  });

const createRcloneConfigSchema = z.strictObject({
  storage_type: z.literal('rclone'),
  ...commonCreateFields,
  ...rcloneOptionsSchema.shape,
});

export const createStorageConfigSchema = z.discriminatedUnion(
  'storage_type',
  [
    createS3ConfigSchema,
    createLocalConfigSchema,
    createWebdavConfigSchema,
    createFtpConfigSchema,
    createSftpConfigSchema,
    createRcloneConfigSchema,
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union' ? `storage_type must be one of ${STORAGE_TYPES.join(', ')}` : undefined,
  },
);
export type CreateStorageConfigInput = z.input<typeof createStorageConfigSchema>;
export type CreateStorageConfig = z.output<typeof createStorageConfigSchema>;
export type CreateS3StorageConfig = z.output<typeof createS3ConfigSchema>;
export type CreateLocalStorageConfig = z.output<typeof createLocalConfigSchema>;
export type CreateWebdavStorageConfig = z.output<typeof createWebdavConfigSchema>;
export type CreateFtpStorageConfig = z.output<typeof createFtpConfigSchema>;
export type CreateSftpStorageConfig = z.output<typeof createSftpConfigSchema>;
export type CreateRcloneStorageConfig = z.output<typeof createRcloneConfigSchema>;

/** Every field optional; fields of another type than the config's → 400. The type itself cannot change. */
export const updateStorageConfigSchema = z.strictObject({
  name: nameSchema.optional(),
  provider: z.enum(STORAGE_PROVIDERS, { error: `provider must be one of ${STORAGE_PROVIDERS.join(', ')}` }).optional(),
  endpoint: endpointSchema.optional(),
  bucket: bucketSchema.optional(),
  region: regionSchema.optional(),
  access_key_id: keyIdSchema.optional(),
  /** Omit or send '' to keep the stored secret. */
  secret_access_key: secretSchema.optional(),
  path_style: z.boolean({ error: 'path_style must be true or false' }).optional(),
  default_folder: folderSchema.optional(),
  custom_host: customHostSchema.optional(),
  signature_expires_in: signatureSchema.optional(),
  total_capacity: capacitySchema.optional(),
  is_default: z.boolean({ error: 'is_default must be true or false' }).optional(),
  root_path: localRootPathSchema.optional(),
  endpoint_url: webdavOptionsSchema.shape.endpoint_url.optional(),
  username: z.string({ error: 'username must be text' }).trim().max(256, 'username is too long').optional(),
  /** Omit or send '' to keep the stored password. */
  password: z.string({ error: 'password must be text' }).max(1024, 'password is too long').optional(),
  tls_insecure: z.boolean({ error: 'tls_insecure must be true or false' }).optional(),
  host: ftpHostSchema.optional(),
  port: ftpPortSchema.optional(),
  tls: ftpTlsSchema.optional(),
  /** Omit or send '' to keep the stored key. */
  private_key: sftpPrivateKeySchema.optional(),
  /** Omit or send '' to keep the stored passphrase. */
  passphrase: z.string({ error: 'passphrase must be text' }).max(1024, 'passphrase is too long').optional(),
  /** '' unpins the host key: the next successful test pins the key the server shows then. */
  host_key_sha256: sftpFingerprintSchema.optional(),
  root_folder: sftpRootFolderSchema.optional(),
  /** Omit or send '' to keep the stored section. */
  rclone_config: rcloneConfigSchema.optional(),
});
export type UpdateStorageConfigInput = z.input<typeof updateStorageConfigSchema>;
export type UpdateStorageConfig = z.output<typeof updateStorageConfigSchema>;

export const storageConfigListQuerySchema = z.object({
  page: z.coerce.number().int().min(1, 'page must be at least 1').default(1),
  limit: z.coerce.number().int().min(1, 'limit must be at least 1').max(200, 'limit must be at most 200').default(50),
});

export interface StorageConfigView {
  id: string;
  name: string;
  storage_type: StorageType;
  provider: StorageProvider | null;
  endpoint: string;
  bucket: string;
  region: string;
  access_key_id: string;
  /** Masked secret ("••••abcd"), '' when none is stored. The secret itself never comes back. */
  secret_access_key_masked: string;
  has_secret: boolean;
  /** WebDAV configs: the root collection, the user, whether any TLS certificate is accepted. */
  endpoint_url?: string;
  username?: string;
  tls_insecure?: boolean;
  /** FTP and SFTP configs: the server and its port; FTP: the TLS mode (with `username` and `tls_insecure` above). */
  host?: string;
  port?: number;
  tls?: FtpTlsMode;
  /** SFTP configs: the remote root folder, the pinned host key ('' until the first successful test). */
  root_folder?: string;
  host_key_sha256?: string;
  /** SFTP configs: whether a password / a private key is stored (neither is ever answered). */
  has_password?: boolean;
  has_private_key?: boolean;
  /** rclone configs: the section's name and its backend type (the section itself is never answered). */
  rclone_remote?: string;
  rclone_type?: string;
  /** Local configs: the real path of the root folder on the server ('' for S3, and for key holders). */
  root_path: string;
  path_style: boolean;
  default_folder: string;
  custom_host: string;
  signature_expires_in: number;
  /** Bytes; null = unlimited. */
  total_capacity: number | null;
  /**
   * Bytes the storage holds, as one figure for the capacity bar, the WebDAV quota and the limit on writes into
   * mounts. `used_scope` says what it counts: 'storage' (a mounted config: everything in the storage, its file
   * shares plus what was written through mounts or from outside, walked at most a minute ago plus writes since),
   * 'shares' (an unmounted config: the file shares stored in it).
   */
  used_bytes: number;
  used_scope: StorageUsedScope;
  is_default: boolean;
  /**
   * The config the server makes itself (local, DATA_DIR/storage/local). While its name is still
   * BUILTIN_LOCAL_CONFIG_NAME, clients show their own word for it (the name is an English default).
   */
  is_builtin: boolean;
  created_at: string;
  updated_at: string;
}

export type StorageUsedScope = 'storage' | 'shares';

/**
 * The Test button's steps, in the order they run: connect (reach and log in: the root answers), write a probe
 * file, read it back, list its folder (the probe must be there), delete it. A failed step ends the test; the
 * steps after it are not answered.
 */
export const STORAGE_TEST_STEPS = ['connect', 'write', 'read', 'list', 'delete'] as const;
export type StorageTestStepName = (typeof STORAGE_TEST_STEPS)[number];
export interface StorageTestStep {
  step: StorageTestStepName;
  success: boolean;
  latency_ms: number;
  message: string;
}
/** POST /api/s3-configs/{id}/test */
export interface StorageConfigTestResult {
  success: boolean;
  steps: StorageTestStep[];
  total_ms: number;
  /**
   * S3 only: can a browser PUT straight to the bucket from our origin (preflight with Origin) and read
   * ETag? Advice for direct/multipart uploads; it does not change `success`.
   */
  cors?: StorageCorsResult;
}

/** Why browsers may not upload straight to the bucket (the UI chooses its advice from it). */
export type StorageCorsProblem = 'preflight' | 'method' | 'etag' | 'unreachable';
export interface StorageCorsResult {
  success: boolean;
  latency_ms: number;
  /** The origin the probe claimed: the one the admin uses (the request's Origin, else PUBLIC_URL, else its host). */
  origin: string;
  /** Set when `success` is false. */
  problem?: StorageCorsProblem;
  /** The server's sentence (a detail; English). */
  message: string;
}

/** data of the 409 answered by DELETE /api/s3-configs/{id} when the config is in use. */
export interface StorageConfigInUse {
  files: number;
  mounts: number;
  /** Paths of the mounts using it (up to 20). */
  mount_paths: string[];
}
