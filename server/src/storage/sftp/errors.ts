// What an ssh2 / SFTP failure means for the app: SFTP status codes, socket errors and SSH levels to StorageError.
import { StorageError, type StorageErrorCode } from '../types.js';

/** SFTP status codes (draft-ietf-secsh-filexfer-02). */
export const SFTP_STATUS = {
  EOF: 1,
  NO_SUCH_FILE: 2,
  PERMISSION_DENIED: 3,
  FAILURE: 4,
  OP_UNSUPPORTED: 8,
} as const;

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

export function mapSftpError(err: unknown, path?: string): StorageError {
  if (err instanceof StorageError) return err;
  const e = err as { code?: unknown; level?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(err);
  let code: StorageErrorCode = 'io';
  if (e?.code === SFTP_STATUS.NO_SUCH_FILE) code = 'not_found';
  else if (e?.code === SFTP_STATUS.PERMISSION_DENIED) code = 'denied';
  else if (e?.code === SFTP_STATUS.OP_UNSUPPORTED) code = 'unsupported';
  else if (e?.code === 'EACCES')
    code = 'denied'; // the endpoint guard refused the address
  else if (e?.level === 'client-authentication') code = 'denied';
  else if (typeof e?.code === 'string' && NETWORK_CODES.has(e.code)) code = 'unavailable';
  else if (e?.level === 'client-timeout' || e?.level === 'client-socket' || e?.level === 'protocol')
    code = 'unavailable';
  else if (/no response from server|not connected|channel (open )?fail|timed out|connection lost/i.test(message)) {
    code = 'unavailable';
  }
  return new StorageError(code, `sftp: ${message}`, { ...(path !== undefined ? { path } : {}), cause: err });
}
