import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const ENCRYPTION_KEY_FILE = 'encryption.key';

/** The key from the environment, else the one generated into DATA_DIR on first start. */
export function resolveEncryptionKey(
  dataDir: string,
  fromEnv: string | undefined,
): { key: string; generated: boolean } {
  if (fromEnv) return { key: fromEnv, generated: false };
  const file = path.join(dataDir, ENCRYPTION_KEY_FILE);
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    if (key.length < 16) throw new Error(`${file} is damaged: it holds no usable key`);
    return { key, generated: false };
  }
  const key = randomBytes(32).toString('base64url');
  // 'wx' fails if another process created it in the meantime, instead of overwriting its key.
  writeFileSync(file, key + '\n', { mode: 0o600, flag: 'wx' });
  return { key, generated: true };
}
