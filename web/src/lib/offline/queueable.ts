// The seam for the state-changing calls of spec §7 "Offline queue replay": sent as usual, and queued
// (QueuedOffline thrown, its message saying so) when no answer arrives. The queue loads only then.
import { isApiError } from '../api';
import type { QueuedRequest } from './db';

export type QueueableRequest = Pick<QueuedRequest, 'type' | 'endpoint' | 'method' | 'data'>;

export async function queueable<T>(request: QueueableRequest, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!isApiError(error) || error.transport !== 'network') throw error;
    const queue = await import('./queue');
    throw new queue.QueuedOffline(await queue.enqueue(request));
  }
}
