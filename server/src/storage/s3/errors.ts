// How the S3 driver reports failures: SDK and network errors become StorageError codes.
import { isAbortError } from '../streams.js';
import { StorageError } from '../types.js';

interface S3ErrorLike {
  name?: string;
  code?: string;
  Code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

/** Maps SDK / network errors to StorageError. */
export function mapS3Error(err: unknown, path?: string): StorageError {
  if (err instanceof StorageError) return err;
  if (isAbortError(err)) return new StorageError('aborted', 'aborted', { path, cause: err });
  const e = (err ?? {}) as S3ErrorLike;
  const name = e.name ?? e.Code ?? '';
  const status = e.$metadata?.httpStatusCode;
  const message = e.message && e.message !== 'UnknownError' ? e.message : name || `HTTP ${status ?? '?'}`;
  const make = (code: StorageError['code'], text = message) => new StorageError(code, text, { path, cause: err });
  switch (name) {
    case 'NoSuchKey':
    case 'NotFound':
    case 'NoSuchUpload':
      return make('not_found', name === 'NoSuchUpload' ? 'no such upload' : 'not found');
    case 'NoSuchBucket':
      return make('unavailable', 'the bucket does not exist');
    case 'InvalidRange':
      return make('range');
    case 'InvalidPart':
    case 'InvalidPartOrder':
    case 'EntityTooSmall':
      return make('invalid_part');
    case 'EntityTooLarge':
      return make('too_large');
    case 'AccessDenied':
    case 'InvalidAccessKeyId':
    case 'SignatureDoesNotMatch':
    case 'AuthorizationHeaderMalformed':
    case 'InvalidToken':
    case 'ExpiredToken':
      return make('denied');
    case 'NotImplemented':
    case 'MethodNotAllowed':
      return make('unsupported');
    case 'TimeoutError':
    case 'RequestTimeout':
    case 'SlowDown':
    case 'ServiceUnavailable':
    case 'InternalError':
      return make('unavailable');
  }
  const code = e.code ?? '';
  if (['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE'].includes(code)) {
    return make('unavailable', `storage unreachable: ${code}`);
  }
  if (status === 404) return make('not_found', 'not found');
  if (status === 416) return make('range');
  if (status === 403 || status === 401) return make('denied');
  if (status === 405 || status === 501) return make('unsupported');
  if (status !== undefined && status >= 500) return make('unavailable');
  return make('io');
}
