// How the local driver reports failures: fs and stream errors become StorageError codes.
import { isAbortError } from '../streams.js';
import { StorageError } from '../types.js';

/** Maps fs / stream errors to StorageError. */
export function mapFsError(err: unknown, path?: string): StorageError {
  if (err instanceof StorageError) return err;
  if (isAbortError(err)) return new StorageError('aborted', 'aborted', { path, cause: err });
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const make = (c: StorageError['code'], message: string) => new StorageError(c, message, { path, cause: err });
  switch (code) {
    case 'ENOENT':
      return make('not_found', 'not found');
    case 'EEXIST':
      return make('exists', 'already exists');
    case 'ENOTDIR':
      return make('not_a_directory', 'not a directory');
    case 'EISDIR':
      return make('is_a_directory', 'is a directory');
    case 'ENOTEMPTY':
      return make('not_empty', 'directory not empty');
    case 'ENOSPC':
    case 'EDQUOT':
      return make('quota', 'insufficient storage');
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return make('denied', 'permission denied by the file system');
    case 'ENAMETOOLONG':
      return make('invalid_path', 'name too long');
    default:
      return make('io', err instanceof Error ? err.message : String(err));
  }
}

/** For lookups: a path below a file does not exist (as on S3), rather than 'not a directory'. */
export function mapLookupError(err: unknown, path: string): StorageError {
  const mapped = mapFsError(err, path);
  return mapped.code === 'not_a_directory' ? new StorageError('not_found', 'not found', { path, cause: err }) : mapped;
}
