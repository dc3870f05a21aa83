import { describe, expect, it } from 'vitest';
import { nextcloudClientName } from './nextcloudClient.js';

describe('nextcloudClientName names the app asking to sign in', () => {
  it('names the Nextcloud and ownCloud desktop clients with their version and system', () => {
    expect(
      nextcloudClientName(
        'Mozilla/5.0 (Linux) mirall/3.7.3 (Nextcloud, debian-6.1.0-13-amd64 ClientArchitecture: x86_64 OsArchitecture: x86_64)',
      ),
    ).toBe('Nextcloud (desktop 3.7.3, Linux)');
    expect(nextcloudClientName('Mozilla/5.0 (Windows) mirall/5.2.0 (ownCloud, windows-10.0)')).toBe(
      'ownCloud (desktop 5.2.0, Windows)',
    );
  });

  it('names the phone apps', () => {
    expect(nextcloudClientName('Mozilla/5.0 (Android) Nextcloud-android/3.26.0')).toBe('Nextcloud (Android 3.26.0)');
    expect(nextcloudClientName('Mozilla/5.0 (iOS) Nextcloud-iOS/4.9.2')).toBe('Nextcloud (iOS 4.9.2)');
  });

  it('falls back to the browser, then the agent cut short, then "unknown app"', () => {
    expect(nextcloudClientName('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(
      'Firefox 128, Linux',
    );
    expect(nextcloudClientName(`my-sync-tool/1.0 ${'x'.repeat(80)}`)).toHaveLength(48);
    expect(nextcloudClientName('')).toBe('unknown app');
    expect(nextcloudClientName(undefined)).toBe('unknown app');
  });
});
