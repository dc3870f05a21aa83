/**
 * Public site settings (title, favicon, footer, announcement, custom code) used by the shell.
 * Cached in localStorage for 24 hours (spec §4, §9) so the first paint needs no request, and revalidated on
 * every page load (the server answers an ETag, so an unchanged config costs a 304): a changed title, footer or
 * announcement reaches returning visitors on their next load. The site settings page calls
 * `refreshSiteConfig()` after saving so every open view updates at once.
 */
import type { SiteSettings } from '@clipnest/contract';
import { SITE_DEFAULTS as DEFAULT_SETTINGS } from '@clipnest/contract/site-defaults';
import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import { queryClient } from './queryClient';
import { safeStorage, StorageKeys } from './storageKeys';

export const SITE_CONFIG_CACHE_MS = 24 * 60 * 60 * 1000;
export const SITE_CONFIG_QUERY_KEY = ['site-config'] as const;

export const DEFAULT_SITE_CONFIG: SiteSettings = {
  site_title: DEFAULT_SETTINGS.site_title,
  site_favicon_url: DEFAULT_SETTINGS.site_favicon_url,
  site_footer_markdown: DEFAULT_SETTINGS.site_footer_markdown,
  site_custom_head: DEFAULT_SETTINGS.site_custom_head,
  site_custom_body: DEFAULT_SETTINGS.site_custom_body,
  site_announcement_enabled: DEFAULT_SETTINGS.site_announcement_enabled,
  site_announcement_content: DEFAULT_SETTINGS.site_announcement_content,
};

interface CacheEntry {
  data: SiteSettings;
  fetchedAt: number;
}

/** Fills gaps from defaults and ignores fields of the wrong type. */
export function normalizeSiteConfig(value: unknown): SiteSettings {
  const input = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const str = (key: keyof SiteSettings, fallback: string) =>
    typeof input[key] === 'string' ? (input[key] as string) : fallback;
  return {
    site_title: str('site_title', DEFAULT_SITE_CONFIG.site_title).trim() || DEFAULT_SITE_CONFIG.site_title,
    site_favicon_url: str('site_favicon_url', DEFAULT_SITE_CONFIG.site_favicon_url),
    site_footer_markdown: str('site_footer_markdown', DEFAULT_SITE_CONFIG.site_footer_markdown),
    site_custom_head: str('site_custom_head', ''),
    site_custom_body: str('site_custom_body', ''),
    site_announcement_enabled: input.site_announcement_enabled === true,
    site_announcement_content: str('site_announcement_content', ''),
  };
}

/** The cached config if it is younger than 24 hours. */
export function parseSiteConfigCache(raw: string | null, now: number): CacheEntry | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<CacheEntry>;
    if (typeof parsed.fetchedAt !== 'number' || now - parsed.fetchedAt > SITE_CONFIG_CACHE_MS) return null;
    if (parsed.fetchedAt > now + 60_000) return null;
    return { data: normalizeSiteConfig(parsed.data), fetchedAt: parsed.fetchedAt };
  } catch {
    return null;
  }
}

function readCache(): CacheEntry | null {
  return parseSiteConfigCache(safeStorage.get(StorageKeys.siteConfigCache), Date.now());
}

export async function fetchSiteConfig(): Promise<SiteSettings> {
  const data = normalizeSiteConfig(await api.get<unknown>('/public/site-settings', { auth: 'none' }));
  safeStorage.set(StorageKeys.siteConfigCache, JSON.stringify({ data, fetchedAt: Date.now() } satisfies CacheEntry));
  return data;
}

/** The site config: from the 24 h cache when fresh, else fetched; defaults while loading or on failure. */
export function useSiteConfig(): SiteSettings {
  const cached = readCache();
  const query = useQuery({
    queryKey: SITE_CONFIG_QUERY_KEY,
    queryFn: fetchSiteConfig,
    initialData: cached?.data,
    initialDataUpdatedAt: cached?.fetchedAt,
    staleTime: SITE_CONFIG_CACHE_MS,
    gcTime: Infinity,
    retry: 1,
    meta: { silent: true },
  });
  return query.data ?? DEFAULT_SITE_CONFIG;
}

/**
 * The settings the server wrote into this page (`<meta name="clipnest-site-settings">`, server
 * http/siteSettingsHead.ts): current as of this load, so no request is needed. A page the service worker served
 * from its precache has none.
 */
function servedSiteConfig(): SiteSettings | null {
  const content = document.querySelector<HTMLMetaElement>('meta[name="clipnest-site-settings"]')?.content;
  if (!content) return null;
  try {
    return normalizeSiteConfig(JSON.parse(content));
  } catch {
    return null;
  }
}

/**
 * Called once per page load (main.tsx). With settings written into the page (see above) nothing is asked. Always asks the server (a 304 while nothing changed). With a cached
 * copy the first render uses it at once and the answer replaces it when it differs; without one the first
 * render waits for the answer (main.tsx bounds the wait), so it does not render the defaults and then everything
 * that shows the config again. Never rejects: on failure `useSiteConfig` keeps the copy or the defaults.
 */
export function prefetchSiteConfig(): Promise<void> {
  const served = servedSiteConfig();
  if (served) {
    queryClient.setQueryData(SITE_CONFIG_QUERY_KEY, served);
    safeStorage.set(
      StorageKeys.siteConfigCache,
      JSON.stringify({ data: served, fetchedAt: Date.now() } satisfies CacheEntry),
    );
    return Promise.resolve();
  }
  const cached = readCache();
  if (cached) queryClient.setQueryData(SITE_CONFIG_QUERY_KEY, cached.data, { updatedAt: cached.fetchedAt });
  const revalidated = queryClient
    .fetchQuery({
      queryKey: SITE_CONFIG_QUERY_KEY,
      queryFn: fetchSiteConfig,
      staleTime: 0,
      retry: 1,
      meta: { silent: true },
    })
    .then(
      () => undefined,
      () => undefined,
    );
  return cached ? Promise.resolve() : revalidated;
}

/** Re-reads the site config from the server, bypassing the 24 h cache. Call after saving site settings. */
export async function refreshSiteConfig(): Promise<SiteSettings> {
  safeStorage.remove(StorageKeys.siteConfigCache);
  return queryClient.fetchQuery({ queryKey: SITE_CONFIG_QUERY_KEY, queryFn: fetchSiteConfig, staleTime: 0 });
}
