// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from './queryClient';
import { DEFAULT_SITE_CONFIG, prefetchSiteConfig, SITE_CONFIG_QUERY_KEY } from './siteConfig';
import { StorageKeys } from './storageKeys';

function answer(data: unknown) {
  return new Response(JSON.stringify({ code: 200, message: 'success', data, success: true }), {
    headers: { 'content-type': 'application/json' },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  queryClient.clear();
});

describe('site config revalidation (issue 35 point 13)', () => {
  it('a returning visitor with a fresh cached copy renders it at once, and the load asks the server anyway', async () => {
    const old = { ...DEFAULT_SITE_CONFIG, site_title: 'Old title', site_footer_markdown: 'old footer' };
    localStorage.setItem(StorageKeys.siteConfigCache, JSON.stringify({ data: old, fetchedAt: Date.now() - 60_000 }));
    let release: (r: Response) => void = () => undefined;
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (release = resolve)));
    vi.stubGlobal('fetch', fetch);

    await prefetchSiteConfig();
    // The first render does not wait for the network: the cached copy is there.
    expect(queryClient.getQueryData(SITE_CONFIG_QUERY_KEY)).toMatchObject({ site_title: 'Old title' });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String((fetch.mock.calls[0] as unknown[])[0])).toMatch(/\/api\/public\/site-settings$/);

    release(answer({ ...old, site_title: 'New title', site_footer_markdown: 'new footer' }));
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(SITE_CONFIG_QUERY_KEY)).toMatchObject({
        site_title: 'New title',
        site_footer_markdown: 'new footer',
      }),
    );
    expect(JSON.parse(localStorage.getItem(StorageKeys.siteConfigCache) ?? '{}').data.site_title).toBe('New title');
  });

  it('keeps the cached copy when the server cannot be reached', async () => {
    const old = { ...DEFAULT_SITE_CONFIG, site_title: 'Kept' };
    localStorage.setItem(StorageKeys.siteConfigCache, JSON.stringify({ data: old, fetchedAt: Date.now() }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    await prefetchSiteConfig();
    await new Promise((r) => setTimeout(r, 20));
    expect(queryClient.getQueryData(SITE_CONFIG_QUERY_KEY)).toMatchObject({ site_title: 'Kept' });
  });

  it('without a cached copy, the first render waits for the answer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer({ ...DEFAULT_SITE_CONFIG, site_title: 'Fetched' })),
    );
    await prefetchSiteConfig();
    expect(queryClient.getQueryData(SITE_CONFIG_QUERY_KEY)).toMatchObject({ site_title: 'Fetched' });
  });

  it('a page the server wrote the settings into renders with them and asks nothing (a cold load, issue 36)', async () => {
    const old = { ...DEFAULT_SITE_CONFIG, site_title: 'Cached title' };
    localStorage.setItem(StorageKeys.siteConfigCache, JSON.stringify({ data: old, fetchedAt: Date.now() }));
    const meta = document.createElement('meta');
    meta.name = 'clipnest-site-settings';
    meta.content = JSON.stringify({ ...DEFAULT_SITE_CONFIG, site_title: 'Served title' });
    document.head.append(meta);
    const fetch = vi.fn(async () => answer(null));
    vi.stubGlobal('fetch', fetch);
    try {
      await prefetchSiteConfig();
      expect(queryClient.getQueryData(SITE_CONFIG_QUERY_KEY)).toMatchObject({ site_title: 'Served title' });
      expect(fetch).not.toHaveBeenCalled();
      expect(JSON.parse(localStorage.getItem(StorageKeys.siteConfigCache) ?? '{}').data.site_title).toBe(
        'Served title',
      );
    } finally {
      meta.remove();
    }
  });
});
