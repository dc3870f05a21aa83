import { describe, expect, it } from 'vitest';
import { buildDocumentTitle } from '../app/routeMeta';
import { authorizationHeader, AUTH_REVALIDATE_MS, needsRevalidation } from './auth';
import { hashString } from './hash';
import { detectLanguage } from './language';
import { nextThemeMode, resolveTheme } from './theme';

describe('language (spec §1)', () => {
  it('uses the saved choice first', () => {
    expect(detectLanguage('en', 'zh-CN')).toBe('en');
    expect(detectLanguage('zh-CN', 'en-US')).toBe('zh-CN');
  });
  it('else the browser: zh* → zh-CN, anything else → en', () => {
    expect(detectLanguage(null, 'zh-TW')).toBe('zh-CN');
    expect(detectLanguage(null, 'zh')).toBe('zh-CN');
    expect(detectLanguage(null, 'ZH-hk')).toBe('zh-CN');
    expect(detectLanguage(null, 'en-GB')).toBe('en');
    expect(detectLanguage('fr', 'de-DE')).toBe('en');
  });
  it('falls back to zh-CN without any hint', () => {
    expect(detectLanguage(null, undefined)).toBe('zh-CN');
    expect(detectLanguage(undefined, '')).toBe('zh-CN');
  });
});

describe('theme (spec §1)', () => {
  it('cycles auto → light → dark → auto', () => {
    expect(nextThemeMode('auto')).toBe('light');
    expect(nextThemeMode('light')).toBe('dark');
    expect(nextThemeMode('dark')).toBe('auto');
  });
  it('auto follows the system', () => {
    expect(resolveTheme('auto', true)).toBe('dark');
    expect(resolveTheme('auto', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });
});

describe('auth session helpers (spec §4, §6)', () => {
  it('revalidates when never validated or older than 5 minutes', () => {
    const now = 1_000_000_000;
    expect(needsRevalidation(null, now)).toBe(true);
    expect(needsRevalidation(now - AUTH_REVALIDATE_MS + 1, now)).toBe(false);
    expect(needsRevalidation(now - AUTH_REVALIDATE_MS - 1, now)).toBe(true);
    expect(AUTH_REVALIDATE_MS).toBe(300_000);
  });
  it('builds the Authorization header', () => {
    expect(authorizationHeader({ type: 'admin', token: 'abc' })).toBe('Bearer abc');
    expect(authorizationHeader({ type: 'apikey', apiKey: 'k1', permissions: 1, keyInfo: null })).toBe('ApiKey k1');
    expect(authorizationHeader({ type: 'none' })).toBeNull();
  });
});

describe('shell helpers', () => {
  it('document title is "{subtitle} - {site title}"', () => {
    expect(buildDocumentTitle('Upload files', 'My Paste')).toBe('Upload files - My Paste');
    expect(buildDocumentTitle(null, 'My Paste')).toBe('My Paste');
  });
  it('hashes announcements stably', () => {
    expect(hashString('hello')).toBe(hashString('hello'));
    expect(hashString('hello')).not.toBe(hashString('hello!'));
    expect(hashString('')).toMatch(/^[0-9a-f]{8}$/);
  });
});
