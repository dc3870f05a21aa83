/**
 * End-to-end encryption of pastes and file shares (docs/encryption.md). Import this module lazily
 * (`import('../lib/e2ee')`) so routes that never meet an encrypted share do not load it.
 */
export { toBase64Url, fromBase64Url } from './base64url';
export { E2eeError, isE2eeError, type E2eeErrorCode } from './errors';
export { parseLinkKey } from './keys';
export { decryptPaste, encryptPaste, pasteNeedsPassword, type EncryptedPaste, type PastePlaintext } from './paste';
export {
  createFileDecryptor,
  encryptFile,
  resumeFileEncryption,
  type FileDecryptor,
  type FileEncryption,
  type FileEncryptionState,
  type FileHeader,
} from './file';
