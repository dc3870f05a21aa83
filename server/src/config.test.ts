import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const defaults = { webDistDir: '/srv/web' };

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}, defaults);
    expect(config).toMatchObject({ port: 8787, host: '127.0.0.1', trustProxy: false, adminTokenTtlMs: 7 * 86_400_000 });
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.databaseUrl).toBe(`sqlite:${path.resolve('./data/clipnest.db')}`);
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '9000',
        HOST: '0.0.0.0',
        DATA_DIR: '/var/lib/clipnest',
        DATABASE_URL: 'postgres://u@db/clipnest',
        ENCRYPTION_KEY: 'k'.repeat(32),
        ADMIN_USERNAME: 'boss',
        ADMIN_PASSWORD: 'long-enough',
        ADMIN_TOKEN_TTL_DAYS: '1.5',
        PUBLIC_URL: 'https://paste.example.com/',
        TRUST_PROXY: 'true',
      },
      defaults,
    );
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/clipnest',
      databaseUrl: 'postgres://u@db/clipnest',
      adminUsername: 'boss',
      adminTokenTtlMs: 1.5 * 86_400_000,
      publicUrl: 'https://paste.example.com',
      trustProxy: true,
    });
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['ENCRYPTION_KEY', 'short'],
    ['ADMIN_PASSWORD', '123'],
    ['ADMIN_TOKEN_TTL_DAYS', '0'],
    ['PUBLIC_URL', 'not a url'],
    ['TRUST_PROXY', 'maybe'],
    ['ALLOW_PRIVATE_URLS', 'sometimes'],
    ['LOCAL_FSYNC', 'always'],
    ['LOCAL_SENDFILE', 'maybe'],
    ['UPLOAD_IDLE_TIMEOUT', '0'],
    ['DOWNLOAD_IDLE_TIMEOUT', 'soon'],
    ['REQUEST_TIMEOUT', '-5'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value }, defaults)).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value }, defaults)).toThrow(name);
  });

  it('reads the timeouts in seconds (uploads idle 60 s, downloads idle 300 s, other bodies 300 s in total)', () => {
    expect(loadConfig({}, defaults)).toMatchObject({
      uploadIdleTimeoutMs: 60_000,
      downloadIdleTimeoutMs: 300_000,
      requestTimeoutMs: 300_000,
    });
    expect(loadConfig({ UPLOAD_IDLE_TIMEOUT: '0.5', REQUEST_TIMEOUT: '10' }, defaults)).toMatchObject({
      uploadIdleTimeoutMs: 500,
      requestTimeoutMs: 10_000,
    });
  });

  it('keeps the SSRF guard on unless ALLOW_PRIVATE_URLS=true', () => {
    expect(loadConfig({}, defaults).allowPrivateUrls).toBe(false);
    expect(loadConfig({ ALLOW_PRIVATE_URLS: 'true' }, defaults).allowPrivateUrls).toBe(true);
    expect(loadConfig({ ALLOW_PRIVATE_URLS: 'false' }, defaults).allowPrivateUrls).toBe(false);
  });

  it('leaves fsync of local writes off unless LOCAL_FSYNC=true', () => {
    expect(loadConfig({}, defaults).localFsync).toBe(false);
    expect(loadConfig({ LOCAL_FSYNC: 'true' }, defaults).localFsync).toBe(true);
    expect(loadConfig({ LOCAL_FSYNC: '0' }, defaults).localFsync).toBe(false);
  });

  it('sends local files with sendfile unless LOCAL_SENDFILE=false', () => {
    expect(loadConfig({}, defaults).localSendfile).toBe(true);
    expect(loadConfig({ LOCAL_SENDFILE: 'false' }, defaults).localSendfile).toBe(false);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }, defaults).port).toBe(8787);
  });
});
