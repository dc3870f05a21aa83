import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** AES-256-GCM for secrets at rest. Format: `v1:iv:tag:ciphertext` (base64url). */
export class SecretCipher {
  private readonly key: Buffer;

  constructor(secret: string) {
    // Any sufficiently long secret works; SHA-256 stretches it to a 256-bit key.
    this.key = createHash('sha256').update(secret, 'utf8').digest();
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
      ':',
    );
  }

  /** Throws when the value was not produced by this key (wrong key or tampering). */
  decrypt(value: string): string {
    const [version, ivText, tagText, bodyText] = value.split(':');
    if (version !== 'v1' || ivText === undefined || tagText === undefined || bodyText === undefined) {
      throw new Error('unknown ciphertext format');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(ivText, 'base64url'));
    decipher.setAuthTag(Buffer.from(tagText, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(bodyText, 'base64url')), decipher.final()]).toString('utf8');
  }
}
