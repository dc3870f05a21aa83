/**
 * CloudPaste 1.x stores storage secrets as `encrypted:<A>:<B>`: B is base64 of the plain value, A an
 * HMAC-SHA256 of it keyed with its ENCRYPTION_SECRET (not checked by CloudPaste itself when it reads the
 * value back, and not needed here). The plain value is recovered from B and re-encrypted with our
 * SecretCipher by the caller. A value without the prefix is taken as plain (older rows).
 */
const ENCRYPTED = /^encrypted:([A-Za-z0-9+/=]*):([A-Za-z0-9+/=]*)$/;

/** The plain secret, or undefined when the value looks encrypted but cannot be decoded. */
export function decodeCloudpasteSecret(value: string): string | undefined {
  if (!value.startsWith('encrypted:')) return value;
  const match = ENCRYPTED.exec(value);
  if (!match) return undefined;
  const body = match[2] ?? '';
  const bytes = Buffer.from(body, 'base64');
  // Round-trip check: Buffer.from ignores junk, so a value that does not re-encode was not base64.
  if (bytes.toString('base64').replace(/=+$/, '') !== body.replace(/=+$/, '')) return undefined;
  const plain = bytes.toString('utf8');
  return Buffer.from(plain, 'utf8').equals(bytes) ? plain : undefined;
}
