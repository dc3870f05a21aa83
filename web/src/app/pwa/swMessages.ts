// Messages to the service worker (spec §7 "Service worker messages"), each answered within 5 s or refused
// with the spec's timeout text.
import i18n from '../../lib/i18n';

export const SW_MESSAGE_TIMEOUT_MS = 5000;

export type SwState = 'unknown' | 'installing' | 'waiting' | 'active' | 'redundant';

/** The state of this page's service worker: the newest worker's state wins (installing → waiting → active). */
export async function serviceWorkerState(): Promise<SwState> {
  if (!('serviceWorker' in navigator)) return 'unknown';
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) return 'unknown';
  if (registration.installing) return 'installing';
  if (registration.waiting) return 'waiting';
  const state = registration.active?.state;
  if (state === 'activated' || state === 'activating') return 'active';
  if (state === 'redundant') return 'redundant';
  return 'unknown';
}

/** Sends a message to the active worker and waits for its answer on a MessageChannel. */
export function messageServiceWorker<T>(message: { type: string }, timeoutText = 'pwa.sw.statusTimeout'): Promise<T> {
  const worker = typeof navigator !== 'undefined' ? navigator.serviceWorker?.controller : null;
  if (!worker) return Promise.reject(new Error(i18n.t('pwa.sw.notActive')));
  return new Promise<T>((resolve, reject) => {
    const channel = new MessageChannel();
    const timer = setTimeout(
      () => reject(new Error(i18n.t(timeoutText as 'pwa.sw.statusTimeout'))),
      SW_MESSAGE_TIMEOUT_MS,
    );
    channel.port1.onmessage = (event: MessageEvent<T>) => {
      clearTimeout(timer);
      resolve(event.data);
    };
    worker.postMessage(message, [channel.port2]);
  });
}
