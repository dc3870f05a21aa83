import { MULTIPART_PART_SIZE } from '@clipnest/contract';
import type { StorageType } from '@clipnest/contract';
import { createFormUploader } from './formUploader';
import { createMultipartUploader } from './multipartUploader';
import { createPresignedUploader } from './presignedUploader';
import type { Uploader } from './types';

export * from './types';
export { createFormUploader } from './formUploader';
export { createMultipartUploader } from './multipartUploader';
export { createPresignedUploader } from './presignedUploader';
export { SpeedMeter } from './speed';
export { PROGRESS_INTERVAL_MS, throttleProgress, type ProgressThrottle } from './progressThrottle';
export { buildUploadForm, shareOptionEntries, slugForIndex } from './fields';

/** Files above this go in resumable parts (two parts or more). */
export const MULTIPART_THRESHOLD = 2 * MULTIPART_PART_SIZE;

/** What the chooser knows about the target storage (unknown for key holders: the server decides). */
export interface UploadTarget {
  storageType?: StorageType | null;
}

/**
 * Picks the uploader for a file: big files go in resumable multipart parts (straight to the bucket
 * on S3, through the server on local storage); small files go straight to the bucket with one
 * presigned PUT on S3, else as a plain form upload.
 */
export function chooseUploader(file: { size: number }, target: UploadTarget = {}): Uploader {
  if (file.size > MULTIPART_THRESHOLD) return createMultipartUploader();
  if (target.storageType === 's3') return createPresignedUploader();
  return createFormUploader();
}
