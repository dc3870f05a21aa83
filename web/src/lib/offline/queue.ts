// The offline queue (spec §4 Offline, §7 "Offline queue replay"): state-changing requests made without a
// network wait in IndexedDB (status pending), and are replayed in order once it returns — by the service
// worker's background sync (tag sync-offline-queue) or, without it, on the window's `online` event.
import { apiEnvelope, isApiError, type RequestAuth } from '../api';
import i18n from '../i18n';
import { authorizationHeader, getSession } from '../auth';
import { offlineDb, type QueuedRequest } from './db';
import { open, seal } from './secretBox';
import { setPendingCount } from './status';

export const SYNC_TAG = 'sync-offline-queue';

export type QueueType = QueuedRequest['type'];
export type QueueEvent =
  | { type: 'changed' }
  | { type: 'synced'; item: QueuedRequest; data: unknown }
  | { type: 'conflict'; item: QueuedRequest }
  | { type: 'sync-failed' };

const listeners = new Set<(event: QueueEvent) => void>();

export function onQueueEvent(listener: (event: QueueEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event: QueueEvent): void {
  if (event.type === 'changed') void mirrorCount();
  for (const listener of listeners) listener(event);
}

/** Items not yet synced (pending, refused or in conflict), mirrored for the shell's badge. */
async function mirrorCount(): Promise<void> {
  setPendingCount(await (await offlineDb()).count('offlineQueue'));
}

/** Thrown when the request was queued instead of sent; its message tells the user so. */
export class QueuedOffline extends Error {
  constructor(readonly item: QueuedRequest) {
    super(i18n.t('pwa.queuedChange'));
    this.name = 'QueuedOffline';
  }
}

function hasSecret(data: unknown): boolean {
  return (
    typeof data === 'object' &&
    data !== null &&
    'password' in data &&
    Boolean((data as { password?: unknown }).password)
  );
}

export async function enqueue(
  item: Pick<QueuedRequest, 'type' | 'endpoint' | 'method' | 'data'>,
  now = Date.now(),
): Promise<QueuedRequest> {
  const session = getSession();
  const header = authorizationHeader(session) ?? '';
  const sealed = hasSecret(item.data);
  const stored: QueuedRequest = {
    ...item,
    data: sealed ? await seal(JSON.stringify(item.data)) : item.data,
    sealed,
    authToken: header ? await seal(header) : '',
    authType: session.type === 'admin' ? 'bearer' : session.type === 'apikey' ? 'apikey' : 'none',
    timestamp: now,
    status: 'pending',
  };
  const db = await offlineDb();
  stored.id = await db.add('offlineQueue', stored);
  emit({ type: 'changed' });
  void registerBackgroundSync();
  return stored;
}

export async function listQueue(): Promise<QueuedRequest[]> {
  return (await offlineDb()).getAll('offlineQueue');
}

export async function removeQueued(id: number): Promise<void> {
  await (await offlineDb()).delete('offlineQueue', id);
  emit({ type: 'changed' });
}

/** A conflicting new paste goes again without its custom slug (the server picks one). */
export async function retryWithoutSlug(item: QueuedRequest): Promise<void> {
  const body = { ...((await queuedBody(item)) as Record<string, unknown>) };
  delete body.slug;
  const db = await offlineDb();
  const sealed = hasSecret(body);
  await db.put('offlineQueue', {
    ...item,
    data: sealed ? await seal(JSON.stringify(body)) : body,
    sealed,
    status: 'pending',
    error: undefined,
  });
  emit({ type: 'changed' });
  await replayQueue();
}

/** The body of a queued item as it will be sent (secrets unsealed), e.g. to show a conflicting paste. */
export async function queuedBody(item: QueuedRequest): Promise<unknown> {
  return item.sealed ? (JSON.parse(await open(item.data as string)) as unknown) : item.data;
}

async function authOf(item: QueuedRequest): Promise<RequestAuth> {
  if (!item.authToken) return 'none';
  const header = await open(item.authToken);
  if (header.startsWith('Bearer ')) return { bearer: header.slice(7) };
  return { apiKey: header.replace(/^ApiKey /, '') };
}

let replaying: Promise<void> | null = null;

/**
 * Replays pending items in order. A network failure stops the run (the rest stay pending); a conflict
 * (409, e.g. a slug taken meanwhile) or another refusal keeps the item with its reason, for the user to see.
 */
export function replayQueue(): Promise<void> {
  replaying ??= replayOnce().finally(() => {
    replaying = null;
  });
  return replaying;
}

async function replayOnce(): Promise<void> {
  const items = (await listQueue()).filter((i) => i.status === 'pending').sort((a, b) => a.id! - b.id!);
  const db = await offlineDb();
  for (const item of items) {
    try {
      const envelope = await apiEnvelope<unknown>(item.endpoint, {
        method: item.method,
        body: await queuedBody(item),
        auth: await authOf(item),
        handleAuthErrors: false,
      });
      await db.delete('offlineQueue', item.id!);
      emit({ type: 'synced', item, data: envelope.data });
    } catch (error) {
      if (isApiError(error) && error.status >= 400 && error.status < 500) {
        const status = error.status === 409 ? 'conflict' : 'failed';
        await db.put('offlineQueue', { ...item, status, error: error.message });
        if (status === 'conflict') emit({ type: 'conflict', item: { ...item, status, error: error.message } });
        continue;
      }
      emit({ type: 'sync-failed' });
      break;
    }
  }
  emit({ type: 'changed' });
}

/** Background sync where the browser has it; the `online` fallback is wired by the offline layer. */
export async function registerBackgroundSync(): Promise<boolean> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return false;
  const registration = await Promise.race([
    navigator.serviceWorker.ready,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
  ]);
  const sync = (
    registration as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | null
  )?.sync;
  if (!sync) return false;
  try {
    await sync.register(SYNC_TAG);
    return true;
  } catch {
    return false;
  }
}
