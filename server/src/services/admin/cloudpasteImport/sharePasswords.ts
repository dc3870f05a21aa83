import { LEGACY_SHA256_PREFIX, sha256Hex } from '../../../security/secrets.js';
import type { ImportContext } from './context.js';

/**
 * The password hash of an imported share. CloudPaste keeps an unsalted SHA-256 and, beside it, the plain
 * password: the plain copy is re-hashed with scrypt. Without a plain copy (or when it does not match) the
 * SHA-256 is kept as `sha256$<hex>`, checked once and replaced by scrypt on the first right password
 * (migration-only path, see security/secrets.ts).
 */
export async function importedPasswordHash(
  ctx: ImportContext,
  what: string,
  hash: string | null | undefined,
  plain: string | undefined,
): Promise<string | null> {
  if (!hash) return null;
  if (plain !== undefined && sha256Hex(plain) === hash) return ctx.hashPassword(plain);
  if (plain !== undefined) {
    ctx.report.warn(`${what}: its plain password copy does not match its hash; the hash is kept`);
  }
  ctx.report.warn(
    'protected shares without a plain password copy keep CloudPaste’s SHA-256, checked once and re-hashed on the first right password',
  );
  return `${LEGACY_SHA256_PREFIX}${hash}`;
}
