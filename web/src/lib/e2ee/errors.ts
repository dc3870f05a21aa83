/**
 * Why an encrypted share cannot be opened. The UI maps each code to a clear message and never shows
 * undecryptable bytes.
 * - missing_key: the link has no `#key` fragment (copied without it);
 * - bad_key: the fragment is not a 256-bit base64url key;
 * - password_required: the share needs its password too;
 * - wrong_key: authentication failed for the first record/paste: wrong key or wrong password;
 * - tampered: a later record failed, records are missing, reordered or truncated, or sizes disagree;
 * - unsupported: an unknown version/algorithm or out-of-range parameters.
 */
export type E2eeErrorCode = 'missing_key' | 'bad_key' | 'password_required' | 'wrong_key' | 'tampered' | 'unsupported';

export class E2eeError extends Error {
  override readonly name = 'E2eeError';
  constructor(
    readonly code: E2eeErrorCode,
    message: string = code,
  ) {
    super(message);
  }
}

export function isE2eeError(error: unknown): error is E2eeError {
  return error instanceof E2eeError;
}
