/**
 * Registers the service worker (`/sw.js`, built by vite-plugin-pwa in prompt mode) and reports a new version once
 * it is installed and waiting, with the call that lets it take over (the worker skips waiting on `SKIP_WAITING`).
 * The few browser calls workbox-window made for this, without its 2 KB on every cold page.
 */
export function watchServiceWorkerUpdates(onWaiting: (activate: () => void) => void): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const offer = (worker: ServiceWorker | null) => {
    // The very first install has nothing to replace: only a worker that comes after a controlling one is an update.
    if (worker && navigator.serviceWorker.controller) onWaiting(() => worker.postMessage({ type: 'SKIP_WAITING' }));
  };
  navigator.serviceWorker
    .register('/sw.js', { scope: '/' })
    .then((registration) => {
      offer(registration.waiting);
      registration.addEventListener('updatefound', () => {
        const installing = registration.installing;
        installing?.addEventListener('statechange', () => {
          if (installing.state === 'installed') offer(installing);
        });
      });
    })
    .catch(() => undefined);
}
