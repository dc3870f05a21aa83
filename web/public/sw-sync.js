// Loaded into the generated service worker (workbox `importScripts`). Background sync: when the browser
// fires the `sync-offline-queue` tag, the open pages are told to replay their offline queue (the queue and
// its sealed credentials live in the page's IndexedDB; with no page open it replays at the next visit).
/* global self */
const SYNC_TAG = 'sync-offline-queue';
let lastSyncAt = null;

self.addEventListener('sync', (event) => {
  if (event.tag !== SYNC_TAG) return;
  lastSyncAt = Date.now();
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
      for (const client of clients) client.postMessage({ type: SYNC_TAG });
    }),
  );
});

self.addEventListener('message', (event) => {
  const port = event.ports && event.ports[0];
  if (!port || !event.data) return;
  if (event.data.type === 'GET_SYNC_STATUS') {
    port.postMessage({ type: 'SYNC_STATUS', lastSyncAt, syncSupported: 'sync' in self.registration });
  }
});
