/**
 * End-to-end encryption of a file before upload (docs/encryption.md). Loaded with `import()` only when the
 * option is on. The ciphertext goes through the ordinary uploaders (form, presigned, multipart) as a Blob.
 */
import { E2EE_FILE_PLACEHOLDER_NAME, E2EE_FILE_PLACEHOLDER_TYPE } from '@clipnest/contract/e2ee';
import { uploadMimetype } from '@clipnest/contract';
import { encryptFileToBlob } from '../../lib/e2ee';
import type { ShareOptions } from '../../lib/uploader';

export async function encryptForUpload(
  file: File,
  name: string,
  options: ShareOptions,
  password: string | undefined,
  onProgress: (done: number, total: number) => void,
  signal: AbortSignal,
): Promise<{ file: File; options: ShareOptions; key: string }> {
  const enc = await encryptFileToBlob(
    file,
    { name, type: uploadMimetype(name, file.type) },
    { ...(password ? { password } : {}), onProgress, signal },
  );
  const sealed = new File([enc.blob], E2EE_FILE_PLACEHOLDER_NAME, { type: E2EE_FILE_PLACEHOLDER_TYPE });
  // The password is part of the key and the remark would be readable: neither goes to the server.
  const { password: _password, remark: _remark, ...rest } = options;
  void _password;
  void _remark;
  return { file: sealed, options: { ...rest, encryption: JSON.stringify(enc.encryption) }, key: enc.key };
}
