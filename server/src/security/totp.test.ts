import { describe, expect, it } from 'vitest';
import { looksLikeRecoveryCode, newRecoveryCode, recoveryCodeHash } from './recoveryCodes.js';
import { newTotpSecret, totpCodeAt, totpCodeStep, totpStepAt, totpUri } from './totp.js';

describe('TOTP codes', () => {
  const secret = newTotpSecret();
  const now = Date.parse('2026-11-28T06:00:10Z');

  it('accepts the code of this step and of the steps next to it, with their step', () => {
    for (const offset of [-30_000, 0, 30_000]) {
      expect(totpCodeStep(secret, totpCodeAt(secret, now + offset), now)).toBe(totpStepAt(now + offset));
    }
  });

  it('refuses codes two steps away, malformed codes and another secret', () => {
    expect(totpCodeStep(secret, totpCodeAt(secret, now - 60_000), now)).toBeNull();
    expect(totpCodeStep(secret, totpCodeAt(secret, now + 60_000), now)).toBeNull();
    expect(totpCodeStep(secret, 'abcdef', now)).toBeNull();
    expect(totpCodeStep(secret, '1234567', now)).toBeNull();
    expect(totpCodeStep(newTotpSecret(), totpCodeAt(secret, now), now)).toBeNull();
  });

  it('ignores spaces in a typed code', () => {
    const code = totpCodeAt(secret, now);
    expect(totpCodeStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, now)).toBe(totpStepAt(now));
  });

  it('makes an otpauth URI with issuer and account', () => {
    const uri = totpUri(secret, 'Clipnest', 'admin');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Clipnest:admin\?/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain('issuer=Clipnest');
  });
});

describe('recovery codes', () => {
  it('are distinct, readable, and hash the same however they are typed', () => {
    const codes = new Set(Array.from({ length: 50 }, newRecoveryCode));
    expect(codes.size).toBe(50);
    const code = [...codes][0]!;
    expect(code).toMatch(/^[2-9A-HJKMNP-TV-Z]{5}-[2-9A-HJKMNP-TV-Z]{5}$/);
    expect(recoveryCodeHash(code.toLowerCase().replace('-', ' '))).toBe(recoveryCodeHash(code));
    expect(looksLikeRecoveryCode(code)).toBe(true);
    expect(looksLikeRecoveryCode('123456')).toBe(false);
  });
});
