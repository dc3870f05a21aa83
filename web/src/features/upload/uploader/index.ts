import { createFormUploader } from './formUploader';
import type { Uploader } from './types';

export * from './types';
export { createFormUploader } from './formUploader';
export { SpeedMeter } from './speed';
export { buildUploadForm, shareOptionEntries, slugForIndex } from './fields';

/** What the chooser knows about the target storage; presigned/multipart paths plug in here later. */
export interface UploadTarget {
  storageType?: 'local' | 's3' | null;
}

/** Picks the uploader for a file. Today every file goes through the server as a form upload. */
export function chooseUploader(_file: File, _target: UploadTarget = {}): Uploader {
  return createFormUploader();
}
