import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession, type Session } from './auth';

export function useSession(): Session {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
