/**
 * The environment switcher (spec §1, §2 "Shell"): which server the app talks to. The API base URL comes from
 * the runtime config (the hosting page; it always wins), else a saved choice (`api_base_url`), else this page's
 * origin (lib/api.ts getApiBaseUrl). The switcher shows only with `?showEnvSwitcher` in the address, for the
 * admin, and also while another server is chosen, so the way back is never behind a login on that server.
 */
import { logout } from './auth';
import { runtimeConfig } from './runtimeConfig';
import { safeStorage, StorageKeys } from './storageKeys';

export const ENV_SWITCHER_PARAM = 'showEnvSwitcher';

/** Whether the address asks for the switcher (`?showEnvSwitcher`, with or without a value, except "0"/"false"). */
export function wantsEnvSwitcher(search: string): boolean {
  const params = new URLSearchParams(search);
  if (!params.has(ENV_SWITCHER_PARAM)) return false;
  const value = (params.get(ENV_SWITCHER_PARAM) ?? '').trim().toLowerCase();
  return value !== '0' && value !== 'false';
}

/** An absolute http(s) URL of a server (no query or fragment), without trailing slashes; null if not one. */
export function normalizeServerUrl(input: string): string | null {
  const text = input.trim();
  if (!/^https?:\/\//i.test(text)) return null;
  try {
    const url = new URL(text);
    if (url.search || url.hash || url.username || url.password) return null;
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

export interface EnvState {
  /** Set by the hosting page: the switcher cannot change it. */
  runtime: string | null;
  /** Saved by the switcher: another server than this page's. */
  saved: string | null;
  /** This page's own server. */
  origin: string;
}

export function readEnvState(): EnvState {
  return {
    runtime: runtimeConfig.apiBaseUrl ? runtimeConfig.apiBaseUrl.replace(/\/+$/, '') : null,
    saved: normalizeServerUrl(safeStorage.get(StorageKeys.apiBaseUrl) ?? ''),
    origin: typeof window === 'undefined' ? '' : window.location.origin,
  };
}

/**
 * Points the app at `server` (null: this page's own server). The session is ended first: a token or key
 * belongs to the server it was made on and is never sent to another. The site config cache goes too.
 * The caller reloads the page so every request starts from the new server.
 */
export function switchServer(server: string | null): void {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  logout('user');
  safeStorage.remove(StorageKeys.siteConfigCache);
  if (server === null || server === origin) safeStorage.remove(StorageKeys.apiBaseUrl);
  else safeStorage.set(StorageKeys.apiBaseUrl, server);
}
