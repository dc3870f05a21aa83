/** Every localStorage key the web app uses (spec §9). */
export const StorageKeys = {
  adminToken: 'admin_token',
  apiKey: 'api_key',
  apiKeyPermissions: 'api_key_permissions',
  apiKeyInfo: 'api_key_info',
  themeMode: 'themeMode',
  language: 'language',
  apiBaseUrl: 'api_base_url',
  siteConfigCache: 'site_config_cache',
  announcementDismissed: 'announcement_dismissed',
  pwaInstallDismissed: 'pwa-install-dismissed',
  /** How many offline-queue items wait (mirrors IndexedDB so the shell knows without loading it). */
  offlineQueueCount: 'offline_queue_count',
} as const;

/** localStorage that never throws (private mode, disabled storage). */
export const safeStorage = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // Storage full or disabled: the app keeps working for this page view.
    }
  },
  remove(key: string): void {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // ignore
    }
  },
};
