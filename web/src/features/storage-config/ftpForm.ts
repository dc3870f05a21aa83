// The ftp storage type's part of the config form: its checks and its fields of the payload.
import {
  FTP_DEFAULT_PORT,
  ftpOptionsSchema,
  type CreateStorageConfigInput,
  type FtpTlsMode,
  type StorageConfigView,
} from '@clipnest/contract';

export interface FtpFormFields {
  host: string;
  /** Text while typed; checked to be 1–65535. */
  port: string;
  tls: FtpTlsMode;
}

export function initialFtpFields(original?: StorageConfigView): FtpFormFields {
  return {
    host: original?.host ?? '',
    port: String(original?.port ?? FTP_DEFAULT_PORT),
    tls: original?.tls ?? 'explicit',
  };
}

type Translate = (key: string, params?: Record<string, unknown>) => string;

/** Inline checks: the contract's own host rule, a port in range. */
export function validateFtp(state: FtpFormFields, t: Translate): { host?: string; port?: string } {
  const e: { host?: string; port?: string } = {};
  const host = state.host.trim();
  if (!host) e.host = t('files.storage.errors.hostRequired');
  else if (!ftpOptionsSchema.shape.host.safeParse(host).success) e.host = t('files.storage.errors.host');
  const port = Number(state.port.trim());
  if (!/^\d+$/.test(state.port.trim()) || port < 1 || port > 65535) e.port = t('files.storage.errors.port');
  return e;
}

/** The create payload of an ftp config (the common fields given by the caller). */
export function ftpCreatePayload(
  state: FtpFormFields & { username: string; password: string; tls_insecure: boolean },
  common: { name: string; default_folder: string; total_capacity: number | null; is_default: boolean },
): CreateStorageConfigInput {
  return {
    storage_type: 'ftp',
    ...common,
    host: state.host.trim(),
    port: Number(state.port.trim()),
    username: state.username.trim(),
    password: state.password,
    tls: state.tls,
    tls_insecure: state.tls_insecure,
  };
}

/** The port a TLS mode usually listens on: switching mode moves a port still at the other default. */
export function portForTls(current: string, tls: FtpTlsMode): string {
  if (tls === 'implicit' && current.trim() === '21') return '990';
  if (tls !== 'implicit' && current.trim() === '990') return '21';
  return current;
}
