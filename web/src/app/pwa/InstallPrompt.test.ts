import { afterEach, describe, expect, it, vi } from 'vitest';

const store = new Map<string, string>();
vi.stubGlobal('window', {
  localStorage: {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  },
  addEventListener: () => undefined,
});

const { dismissedRecently, INSTALL_DISMISS_MS } = await import('./InstallPrompt');

describe('install prompt dismissal', () => {
  afterEach(() => store.clear());

  it('hides the prompt for 7 days after "not now" (pwa-install-dismissed)', () => {
    const now = Date.now();
    expect(dismissedRecently(now)).toBe(false);
    store.set('pwa-install-dismissed', String(now - 1000));
    expect(dismissedRecently(now)).toBe(true);
    store.set('pwa-install-dismissed', String(now - INSTALL_DISMISS_MS - 1));
    expect(dismissedRecently(now)).toBe(false);
    store.set('pwa-install-dismissed', 'garbage');
    expect(dismissedRecently(now)).toBe(false);
  });
});
