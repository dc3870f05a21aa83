import {
  parseRcloneSection,
  STORAGE_PROVIDERS,
  STORAGE_TYPE_SPECS,
  type StorageProvider,
  type StorageType,
  type StorageTypeSpec,
} from '@clipnest/contract';
import type { Updateable } from 'kysely';
import { mkdirSync, realpathSync } from 'node:fs';
import type { StorageConfigsTable } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { StorageEndpointGuard } from '../net/storageEndpointGuard.js';
import type { SecretCipher } from '../security/cipher.js';
import { isInsideDir } from './local/realPath.js';
import { ftpType, type FtpDriverSettings } from './ftpStorageType.js';
import { assertEndpointAllowed, decryptOrBlank, unavailableDriver } from './storageTypeHelpers.js';
import { RESERVED_PREFIX } from './paths.js';
import type { StorageDriver } from './types.js';
import type { LocalRoots } from './local/localRoots.js';
import { sftpType } from './sftpStorageType.js';

/** What the registry needs of a storage config row. */
export interface DriverConfig {
  id: string;
  storage_type: string;
  endpoint: string;
  bucket: string;
  region: string;
  access_key_id: string;
  secret_encrypted: string;
  path_style: number;
  /** Local configs: real path of the root; '' or absent = the built-in local root. */
  root_path?: string;
  /** Type-specific non-secret fields (JSON object text); absent or '{}' when none. */
  options_json?: string;
  updated_at: string;
}

export interface S3DriverSettings {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export interface WebDavDriverSettings {
  endpoint: string;
  username: string;
  password: string;
  tlsInsecure: boolean;
}

export interface SftpDriverSettings {
  host: string;
  port: number;
  username: string;
  password: string;
  privateKey: string;
  passphrase: string;
  /** '' = not pinned yet: the first key seen is kept for the driver's life (the config test stores it). */
  hostKeySha256: string;
  /** The remote root folder ('' = the login's home). */
  root: string;
  /** Called once when a connection with no pinned key authenticated: the key it pinned (stored on the config). */
  onHostKeyPinned?: (fingerprint: string) => void;
}

export interface RcloneDriverSettings {
  /** The config's id (names the rclone process and its temp files). */
  id: string;
  /** One rclone.conf section, decrypted ('' when it cannot be). */
  section: string;
  /** Called when rclone rewrote the section (a refreshed OAuth token): the new text, to be stored. */
  onSectionChanged?: (section: string, previous: string) => void;
}

/** Constructors of the drivers, injected by server.ts so services do not depend on their modules. */
export interface DriverFactories {
  local(root: string): StorageDriver;
  s3(settings: S3DriverSettings): StorageDriver;
  webdav(settings: WebDavDriverSettings): StorageDriver;
  ftp(settings: FtpDriverSettings): StorageDriver;
  sftp(settings: SftpDriverSettings): StorageDriver;
  rclone(settings: RcloneDriverSettings): StorageDriver;
}

export interface StorageTypeContext {
  factories: DriverFactories;
  cipher: SecretCipher;
  /** Root of the built-in local storage (DATA_DIR/storage/local). */
  builtinLocalRoot: string;
  localRoots: LocalRoots;
  /** The one storage endpoint guard (API, import, restore, driver build, connect time). */
  endpointGuard: StorageEndpointGuard;
  /**
   * Stores what a running driver learned about its config (the sftp host key it pinned, the token rclone
   * refreshed): `patch` gets the stored row and answers the columns to change (undefined: nothing). The driver
   * keeps running (updated_at is left as it is).
   */
  remember(configId: string, patch: (row: Readonly<StorageConfigsTable>) => ConfigColumns | undefined): void;
}

export type ConfigColumns = Updateable<StorageConfigsTable>;
/** Columns a secret option is stored in (encrypted with the SecretCipher). */
export type SecretColumn = 'secret_encrypted';

/**
 * One storage type of the registry: its options (schema and secret fields shared with the web form via
 * the contract), how they map to the config's columns, and the factory of its driver.
 */
export interface StorageTypeDefinition {
  readonly type: StorageType;
  readonly spec: StorageTypeSpec;
  readonly secretColumns: Readonly<Record<string, SecretColumn>>;
  /**
   * Columns for the non-secret options given (every option on create, the ones sent on update), checked
   * against the row they change. Throws AppError (400 naming the field).
   */
  columns(
    options: Record<string, unknown>,
    ctx: StorageTypeContext,
    current?: Readonly<StorageConfigsTable>,
  ): Promise<ConfigColumns>;
  build(config: DriverConfig, ctx: StorageTypeContext): StorageDriver;
  /**
   * Types keeping several secrets in one column: the encrypted columns for the secrets sent (blank = keep the
   * stored one), merged with `current`'s. Throws AppError (400 naming the field). Without it, `secretColumns`
   * maps each secret to its column.
   */
  secrets?(
    input: Record<string, unknown>,
    cipher: SecretCipher,
    current?: Readonly<StorageConfigsTable>,
  ): ConfigColumns;
  /** Columns to store after a successful config test (the sftp host key it pinned), or undefined. */
  afterTest?(driver: StorageDriver, row: Readonly<StorageConfigsTable>): ConfigColumns | undefined;
  /** Non-secret columns derived from the secrets sent (rclone: the section's name and type in options_json). */
  fromSecrets?(input: Record<string, unknown>): ConfigColumns;
}

/** The built-in root's real path (created when missing), for the overlap check below. */
function realBuiltinRoot(ctx: StorageTypeContext): string {
  mkdirSync(ctx.builtinLocalRoot, { recursive: true });
  return realpathSync(ctx.builtinLocalRoot);
}

/**
 * A local config's root may neither be the built-in share storage, nor lie inside it, nor contain it:
 * any of these would list the file shares (password-protected ones too) through mounts and WebDAV.
 */
function overlapsBuiltinRoot(real: string, ctx: StorageTypeContext): boolean {
  const builtin = realBuiltinRoot(ctx);
  return isInsideDir(real, builtin) || isInsideDir(builtin, real);
}

/**
 * A local root inside a reserved folder (another storage's share area, `.clipnest-shares`, or a driver's
 * staging) would let a mount of this config read what no mount may reach.
 */
function insideReservedFolder(real: string): boolean {
  return real.split(/[\\/]/).some((segment) => segment.startsWith(RESERVED_PREFIX));
}

const localType: StorageTypeDefinition = {
  type: 'local',
  spec: STORAGE_TYPE_SPECS.local,
  secretColumns: {},
  async columns(options, ctx, current) {
    if (options.root_path === undefined) return {};
    if (current && current.root_path === '') {
      throw AppError.validation('the built-in local storage keeps its root (DATA_DIR/storage/local)', [
        { path: 'root_path', message: 'the built-in local storage cannot change its root' },
      ]);
    }
    const requested = String(options.root_path);
    if (insideReservedFolder(requested)) {
      const message = `root_path may not lie inside a folder named ${RESERVED_PREFIX}… (the file shares' own area)`;
      throw AppError.validation(message, [{ path: 'root_path', message }]);
    }
    const root = await ctx.localRoots.prepare(requested);
    if (insideReservedFolder(root)) {
      const message = `root_path may not lie inside a folder named ${RESERVED_PREFIX}… (the file shares' own area)`;
      throw AppError.validation(message, [{ path: 'root_path', message }]);
    }
    if (overlapsBuiltinRoot(root, ctx)) {
      const message = `root_path may not be, contain or lie inside the built-in share storage (${realBuiltinRoot(ctx)})`;
      throw AppError.validation(message, [{ path: 'root_path', message }]);
    }
    return { root_path: root };
  },
  build(config, ctx) {
    if (!config.root_path) return ctx.factories.local(ctx.builtinLocalRoot);
    if (!ctx.localRoots.allows(config.root_path)) {
      // A restored row, or LOCAL_STORAGE_ROOTS changed since: every call fails (503) rather than reach outside.
      return unavailableDriver('local', `the root ${config.root_path} is outside LOCAL_STORAGE_ROOTS`);
    }
    if (insideReservedFolder(config.root_path)) {
      return unavailableDriver('local', `the root ${config.root_path} lies inside a reserved folder`);
    }
    if (overlapsBuiltinRoot(config.root_path, ctx)) {
      return unavailableDriver('local', `the root ${config.root_path} overlaps the built-in share storage`);
    }
    return ctx.factories.local(config.root_path);
  },
};

const s3Type: StorageTypeDefinition = {
  type: 's3',
  spec: STORAGE_TYPE_SPECS.s3,
  secretColumns: { secret_access_key: 'secret_encrypted' },
  async columns(options, ctx, current) {
    const o = options as Partial<Record<string, string | number | boolean>>;
    const out: ConfigColumns = {};
    if (o.provider !== undefined) out.provider = String(o.provider);
    for (const key of ['endpoint', 'bucket', 'region', 'custom_host'] as const) {
      if (o[key] !== undefined) out[key] = String(o[key]);
    }
    if (o.access_key_id !== undefined) {
      if (o.access_key_id === '') {
        throw AppError.validation('access_key_id cannot be empty', [{ path: 'access_key_id', message: 'required' }]);
      }
      out.access_key_id = String(o.access_key_id);
    }
    if (o.path_style !== undefined) out.path_style = o.path_style ? 1 : 0;
    if (o.signature_expires_in !== undefined) out.signature_expires_in = Number(o.signature_expires_in);
    const provider = out.provider ?? current?.provider;
    const endpoint = out.endpoint ?? current?.endpoint ?? '';
    if (provider !== 'aws' && endpoint === '') {
      throw AppError.validation('endpoint is required for this provider', [{ path: 'endpoint', message: 'required' }]);
    }
    const blocked = out.endpoint ? ctx.endpointGuard.endpointBlocked(out.endpoint) : null;
    if (blocked) {
      throw AppError.validation(`endpoint refused: ${blocked}`, [{ path: 'endpoint', message: `refused: ${blocked}` }]);
    }
    return out;
  },
  build(config, ctx) {
    // Node connects to a literal address without calling the guarded `lookup`: refused here instead
    // (a row written before the guard, or by hand), so no request ever leaves for it.
    const blocked = config.endpoint ? ctx.endpointGuard.endpointBlocked(config.endpoint) : null;
    if (blocked) return unavailableDriver('s3', `storage endpoint refused: ${blocked}`);
    return ctx.factories.s3({
      endpoint: config.endpoint || undefined,
      region: config.region || 'us-east-1',
      bucket: config.bucket,
      accessKeyId: config.access_key_id,
      secretAccessKey: decryptOrBlank(ctx.cipher, config.secret_encrypted),
      forcePathStyle: config.path_style === 1,
    });
  },
};

/** WebDAV: endpoint_url → endpoint, username → access_key_id, password → secret_encrypted, tls_insecure → path_style. */
const webdavType: StorageTypeDefinition = {
  type: 'webdav',
  spec: STORAGE_TYPE_SPECS.webdav,
  secretColumns: { password: 'secret_encrypted' },
  async columns(options, ctx) {
    const o = options as Partial<Record<string, string | boolean>>;
    const out: ConfigColumns = {};
    if (o.endpoint_url !== undefined) {
      const url = String(o.endpoint_url);
      assertEndpointAllowed(ctx, 'endpoint_url', url);
      out.endpoint = url;
    }
    if (o.username !== undefined) out.access_key_id = String(o.username);
    if (o.tls_insecure !== undefined) out.path_style = o.tls_insecure ? 1 : 0;
    return out;
  },
  build(config, ctx) {
    const blocked = ctx.endpointGuard.endpointBlocked(config.endpoint);
    if (blocked) return unavailableDriver('webdav', `storage endpoint refused: ${blocked}`);
    return ctx.factories.webdav({
      endpoint: config.endpoint,
      username: config.access_key_id,
      password: decryptOrBlank(ctx.cipher, config.secret_encrypted),
      tlsInsecure: config.path_style === 1,
    });
  },
};

/**
 * rclone: the whole rclone.conf section is the secret (secret_encrypted); its name and backend type are kept in
 * options_json for the view. The driver runs `rclone serve webdav` on it (storage/rclone).
 */
const rcloneType: StorageTypeDefinition = {
  type: 'rclone',
  spec: STORAGE_TYPE_SPECS.rclone,
  secretColumns: { rclone_config: 'secret_encrypted' },
  columns() {
    return Promise.resolve({});
  },
  fromSecrets(input) {
    const text = input.rclone_config;
    if (typeof text !== 'string' || text.trim() === '') return {};
    const parsed = parseRcloneSection(text);
    if (!parsed.ok) throw AppError.validation(parsed.message, [{ path: 'rclone_config', message: parsed.message }]);
    return { options_json: JSON.stringify({ remote: parsed.section.name, type: parsed.section.type }) };
  },
  build(config, ctx) {
    return ctx.factories.rclone({
      id: config.id,
      section: decryptOrBlank(ctx.cipher, config.secret_encrypted),
      // rclone refreshed an OAuth token: store the section it rewrote, unless the admin changed it meanwhile.
      onSectionChanged: (next, previous) =>
        ctx.remember(config.id, (row) =>
          decryptOrBlank(ctx.cipher, row.secret_encrypted) === previous
            ? { secret_encrypted: ctx.cipher.encrypt(next) }
            : undefined,
        ),
    });
  },
};

/** The section's name and type of an rclone config row (options_json), for its view. */
export function rcloneSummary(optionsJson: string | undefined): { rclone_remote: string; rclone_type: string } {
  try {
    const o = JSON.parse(optionsJson ?? '{}') as { remote?: unknown; type?: unknown };
    return {
      rclone_remote: typeof o.remote === 'string' ? o.remote : '',
      rclone_type: typeof o.type === 'string' ? o.type : '',
    };
  } catch {
    return { rclone_remote: '', rclone_type: '' };
  }
}

/** Every storage type the server knows. */
export const STORAGE_TYPE_DEFINITIONS: Readonly<Record<StorageType, StorageTypeDefinition>> = {
  local: localType,
  s3: s3Type,
  webdav: webdavType,
  ftp: ftpType,
  sftp: sftpType,
  rclone: rcloneType,
};

export function storageTypeOf(type: string): StorageTypeDefinition | undefined {
  return Object.hasOwn(STORAGE_TYPE_DEFINITIONS, type) ? STORAGE_TYPE_DEFINITIONS[type as StorageType] : undefined;
}

/** The type's own options present in `input` (undefined ones left out), secrets excluded. */
export function pickOptions(def: StorageTypeDefinition, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(def.spec.options.shape)) {
    if (input[key] !== undefined && !def.spec.secretFields.includes(key)) out[key] = input[key];
  }
  return out;
}

/** Encrypted columns for the secrets sent; a blank or omitted secret is left out (the stored one is kept). */
export function secretColumns(
  def: StorageTypeDefinition,
  input: Record<string, unknown>,
  cipher: SecretCipher,
  current?: Readonly<StorageConfigsTable>,
): ConfigColumns {
  if (def.secrets) return def.secrets(input, cipher, current);
  const out: ConfigColumns = {};
  for (const field of def.spec.secretFields) {
    const value = input[field];
    const column = def.secretColumns[field];
    if (column && typeof value === 'string' && value !== '') out[column] = cipher.encrypt(value);
  }
  return { ...out, ...def.fromSecrets?.(input) };
}

function maskSecret(secret: string): string {
  if (!secret) return '';
  return `••••${secret.length > 8 ? secret.slice(-4) : ''}`;
}

/** How a row's secret shows in an answer: masked ("••••abcd"), never the secret itself. */
export function secretView(
  row: Pick<StorageConfigsTable, 'secret_encrypted'>,
  cipher: SecretCipher,
): { secret_access_key_masked: string; has_secret: boolean } {
  if (!row.secret_encrypted) return { secret_access_key_masked: '', has_secret: false };
  return {
    secret_access_key_masked: maskSecret(decryptOrBlank(cipher, row.secret_encrypted)) || '••••',
    has_secret: true,
  };
}

export function providerOf(value: string | null): StorageProvider | null {
  return (STORAGE_PROVIDERS as readonly string[]).includes(value ?? '') ? (value as StorageProvider) : null;
}
