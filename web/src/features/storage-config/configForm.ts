import { initialSftpState, sftpCreatePayload, validateSftp, type SftpAuth, type SftpField } from './sftpForm';
import {
  localOptionsSchema,
  parseRcloneSection,
  PROVIDER_PRESETS,
  SIGNATURE_EXPIRES_DEFAULT,
  SIGNATURE_EXPIRES_MAX,
  SIGNATURE_EXPIRES_MIN,
  type CreateStorageConfigInput,
  type StorageConfigView,
  type StorageProvider,
  type StorageType,
  type UpdateStorageConfigInput,
} from '@clipnest/contract';
import { ftpCreatePayload, initialFtpFields, validateFtp, type FtpFormFields } from './ftpForm';

export const CAPACITY_UNITS = { MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 } as const;
export type CapacityUnit = keyof typeof CAPACITY_UNITS;

export interface ConfigFormState extends FtpFormFields {
  /** Chosen on create; fixed when editing. Decides which of the type's fields show and are sent. */
  storage_type: StorageType;
  name: string;
  /** Local: the root folder on the server. */
  root_path: string;
  provider: StorageProvider;
  endpoint: string;
  /** True while the endpoint is the preset's pattern (then region edits rewrite it). */
  endpointAuto: boolean;
  region: string;
  bucket: string;
  access_key_id: string;
  secret_access_key: string;
  path_style: boolean;
  default_folder: string;
  custom_host: string;
  signature_expires_in: string;
  capacity: string;
  capacity_unit: CapacityUnit;
  is_default: boolean;
  /** WebDAV: the root collection, the user, the password (write-only), self-signed TLS. */
  endpoint_url: string;
  username: string;
  password: string;
  tls_insecure: boolean;
  /** SFTP (sftpForm.ts): server, port, sign-in method, key and its passphrase, pinned host key, remote root. */
  host: string;
  port: string;
  sftp_auth: SftpAuth;
  private_key: string;
  passphrase: string;
  host_key_sha256: string;
  root_folder: string;
  /** rclone: one rclone.conf section (write-only: blank on edit keeps the stored one). */
  rclone_config: string;
}

export type ConfigField =
  | 'name'
  | 'root_path'
  | 'endpoint'
  | 'region'
  | 'bucket'
  | 'access_key_id'
  | 'secret_access_key'
  | 'default_folder'
  | 'custom_host'
  | 'signature_expires_in'
  | 'capacity'
  | 'endpoint_url'
  | 'username'
  | 'password'
  | 'host'
  | 'port'
  | SftpField
  | 'rclone_config';
export type ConfigErrors = Partial<Record<ConfigField, string>>;

export function presetFor(provider: StorageProvider) {
  return PROVIDER_PRESETS.find((p) => p.provider === provider) ?? PROVIDER_PRESETS[PROVIDER_PRESETS.length - 1]!;
}

/** The preset's endpoint with the region filled in; `{account_id}` becomes a visible placeholder. */
export function presetEndpoint(provider: StorageProvider, region: string): string {
  return presetFor(provider)
    .endpoint.replace('{region}', region.trim() || presetFor(provider).region)
    .replace('{account_id}', '<account_id>');
}

/** The usual port of a type with one (FTP 21, SFTP 22); '' for the others. */
export function defaultPortOf(type: StorageType): string {
  return type === 'ftp' ? '21' : type === 'sftp' ? '22' : '';
}

/** The port after switching to `type`: a port still at some type's default follows the new type's. */
export function portAfterTypeChange(port: string, type: StorageType): string {
  return ['', '21', '22', '990'].includes(port.trim()) ? defaultPortOf(type) : port;
}

export function initialConfigForm(original?: StorageConfigView, type: StorageType = 's3'): ConfigFormState {
  if (!original) {
    const preset = presetFor('aws');
    return {
      storage_type: type,
      name: '',
      root_path: '',
      provider: 'aws',
      endpoint: presetEndpoint('aws', preset.region),
      endpointAuto: true,
      region: preset.region,
      bucket: '',
      access_key_id: '',
      secret_access_key: '',
      path_style: preset.path_style,
      default_folder: '',
      custom_host: '',
      signature_expires_in: String(SIGNATURE_EXPIRES_DEFAULT),
      capacity: '',
      capacity_unit: 'GB',
      is_default: false,
      endpoint_url: '',
      username: '',
      password: '',
      tls_insecure: false,
      ...initialFtpFields(),
      ...initialSftpState(),
      port: defaultPortOf(type),
      rclone_config: '',
    };
  }
  const cap = original.total_capacity;
  const unit: CapacityUnit =
    cap && cap % CAPACITY_UNITS.TB === 0 ? 'TB' : cap && cap % CAPACITY_UNITS.GB === 0 ? 'GB' : cap ? 'MB' : 'GB';
  return {
    storage_type: original.storage_type,
    name: original.name,
    root_path: original.root_path,
    provider: original.provider ?? 'other',
    endpoint: original.endpoint,
    endpointAuto: false,
    region: original.region,
    bucket: original.bucket,
    access_key_id: original.access_key_id,
    secret_access_key: '',
    path_style: original.path_style,
    default_folder: original.default_folder,
    custom_host: original.custom_host,
    signature_expires_in: String(original.signature_expires_in),
    capacity: cap === null ? '' : String(Math.round((cap / CAPACITY_UNITS[unit]) * 100) / 100),
    capacity_unit: unit,
    is_default: original.is_default,
    endpoint_url: original.endpoint_url ?? '',
    username: original.username ?? '',
    password: '',
    tls_insecure: original.tls_insecure ?? false,
    ...initialFtpFields(original),
    ...initialSftpState(original),
    rclone_config: '',
  };
}

/** Switching provider prefills endpoint pattern, region and path style from its preset. */
export function applyProvider(state: ConfigFormState, provider: StorageProvider): ConfigFormState {
  const preset = presetFor(provider);
  const keepEndpoint = !state.endpointAuto && state.endpoint.trim() !== '';
  return {
    ...state,
    provider,
    region: preset.region,
    path_style: preset.path_style,
    endpoint: keepEndpoint ? state.endpoint : presetEndpoint(provider, preset.region),
    endpointAuto: !keepEndpoint,
  };
}

export function applyRegion(state: ConfigFormState, region: string): ConfigFormState {
  return {
    ...state,
    region,
    endpoint: state.endpointAuto ? presetEndpoint(state.provider, region) : state.endpoint,
  };
}

const URL_RE = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i;

export type Translate = (key: string, params?: Record<string, unknown>) => string;

/** Fields every type has: name, default folder, capacity. */
function validateCommon(state: ConfigFormState, t: Translate): ConfigErrors {
  const e: ConfigErrors = {};
  if (!state.name.trim()) e.name = t('files.storage.errors.nameRequired');
  if (/(^|[\\/])\.\.([\\/]|$)/.test(state.default_folder)) e.default_folder = t('files.storage.errors.folder');
  if (state.capacity.trim() && !(Number(state.capacity) > 0)) e.capacity = t('files.storage.errors.capacity');
  return e;
}

/** Local: the root folder, checked with the contract's own schema (the server also checks the allowed roots). */
function validateLocal(state: ConfigFormState, t: Translate): ConfigErrors {
  const parsed = localOptionsSchema.shape.root_path.safeParse(state.root_path);
  if (parsed.success) return {};
  return {
    root_path: state.root_path.trim() ? t('files.storage.errors.rootPath') : t('files.storage.errors.rootRequired'),
  };
}

/** WebDAV: an http(s) URL without credentials in it. */
function validateWebdav(state: ConfigFormState, t: Translate): ConfigErrors {
  const url = state.endpoint_url.trim();
  if (!url) return { endpoint_url: t('files.storage.errors.endpointUrlRequired') };
  if (/^https?:\/\/[^/]*@/i.test(url)) return { endpoint_url: t('files.storage.errors.endpointUrlCredentials') };
  if (!URL_RE.test(url)) return { endpoint_url: t('files.storage.errors.endpointUrl') };
  return {};
}

/** rclone: the contract's own reading of the section, each problem in the form's words. */
function validateRclone(state: ConfigFormState, editing: boolean, t: Translate): ConfigErrors {
  if (!state.rclone_config.trim()) {
    return editing ? {} : { rclone_config: t('files.storage.errors.rclone.required') };
  }
  const parsed = parseRcloneSection(state.rclone_config);
  if (parsed.ok) return {};
  return { rclone_config: t(`files.storage.errors.rclone.${parsed.problem}`, { detail: parsed.detail ?? '' }) };
}

export function validateConfigForm(state: ConfigFormState, editing: boolean, t: Translate): ConfigErrors {
  const common = validateCommon(state, t);
  if (state.storage_type === 'rclone') return { ...common, ...validateRclone(state, editing, t) };
  if (state.storage_type === 'local') return { ...common, ...validateLocal(state, t) };
  if (state.storage_type === 'webdav') return { ...common, ...validateWebdav(state, t) };
  if (state.storage_type === 'ftp') return { ...common, ...validateFtp(state, t) };
  if (state.storage_type === 'sftp') return { ...common, ...validateSftp(state, editing, t) };
  const e: ConfigErrors = { ...common };
  const endpoint = state.endpoint.trim();
  if (/[<>{}]/.test(endpoint)) e.endpoint = t('files.storage.errors.endpointPlaceholder');
  else if (endpoint && !URL_RE.test(endpoint)) e.endpoint = t('files.storage.errors.endpointUrl');
  else if (!endpoint && state.provider !== 'aws') e.endpoint = t('files.storage.errors.endpointRequired');
  if (!/^[A-Za-z0-9_-]*$/.test(state.region.trim())) e.region = t('files.storage.errors.region');
  if (!state.bucket.trim()) e.bucket = t('files.storage.errors.bucketRequired');
  else if (!/^[A-Za-z0-9._-]+$/.test(state.bucket.trim())) e.bucket = t('files.storage.errors.bucket');
  if (!editing && !state.access_key_id.trim()) e.access_key_id = t('files.storage.errors.keyRequired');
  if (!editing && !state.secret_access_key) e.secret_access_key = t('files.storage.errors.secretRequired');
  const host = state.custom_host.trim();
  if (host && !URL_RE.test(host)) e.custom_host = t('files.storage.errors.endpointUrl');
  const sig = Number(state.signature_expires_in);
  if (!/^\d+$/.test(state.signature_expires_in.trim()) || sig < SIGNATURE_EXPIRES_MIN || sig > SIGNATURE_EXPIRES_MAX) {
    e.signature_expires_in = t('files.storage.errors.signature', {
      min: SIGNATURE_EXPIRES_MIN,
      max: SIGNATURE_EXPIRES_MAX,
    });
  }
  return e;
}

function capacityBytes(state: ConfigFormState): number | null {
  if (!state.capacity.trim()) return null;
  return Math.round(Number(state.capacity) * CAPACITY_UNITS[state.capacity_unit]);
}

export function buildCreatePayload(state: ConfigFormState): CreateStorageConfigInput {
  if (state.storage_type === 'ftp') {
    return ftpCreatePayload(state, {
      name: state.name.trim(),
      default_folder: state.default_folder.trim(),
      total_capacity: capacityBytes(state),
      is_default: state.is_default,
    });
  }
  if (state.storage_type === 'sftp') {
    return {
      ...sftpCreatePayload(state),
      name: state.name.trim(),
      default_folder: state.default_folder.trim(),
      total_capacity: capacityBytes(state),
      is_default: state.is_default,
    };
  }
  if (state.storage_type === 'rclone') {
    return {
      storage_type: 'rclone',
      name: state.name.trim(),
      rclone_config: state.rclone_config,
      default_folder: state.default_folder.trim(),
      total_capacity: capacityBytes(state),
      is_default: state.is_default,
    };
  }
  if (state.storage_type === 'webdav') {
    return {
      storage_type: 'webdav',
      name: state.name.trim(),
      endpoint_url: state.endpoint_url.trim(),
      username: state.username.trim(),
      password: state.password,
      tls_insecure: state.tls_insecure,
      default_folder: state.default_folder.trim(),
      total_capacity: capacityBytes(state),
      is_default: state.is_default,
    };
  }
  if (state.storage_type === 'local') {
    return {
      storage_type: 'local',
      name: state.name.trim(),
      root_path: state.root_path.trim(),
      default_folder: state.default_folder.trim(),
      total_capacity: capacityBytes(state),
      is_default: state.is_default,
    };
  }
  return {
    name: state.name.trim(),
    storage_type: 's3',
    provider: state.provider,
    endpoint: state.endpoint.trim(),
    region: state.region.trim(),
    bucket: state.bucket.trim(),
    access_key_id: state.access_key_id.trim(),
    secret_access_key: state.secret_access_key,
    path_style: state.path_style,
    default_folder: state.default_folder.trim(),
    custom_host: state.custom_host.trim(),
    signature_expires_in: Number(state.signature_expires_in),
    total_capacity: capacityBytes(state),
    is_default: state.is_default,
  };
}

/**
 * Every field of the config's type is sent; an empty secret is left out so the stored one is kept. The
 * built-in local config sends no root (it cannot move).
 */
export function buildUpdatePayload(state: ConfigFormState, original?: StorageConfigView): UpdateStorageConfigInput {
  const payload = buildCreatePayload(state);
  if (payload.storage_type === 'local') {
    const { storage_type: _type, is_default: _default, root_path, ...rest } = payload;
    return original?.is_builtin || root_path === original?.root_path ? rest : { ...rest, root_path };
  }
  if (payload.storage_type === 'webdav' || payload.storage_type === 'ftp') {
    const { storage_type: _type, is_default: _default, password, ...rest } = payload;
    return password ? { ...rest, password } : rest;
  }
  if (payload.storage_type === 'sftp') {
    // Blank secrets keep the stored ones.
    const { storage_type: _type, is_default: _default, password, private_key, passphrase, ...rest } = payload;
    return {
      ...rest,
      ...(password ? { password } : {}),
      ...(private_key ? { private_key } : {}),
      ...(passphrase ? { passphrase } : {}),
    };
  }
  if (payload.storage_type === 'rclone') {
    const { storage_type: _type, is_default: _default, rclone_config, ...rest } = payload;
    return rclone_config.trim() ? { ...rest, rclone_config } : rest;
  }
  const { storage_type: _type, is_default: _default, secret_access_key, ...rest } = payload;
  return secret_access_key ? { ...rest, secret_access_key } : rest;
}

/** Maps server validation fields (400 data.fields) onto the form. */
export function serverConfigErrors(data: unknown): ConfigErrors {
  const out: ConfigErrors = {};
  if (typeof data !== 'object' || data === null || !Array.isArray((data as { fields?: unknown }).fields)) return out;
  for (const item of (data as { fields: unknown[] }).fields) {
    if (typeof item !== 'object' || item === null) continue;
    const { path, message } = item as { path?: unknown; message?: unknown };
    if (typeof path !== 'string' || typeof message !== 'string') continue;
    const field = (path === 'total_capacity' ? 'capacity' : path) as ConfigField;
    out[field] ??= message;
  }
  return out;
}
