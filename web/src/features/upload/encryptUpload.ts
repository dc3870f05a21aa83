/**
 * End-to-end encryption of a file upload (docs/encryption.md). Loaded with `import()` only when the option is
 * on. Big files go through the resumable multipart flow with an encrypting source: each part is encrypted as
 * it is needed, in a Web Worker, while the parts before it upload, and freed once sent (memory stays flat);
 * an unfinished session keeps its encryption state so that a resume sends the same bytes. Small files are
 * encrypted whole for the form / presigned uploaders.
 */
import { E2EE_FILE_PLACEHOLDER_NAME, E2EE_FILE_PLACEHOLDER_TYPE } from '@clipnest/contract/e2ee';
import { uploadMimetype } from '@clipnest/contract';
import { encryptFile, resumeFileEncryption, type FileEncryption, type FileEncryptionState } from '../../lib/e2ee';
import { releaseSealed, sealInWorker } from '../../lib/e2ee/sealClient';
import { MULTIPART_THRESHOLD, type ShareOptions, type UploadSource } from '../../lib/uploader';
import { resumeKey, resumeStore } from '../../lib/uploader/resumeStore';
import { E2EE_SOURCE_KIND } from './useUploadQueue';

export interface EncryptedUpload {
  /** The file to hand the uploader: the picked one (with `source`) or the whole ciphertext. */
  file: File;
  source?: UploadSource;
  options: ShareOptions;
  /** The link key for the fragment. */
  key: string;
}

/**
 * The encryption of an unfinished session of this file, reused when the user resumes it (`resume`), or
 * when neither that session nor this upload has a password (nothing the user chose differs). Otherwise a new
 * key is made and the uploader starts that session over.
 */
async function savedEncryption(
  file: File,
  options: ShareOptions,
  e2ee: { password?: string; resume?: boolean },
): Promise<FileEncryption | null> {
  const record = await resumeStore().get(resumeKey(file, options.s3_config_id ?? '', E2EE_SOURCE_KIND));
  const state = record?.source?.state as FileEncryptionState | undefined;
  if (!state) return null;
  if (!e2ee.resume && (e2ee.password || state.encryption.kdf !== 'none')) return null;
  return resumeFileEncryption(file, state);
}

export async function encryptForUpload(
  file: File,
  name: string,
  options: ShareOptions,
  e2ee: { password?: string; resume?: boolean },
): Promise<EncryptedUpload> {
  const enc =
    (await savedEncryption(file, options, e2ee)) ??
    (await encryptFile(
      file,
      { name, type: uploadMimetype(name, file.type) },
      e2ee.password ? { password: e2ee.password } : {},
    ));
  // The password is part of the key and the remark would be readable: neither goes to the server.
  const { password: _password, remark: _remark, ...rest } = options;
  void _password;
  void _remark;
  const sealedOptions = { ...rest, encryption: JSON.stringify(enc.encryption) };
  if (enc.size > MULTIPART_THRESHOLD) {
    const source: UploadSource = {
      kind: E2EE_SOURCE_KIND,
      id: enc.state.head,
      size: enc.size,
      type: E2EE_FILE_PLACEHOLDER_TYPE,
      read: (start, end) => sealInWorker(enc.job, start, end),
      release: releaseSealed,
      state: enc.state,
    };
    return { file, source, options: sealedOptions, key: enc.key };
  }
  const bytes = await enc.read(0, enc.size);
  const sealed = new File([bytes], E2EE_FILE_PLACEHOLDER_NAME, { type: E2EE_FILE_PLACEHOLDER_TYPE });
  return { file: sealed, options: sealedOptions, key: enc.key };
}
