import { AppError } from '../errors.js';
import { isStorageError } from '../storage/types.js';

/** Maps a driver's StorageError to the AppError a client sees; anything else passes through. */
export function storageToAppError(error: unknown, what = 'file'): unknown {
  if (!isStorageError(error)) return error;
  switch (error.code) {
    case 'not_found':
      return AppError.notFound(`the ${what} no longer exists in its storage`);
    case 'exists':
      return AppError.conflict(`the ${what} already exists in the storage`);
    case 'invalid_path':
      return AppError.validation(`invalid path: ${error.message}`);
    case 'range':
      return new AppError('RANGE_NOT_SATISFIABLE', 'requested range not satisfiable');
    case 'too_large':
      return new AppError('PAYLOAD_TOO_LARGE', 'file exceeds the maximum upload size');
    case 'quota':
      return new AppError('PAYLOAD_TOO_LARGE', 'insufficient storage: the storage backend is full');
    case 'size_mismatch':
      return AppError.validation('the uploaded size does not match the declared size');
    case 'aborted':
      return AppError.validation('upload aborted');
    case 'unsupported':
      return new AppError('UNAVAILABLE', `the storage does not support this operation: ${error.message}`);
    case 'denied':
      return new AppError('UNAVAILABLE', `the storage refused the credentials: ${error.message}`);
    case 'unavailable':
      return new AppError('UNAVAILABLE', `the storage is unavailable: ${error.message}`);
    default:
      return new AppError('INTERNAL', `storage error: ${error.message}`);
  }
}
