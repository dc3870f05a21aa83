// The sftp type's part of the storage config form: its fields' state, inline checks and payload.
import {
  SFTP_FINGERPRINT_PATTERN,
  SFTP_HOST_PATTERN,
  type CreateStorageConfigInput,
  type StorageConfigView,
} from '@clipnest/contract';
import type { ConfigErrors, ConfigFormState, Translate } from './configForm';

export type SftpAuth = 'key' | 'password';
export type SftpField = 'host' | 'port' | 'private_key' | 'passphrase' | 'host_key_sha256' | 'root_folder';

export function initialSftpState(original?: StorageConfigView) {
  return {
    host: original?.host ?? '',
    port: String(original?.port ?? 22),
    sftp_auth: (original && original.has_password && !original.has_private_key ? 'password' : 'key') as SftpAuth,
    private_key: '',
    passphrase: '',
    host_key_sha256: original?.host_key_sha256 ? `SHA256:${original.host_key_sha256}` : '',
    root_folder: original?.root_folder ?? '',
  };
}

export function validateSftp(state: ConfigFormState, editing: boolean, t: Translate): ConfigErrors {
  const e: ConfigErrors = {};
  const host = state.host.trim();
  if (!host) e.host = t('files.storage.errors.hostRequired');
  else if (!SFTP_HOST_PATTERN.test(host)) e.host = t('files.storage.errors.host');
  const port = Number(state.port);
  if (!/^\d+$/.test(state.port.trim()) || port < 1 || port > 65_535) e.port = t('files.storage.errors.port');
  if (!state.username.trim()) e.username = t('files.storage.errors.usernameRequired');
  if (state.sftp_auth === 'key') {
    const key = state.private_key.trim();
    if (key && !/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(key)) e.private_key = t('files.storage.errors.privateKey');
    else if (!key && !editing) e.private_key = t('files.storage.errors.privateKeyRequired');
  } else if (!state.password && !editing) {
    e.password = t('files.storage.errors.passwordRequired');
  }
  const fingerprint = state.host_key_sha256.trim();
  if (fingerprint && !SFTP_FINGERPRINT_PATTERN.test(fingerprint)) e.host_key_sha256 = t('files.storage.errors.hostKey');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(state.root_folder)) e.root_folder = t('files.storage.errors.rootFolder');
  return e;
}

/** The sftp fields of a create payload; only the chosen sign-in method's secrets are sent. */
export function sftpCreatePayload(
  state: ConfigFormState,
): Omit<Extract<CreateStorageConfigInput, { storage_type: 'sftp' }>, 'name'> {
  const key = state.sftp_auth === 'key';
  return {
    storage_type: 'sftp',
    host: state.host.trim(),
    port: Number(state.port),
    username: state.username.trim(),
    password: key ? '' : state.password,
    private_key: key ? state.private_key.trim() : '',
    passphrase: key ? state.passphrase : '',
    host_key_sha256: state.host_key_sha256.trim(),
    root_folder: state.root_folder.trim(),
  };
}
