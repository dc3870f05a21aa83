import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, normalizeSiteConfig, parseSiteConfigCache, SITE_CONFIG_CACHE_MS } from './siteConfig';

describe('site config cache (spec §4: 24 hours)', () => {
  const data = { ...DEFAULT_SITE_CONFIG, site_title: 'My Paste' };
  const now = 2_000_000_000_000;

  it('uses a fresh cache', () => {
    const raw = JSON.stringify({ data, fetchedAt: now - 1000 });
    expect(parseSiteConfigCache(raw, now)?.data.site_title).toBe('My Paste');
  });
  it('ignores a cache older than 24 hours, garbage, or one from the future', () => {
    expect(parseSiteConfigCache(JSON.stringify({ data, fetchedAt: now - SITE_CONFIG_CACHE_MS - 1 }), now)).toBeNull();
    expect(parseSiteConfigCache('{not json', now)).toBeNull();
    expect(parseSiteConfigCache(null, now)).toBeNull();
    expect(parseSiteConfigCache(JSON.stringify({ data, fetchedAt: now + 3_600_000 }), now)).toBeNull();
  });
  it('fills defaults and falls back to "Clipnest" for an empty title', () => {
    expect(normalizeSiteConfig({ site_title: '  ' }).site_title).toBe('Clipnest');
    expect(normalizeSiteConfig(null)).toEqual(DEFAULT_SITE_CONFIG);
    expect(normalizeSiteConfig({ site_announcement_enabled: 'yes' }).site_announcement_enabled).toBe(false);
  });
});
