import { randomInt } from 'node:crypto';
import { sha256Hex } from './secrets.js';

/** Crockford-like alphabet without 0/O, 1/I/L, U: easy to read off paper and type. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `xxxxx-xxxxx`: 10 characters of 30, about 49 bits, enough for a single-use code checked through the limiter. */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What is hashed: upper case, without spaces and dashes, so `abcde fghij` matches `ABCDE-FGHIJ`. */
export function normaliseRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

/** Whether a typed code could be a recovery code at all (else it is taken for a TOTP code). */
export function looksLikeRecoveryCode(code: string): boolean {
  return /^[A-Z0-9]{10}$/.test(normaliseRecoveryCode(code)) && !/^\d+$/.test(normaliseRecoveryCode(code));
}

/** Stored instead of the code; random codes of this length need no slow hash. */
export function recoveryCodeHash(code: string): string {
  return sha256Hex(`recovery\u0000${normaliseRecoveryCode(code)}`);
}
