import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_S = 30;
const DIGITS = 6;

/** A new 160-bit secret, base32 (what authenticator apps take typed in). */
export function newTotpSecret(): string {
  return new Secret({ buffer: randomBytes(20).buffer }).base32;
}

/** The `otpauth://totp/…` URI a QR code carries. */
export function totpUri(secret: string, issuer: string, account: string): string {
  return new TOTP({
    issuer,
    label: account,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_S,
  }).toString();
}

/** The 30-second step a time falls in. */
export function totpStepAt(nowMs: number): number {
  return Math.floor(nowMs / 1000 / PERIOD_S);
}

/**
 * The step of `code` when it is the code of the step `nowMs` falls in or of the one before or after (clock drift);
 * null otherwise. The caller refuses a step it has already accepted (a code is never accepted twice).
 */
export function totpCodeStep(secret: string, code: string, nowMs: number): number | null {
  const token = code.replace(/[\s-]/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = TOTP.validate({
    token,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_S,
    timestamp: nowMs,
    window: 1,
  });
  return delta === null ? null : totpStepAt(nowMs) + delta;
}

/** The code of a step (tests, and nothing else: the server never needs to make a code). */
export function totpCodeAt(secret: string, nowMs: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, period: PERIOD_S }).generate({
    timestamp: nowMs,
  });
}
