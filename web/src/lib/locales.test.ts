import { API_ERROR_KINDS } from '@clipnest/contract/errors';
import { describe, expect, it } from 'vitest';
import { ERROR_REASONS } from './apiErrors';
import { en, zhCN } from '../locales/resources';

function flatten(value: unknown, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof child === 'string') out[path] = child;
    else Object.assign(out, flatten(child, path));
  }
  return out;
}

const enFlat = flatten(en);
const zhFlat = flatten(zhCN);

describe('locales', () => {
  it('zh-CN and en have exactly the same keys', () => {
    expect(Object.keys(zhFlat).sort()).toEqual(Object.keys(enFlat).sort());
  });

  it('no translation is empty and placeholders match', () => {
    const placeholders = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
    for (const [key, text] of Object.entries(enFlat)) {
      expect(text.trim(), key).not.toBe('');
      expect(zhFlat[key]?.trim(), key).not.toBe('');
      expect(placeholders(zhFlat[key] ?? ''), key).toEqual(placeholders(text));
    }
  });

  it('has a zh-CN and an en text for every error kind of the contract and every reason the UI words', () => {
    for (const kind of API_ERROR_KINDS) {
      for (const flat of [enFlat, zhFlat]) expect(flat[`errors.kinds.${kind}`]?.trim(), kind).toBeTruthy();
      // Chinese is Chinese, not an English sentence left over.
      expect(zhFlat[`errors.kinds.${kind}`], kind).toMatch(/[\u4e00-\u9fff]/);
    }
    for (const reason of ERROR_REASONS) {
      expect(enFlat[`errors.reasons.${reason}`], reason).toBeTruthy();
      expect(zhFlat[`errors.reasons.${reason}`], reason).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('carries every error text of spec §8 in both languages', () => {
    const expected: Record<string, string> = {
      'errors.wrongPassword': 'Wrong password',
      'errors.verificationFailed': 'Verification failed',
      'errors.adminSessionExpired': 'Admin session expired, please log in again',
      'errors.apiKeyInvalid': 'API key invalid or expired',
      'errors.unauthorized': 'Unauthorized, please log in',
      'errors.authFailed': 'Authentication failed, please log in again',
      'errors.slugTaken': 'The link suffix is taken, try another suffix',
      'errors.http': 'HTTP error {{status}}: {{statusText}}',
      'errors.aborted': 'Request cancelled or timed out',
      'errors.timeout': 'Request timed out, the server took too long',
      'errors.network': 'Network connection failed, check network settings',
      'errors.presignFailed': 'Failed to get presigned URL: {{message}}',
      'login.errors.missingToken': 'Missing token in login response',
      'login.errors.adminTokenVerificationFailed': 'Admin token verification failed',
      'login.errors.apiKeyVerificationFailed': 'API key verification failed',
      'errors.upload.noEtag': 'No ETag obtained',
      'errors.offline.wentOffline': 'You are offline, some features may be limited',
    };
    for (const [key, text] of Object.entries(expected)) {
      expect(enFlat[key], key).toBe(text);
      expect(zhFlat[key], key).toBeTruthy();
    }
  });
});
