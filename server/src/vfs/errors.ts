import type { ErrorKind } from '@clipnest/contract';
import { AppError } from '../errors.js';
import { isStorageError, type StorageErrorCode } from '../storage/types.js';

/**
 * The one map from a driver's StorageError code to the AppError kind (and so the HTTP status, contract
 * ErrorStatus) a client sees; the fs API, file shares and WebDAV all use it. Each status agrees with its
 * comment, and the message says what happened.
 */
const KINDS: Record<StorageErrorCode, { kind: ErrorKind; message: (what: string, detail: string) => string }> = {
  // 404: the path (or multipart upload) does not exist.
  not_found: { kind: 'NOT_FOUND', message: (what) => `the ${what} does not exist in its storage` },
  // 409: the target exists and overwriting was not asked for.
  exists: { kind: 'CONFLICT', message: (what) => `the ${what} already exists in the storage` },
  // 409: a folder was expected where there is a file.
  not_a_directory: { kind: 'CONFLICT', message: (_w, d) => `a file is in the way where a folder is expected: ${d}` },
  // 409: a file was expected where there is a folder.
  is_a_directory: { kind: 'CONFLICT', message: (_w, d) => `this is a folder, a file was expected: ${d}` },
  // 409: a non-recursive delete of a folder that has content.
  not_empty: { kind: 'CONFLICT', message: (_w, d) => `the folder is not empty: ${d}` },
  // 400: the path itself is refused (`..`, encoded dots, reserved names, too long).
  invalid_path: { kind: 'VALIDATION', message: (_w, d) => d },
  // 416: an unsatisfiable byte range.
  range: { kind: 'RANGE_NOT_SATISFIABLE', message: () => 'requested range not satisfiable' },
  // 507: the backing store is full (ENOSPC / EDQUOT): WebDAV's and HTTP's "insufficient storage".
  quota: { kind: 'INSUFFICIENT_STORAGE', message: () => 'insufficient storage: the storage backend is full' },
  // 413: a capacity the app enforces (the storage config's total capacity) would be passed.
  quota_exceeded: { kind: 'QUOTA_EXCEEDED', message: (_w, d) => `insufficient storage: ${d}` },
  // 413: the body passed the size limit while streaming.
  too_large: { kind: 'PAYLOAD_TOO_LARGE', message: () => 'file exceeds the maximum upload size' },
  // 400: the body carried another number of bytes than declared.
  size_mismatch: { kind: 'VALIDATION', message: () => 'the uploaded size does not match the declared size' },
  // 400: multipart complete with a missing part or a wrong ETag.
  invalid_part: { kind: 'VALIDATION', message: (_w, d) => `invalid multipart parts: ${d}` },
  // 412: a precondition (If-Match / If-None-Match) failed.
  precondition: { kind: 'PRECONDITION_FAILED', message: (_w, d) => `precondition failed: ${d}` },
  // 423: the path is locked.
  locked: { kind: 'LOCKED', message: (_w, d) => `the resource is locked: ${d}` },
  // 501: the backend lacks the operation.
  unsupported: { kind: 'NOT_IMPLEMENTED', message: (_w, d) => `the storage does not support this operation: ${d}` },
  // 502: the backend refused our credentials: our upstream failed us (a configuration problem for the admin),
  // not the caller's lack of rights, so not 403.
  denied: { kind: 'BAD_GATEWAY', message: (_w, d) => `the storage refused the configured credentials: ${d}` },
  // 400: the caller cancelled (the request body was aborted).
  aborted: { kind: 'VALIDATION', message: () => 'upload aborted' },
  // 503: the backend is unreachable, timed out, answered 5xx or lacks its bucket.
  unavailable: { kind: 'UNAVAILABLE', message: (_w, d) => `the storage is unavailable: ${d}` },
  // 500: anything else.
  io: { kind: 'INTERNAL', message: (_w, d) => `storage error: ${d}` },
};

/** The HTTP status a StorageError code answers (for WebDAV's own replies). */
export function storageErrorKind(code: StorageErrorCode): ErrorKind {
  return KINDS[code].kind;
}

/** Maps a driver's StorageError to the AppError a client sees; anything else passes through. */
export function storageToAppError(error: unknown, what = 'file'): unknown {
  if (!isStorageError(error)) return error;
  const entry = KINDS[error.code] ?? KINDS.io;
  return new AppError(entry.kind, entry.message(what, error.message));
}
