// FTP failures as StorageErrors: reply codes (RFC 959) and socket errors.
import { FTPError } from 'basic-ftp';
import { isAbortError } from '../streams.js';
import { StorageError, type StorageErrorCode } from '../types.js';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ERR_SOCKET_CLOSED',
]);

const CONNECTION_MESSAGE =
  /timeout|closed|closing connection|disconnected|socket|data connection|transfer strategies|ECONN|EPIPE/i;

const CERT_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The StorageError code of an FTP reply code. */
export function replyCode(code: number): StorageErrorCode {
  if (code === 530 || code === 532) return 'denied'; // not logged in / need an account
  if (code === 550) return 'not_found'; // file unavailable (missing; some servers: no permission)
  if (code === 552) return 'quota'; // exceeded storage allocation
  if (code === 421 || code === 425 || code === 426 || code === 450 || code === 451) return 'unavailable';
  if (code === 502 || code === 504) return 'unsupported';
  return 'io';
}

/** Maps whatever an FTP call threw to a StorageError. */
export function mapFtpError(err: unknown, path?: string): StorageError {
  if (err instanceof StorageError) return err;
  if (isAbortError(err)) return new StorageError('aborted', 'aborted', { path, cause: err });
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof FTPError) {
    return new StorageError(replyCode(err.code), `ftp server answered ${message}`, { path, cause: err });
  }
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (code === 'EACCES') return new StorageError('denied', message, { path, cause: err });
  if (CERT_CODES.has(code) || /certificate/i.test(message)) {
    return new StorageError('denied', `ftp server's TLS certificate refused: ${message}`, { path, cause: err });
  }
  // basic-ftp's own connection errors carry no code: "Server sent FIN packet unexpectedly, closing connection.",
  // "Control socket is disconnected…", "Timeout when trying to open data connection…".
  if (NETWORK_CODES.has(code) || CONNECTION_MESSAGE.test(message)) {
    return new StorageError('unavailable', `ftp server unreachable: ${message}`, { path, cause: err });
  }
  return new StorageError('io', `ftp: ${message}`, { path, cause: err });
}
