import path from 'node:path';
import { z } from 'zod';

const boolFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const seconds = z.coerce
  .number({ error: 'must be a number of seconds' })
  .positive('must be greater than 0')
  .max(86_400, 'must be at most 86400');
/** 128 MiB: a restore holds the body and its parsed rows at once (a few times the body at peak, docs/benchmarks.md). */
export const DEFAULT_BACKUP_MAX_BYTES = 128 * 1024 * 1024;

const envSchema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(0, 'must be 0-65535')
    .max(65535, 'must be 0-65535')
    .default(8787),
  HOST: z.string().min(1, 'cannot be empty').default('127.0.0.1'),
  DATA_DIR: z.string().min(1, 'cannot be empty').default('./data'),
  DATABASE_URL: z
    .string()
    .refine((v) => v === '' || /^postgres(ql)?:\/\//.test(v) || v.startsWith('sqlite:'), {
      message: 'must be postgres://… or sqlite:<file>',
    })
    .optional(),
  ENCRYPTION_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  ADMIN_USERNAME: z.string().min(1).max(64).optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  ADMIN_TOKEN_TTL_DAYS: z.coerce
    .number({ error: 'must be a number' })
    .positive('must be greater than 0')
    .max(365, 'must be at most 365')
    .default(7),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  TRUST_PROXY: boolFromEnv.default(false),
  /** With TRUST_PROXY: how many proxies append to X-Forwarded-For; the client is that many entries from the right. */
  TRUST_PROXY_HOPS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be 1-10')
    .max(10, 'must be 1-10')
    .default(1),
  /** URL uploads may fetch loopback/private/link-local addresses (off by default: SSRF guard). */
  ALLOW_PRIVATE_URLS: boolFromEnv.default(false),
  /**
   * Storage (S3) endpoints may be on loopback or the LAN (MinIO); false refuses those too. Cloud metadata and
   * link-local addresses are refused either way (net/storageEndpointGuard).
   */
  STORAGE_ENDPOINTS_ALLOW_PRIVATE: boolFromEnv.default(true),
  /** fsync every file written to local storage before it is renamed into place (power-loss durability). */
  LOCAL_FSYNC: boolFromEnv.default(false),
  /** The rclone binary run for storage configs of type rclone (only they need it). */
  RCLONE_BINARY: z.string().trim().min(1).default('rclone'),
  /** Send local files to clients with sendfile(2) (zero-copy) where the native addon is built. */
  LOCAL_SENDFILE: boolFromEnv.default(true),
  /** Seconds an upload's body may go without a byte before the upload is aborted (no total limit). */
  UPLOAD_IDLE_TIMEOUT: seconds.default(60),
  /** Seconds a download may go without the client taking a byte before the connection is closed. */
  DOWNLOAD_IDLE_TIMEOUT: seconds.default(300),
  /** Seconds any other request's body may take in total. */
  REQUEST_TIMEOUT: seconds.default(300),
  /** Largest backup body /api/admin/backup/preview and /restore accept (bytes); more answers 413. */
  BACKUP_MAX_BYTES: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int('must be an integer')
    .min(1024, 'must be at least 1024')
    .default(DEFAULT_BACKUP_MAX_BYTES),
  /**
   * Folders local storage configs may use as (or below) their root, separated by the path delimiter
   * (':' on Linux). Default: DATA_DIR/storage.
   */
  LOCAL_STORAGE_ROOTS: z
    .string()
    .refine((v) => v.split(path.delimiter).every((p) => p === '' || path.isAbsolute(p)), {
      message: `must be absolute paths separated by "${path.delimiter}"`,
    })
    .optional(),
  WEB_DIST_DIR: z.string().optional(),
  /** Seconds SIGTERM waits for in-flight requests and uploads before the process exits anyway. */
  SHUTDOWN_TIMEOUT: seconds.default(30),
  /** Bearer token GET /metrics requires; without it (and without METRICS_PORT) /metrics answers 404. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Serve /metrics (no token) on this port of HOST instead, e.g. for a scraper on a private network. */
  METRICS_PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be 1-65535')
    .max(65535, 'must be 1-65535')
    .optional(),
  /** Seconds a task's claim lasts without renewal: another instance resumes a task this long after its instance died. */
  TASK_LEASE: seconds.default(30),
  /** Seconds between sweeps that delete expired and used-up pastes. */
  PASTE_SWEEP_INTERVAL: seconds.default(600),
  LOG_LEVEL: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  encryptionKey?: string;
  adminUsername?: string;
  adminPassword?: string;
  adminTokenTtlMs: number;
  publicUrl?: string;
  trustProxy: boolean;
  /** TRUST_PROXY_HOPS (default 1): the X-Forwarded-For entry this many from the right is the client. */
  proxyHops: number;
  allowPrivateUrls: boolean;
  /** STORAGE_ENDPOINTS_ALLOW_PRIVATE: storage endpoints on loopback/LAN addresses are allowed. */
  storageEndpointsAllowPrivate: boolean;
  localFsync: boolean;
  /** RCLONE_BINARY: the rclone run for rclone-type storage configs. */
  rcloneBinary: string;
  localSendfile: boolean;
  /** UPLOAD_IDLE_TIMEOUT: an upload body silent this long is aborted; also the age the temp sweep clears. */
  uploadIdleTimeoutMs: number;
  downloadIdleTimeoutMs: number;
  requestTimeoutMs: number;
  backupMaxBytes: number;
  /** Absolute folders local storage configs must lie in (LOCAL_STORAGE_ROOTS). */
  localStorageRoots: string[];
  webDistDir: string;
  shutdownTimeoutMs: number;
  metricsToken?: string;
  metricsPort?: number;
  taskLeaseMs: number;
  pasteSweepIntervalMs: number;
  logLevel: 'silent' | 'error' | 'info' | 'debug';
}

export class ConfigError extends Error {}

function localRootsOf(value: string | undefined, dataDir: string): string[] {
  const roots = (value ?? '')
    .split(path.delimiter)
    .filter((p) => p !== '')
    .map((p) => path.resolve(p));
  return roots.length > 0 ? roots : [path.join(dataDir, 'storage')];
}

/** Reads and validates the environment once; a bad value is a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv, defaults: { webDistDir: string }): Config {
  // An empty variable means "not set", as in most shells' `FOO= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const databaseUrl =
    e.DATABASE_URL && !e.DATABASE_URL.startsWith('sqlite:')
      ? e.DATABASE_URL
      : `sqlite:${path.resolve(dataDir, e.DATABASE_URL?.slice('sqlite:'.length) || 'clipnest.db')}`;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl,
    encryptionKey: e.ENCRYPTION_KEY,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    adminTokenTtlMs: e.ADMIN_TOKEN_TTL_DAYS * 24 * 3600 * 1000,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    trustProxy: e.TRUST_PROXY,
    proxyHops: e.TRUST_PROXY_HOPS,
    allowPrivateUrls: e.ALLOW_PRIVATE_URLS,
    storageEndpointsAllowPrivate: e.STORAGE_ENDPOINTS_ALLOW_PRIVATE,
    localFsync: e.LOCAL_FSYNC,
    rcloneBinary: e.RCLONE_BINARY,
    localSendfile: e.LOCAL_SENDFILE,
    uploadIdleTimeoutMs: e.UPLOAD_IDLE_TIMEOUT * 1000,
    downloadIdleTimeoutMs: e.DOWNLOAD_IDLE_TIMEOUT * 1000,
    requestTimeoutMs: e.REQUEST_TIMEOUT * 1000,
    backupMaxBytes: e.BACKUP_MAX_BYTES,
    localStorageRoots: localRootsOf(e.LOCAL_STORAGE_ROOTS, dataDir),
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? defaults.webDistDir),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT * 1000,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    taskLeaseMs: e.TASK_LEASE * 1000,
    pasteSweepIntervalMs: e.PASTE_SWEEP_INTERVAL * 1000,
    logLevel: e.LOG_LEVEL,
  };
}
