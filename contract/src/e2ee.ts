/**
 * End-to-end encryption format constants (docs/encryption.md). Free of zod, like limits.ts: the web's
 * lazily loaded crypto code (web/src/lib/e2ee) reads them through `@clipnest/contract/e2ee`.
 *
 * The server never sees a key: it stores the ciphertext and the public parameters below (`encryption`
 * of a paste or file share) and hands them back; only browsers holding the link's fragment can decrypt.
 */

export const E2EE_VERSION = 1;
export const E2EE_ALGORITHM = 'AES-256-GCM';
export const E2EE_KDFS = ['none', 'PBKDF2-SHA-256'] as const;
export type E2eeKdf = (typeof E2EE_KDFS)[number];

/** PBKDF2-HMAC-SHA-256 iterations for a share password (OWASP 2023 recommendation). */
export const E2EE_PBKDF2_ITERATIONS = 600_000;
/** Bounds a client accepts for `iterations` (a server cannot force a trivially cheap or a hanging derivation). */
export const E2EE_PBKDF2_MIN_ITERATIONS = 100_000;
export const E2EE_PBKDF2_MAX_ITERATIONS = 10_000_000;

/** Bytes of the link key, the HKDF salt, the paste IV and the file nonce prefix. */
export const E2EE_KEY_BYTES = 32;
export const E2EE_SALT_BYTES = 16;
export const E2EE_IV_BYTES = 12;
export const E2EE_NONCE_PREFIX_BYTES = 8;
export const E2EE_TAG_BYTES = 16;

/** Plaintext bytes per file record; every record but the last holds exactly this many. */
export const E2EE_CHUNK_SIZE = 64 * 1024;
/** Magic of an encrypted file object: ASCII "CNF1". */
export const E2EE_FILE_MAGIC = 'CNF1';

/** HKDF-SHA-256 `info` strings and the paste AAD (UTF-8). */
export const E2EE_PASTE_INFO = 'clipnest-e2ee-v1 paste key';
export const E2EE_FILE_INFO = 'clipnest-e2ee-v1 file key';
export const E2EE_PASTE_AAD = 'clipnest-e2ee-v1 paste';

/** Record flags, the last byte of a file record's AAD. */
export const E2EE_FLAG_DATA = 0;
export const E2EE_FLAG_LAST = 1;
export const E2EE_FLAG_HEADER = 2;

/** What the server stores and serves for an encrypted paste or file (all binary values base64url, no padding). */
export interface E2eeParams {
  v: 1;
  alg: 'AES-256-GCM';
  /** 'paste': content is base64url(AES-GCM(...)); 'file': the object is a CNF1 stream. */
  kind: 'paste' | 'file';
  kdf: E2eeKdf;
  /** PBKDF2 iterations when kdf is PBKDF2-SHA-256, else 0. */
  iterations: number;
  /** 16 bytes: HKDF salt, and PBKDF2 salt when a password is used. */
  salt: string;
  /** Paste only: the 12-byte AES-GCM IV. */
  iv?: string;
  /** File only: plaintext bytes per record (65536). */
  chunk_size?: number;
}

/** Stored in place of the file name / mimetype of an encrypted file share (the real ones are in the header). */
export const E2EE_FILE_PLACEHOLDER_NAME = 'encrypted.bin';
export const E2EE_FILE_PLACEHOLDER_TYPE = 'application/octet-stream';

/** Size of the encrypted object for a plaintext of `size` bytes and an encrypted header of `headerBytes`. */
export function e2eeCiphertextSize(size: number, headerCiphertextBytes: number): number {
  const records = Math.max(1, Math.ceil(size / E2EE_CHUNK_SIZE));
  return 4 + E2EE_NONCE_PREFIX_BYTES + 4 + headerCiphertextBytes + size + records * E2EE_TAG_BYTES;
}
