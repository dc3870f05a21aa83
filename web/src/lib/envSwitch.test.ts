// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { normalizeServerUrl, readEnvState, switchServer, wantsEnvSwitcher } from './envSwitch';
import { StorageKeys } from './storageKeys';

afterEach(() => localStorage.clear());

describe('environment switcher (spec §1, issue 35 point 20)', () => {
  it('shows only when the address has ?showEnvSwitcher', () => {
    expect(wantsEnvSwitcher('?showEnvSwitcher')).toBe(true);
    expect(wantsEnvSwitcher('?a=1&showEnvSwitcher=1')).toBe(true);
    expect(wantsEnvSwitcher('')).toBe(false);
    expect(wantsEnvSwitcher('?showEnvSwitcher=false')).toBe(false);
    expect(wantsEnvSwitcher('?showenvswitcher')).toBe(false);
  });

  it('accepts absolute http(s) server URLs only', () => {
    expect(normalizeServerUrl(' https://paste.example.com/ ')).toBe('https://paste.example.com');
    expect(normalizeServerUrl('http://10.0.0.2:8787/base//')).toBe('http://10.0.0.2:8787/base');
    for (const bad of ['', 'paste.example.com', 'javascript:alert(1)', 'ftp://x', 'https://x/?a=1', 'https://u:p@x'])
      expect(normalizeServerUrl(bad), bad).toBeNull();
  });

  it('switching ends the session (never sends it to another server) and saves the choice; back removes it', () => {
    localStorage.setItem(StorageKeys.adminToken, 'tok');
    localStorage.setItem(StorageKeys.siteConfigCache, '{}');
    switchServer('https://other.example.com');
    expect(localStorage.getItem(StorageKeys.apiBaseUrl)).toBe('https://other.example.com');
    expect(localStorage.getItem(StorageKeys.adminToken)).toBeNull();
    expect(localStorage.getItem(StorageKeys.siteConfigCache)).toBeNull();
    expect(readEnvState().saved).toBe('https://other.example.com');
    switchServer(null);
    expect(localStorage.getItem(StorageKeys.apiBaseUrl)).toBeNull();
    expect(readEnvState()).toMatchObject({ saved: null, runtime: null, origin: window.location.origin });
  });
});
