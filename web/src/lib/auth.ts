/**
 * The auth session (spec §3, §4, §6): persisted in localStorage under admin_token, api_key,
 * api_key_permissions and api_key_info; every change emits `auth-state-changed` on window.
 */
import type { ApiKeyInfo } from '@clipnest/contract';
import { safeStorage, StorageKeys } from './storageKeys';

export const AUTH_REVALIDATE_MS = 5 * 60 * 1000;
export const AUTH_EVENTS = {
  changed: 'auth-state-changed',
  adminTokenExpired: 'admin-token-expired',
  apiKeyInvalid: 'api-key-invalid',
} as const;

export type Session =
  | { type: 'none' }
  | { type: 'admin'; token: string }
  | { type: 'apikey'; apiKey: string; permissions: number; keyInfo: ApiKeyInfo | null };

export type LogoutCause = 'user' | 'admin-token-expired' | 'api-key-invalid';

const NONE: Session = { type: 'none' };

function parseJson(raw: string | null): unknown {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

/** Reads the session from storage. An admin token wins over a key (only one is ever stored). */
export function readSession(): Session {
  const token = safeStorage.get(StorageKeys.adminToken);
  if (token) return { type: 'admin', token };
  const apiKey = safeStorage.get(StorageKeys.apiKey);
  if (apiKey) {
    const permissions = Number(safeStorage.get(StorageKeys.apiKeyPermissions) ?? '0');
    const info = parseJson(safeStorage.get(StorageKeys.apiKeyInfo));
    return {
      type: 'apikey',
      apiKey,
      permissions: Number.isFinite(permissions) ? permissions : 0,
      keyInfo: info && typeof info === 'object' ? (info as ApiKeyInfo) : null,
    };
  }
  return NONE;
}

let current: Session = typeof window === 'undefined' ? NONE : readSession();
let lastValidatedAt: number | null = null;
let lastLogoutCause: LogoutCause | null = null;
let lastLogoutMessage: string | null = null;
const listeners = new Set<() => void>();

function sameSession(a: Session, b: Session): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function emit(extraEvent?: string): void {
  const next = readSession();
  if (!sameSession(next, current)) current = next;
  for (const listener of listeners) listener();
  if (typeof window !== 'undefined') {
    window.dispatchEvent(new CustomEvent(AUTH_EVENTS.changed, { detail: { type: current.type } }));
    if (extraEvent) window.dispatchEvent(new CustomEvent(extraEvent));
  }
}

export function getSession(): Session {
  return current;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Another tab logged in or out: follow it. */
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    const watched: string[] = [
      StorageKeys.adminToken,
      StorageKeys.apiKey,
      StorageKeys.apiKeyPermissions,
      StorageKeys.apiKeyInfo,
    ];
    if (event.key !== null && !watched.includes(event.key)) return;
    const next = readSession();
    if (sameSession(next, current)) return;
    current = next;
    lastValidatedAt = null;
    for (const listener of listeners) listener();
  });
}

function clearStoredCredentials(): void {
  safeStorage.remove(StorageKeys.adminToken);
  safeStorage.remove(StorageKeys.apiKey);
  safeStorage.remove(StorageKeys.apiKeyPermissions);
  safeStorage.remove(StorageKeys.apiKeyInfo);
}

export function saveAdminSession(token: string): void {
  clearStoredCredentials();
  safeStorage.set(StorageKeys.adminToken, token);
  lastValidatedAt = Date.now();
  lastLogoutCause = null;
  lastLogoutMessage = null;
  emit();
}

export function saveApiKeySession(apiKey: string, permissions: number, keyInfo: ApiKeyInfo | null): void {
  clearStoredCredentials();
  safeStorage.set(StorageKeys.apiKey, apiKey);
  safeStorage.set(StorageKeys.apiKeyPermissions, String(permissions));
  safeStorage.set(StorageKeys.apiKeyInfo, JSON.stringify(keyInfo));
  lastValidatedAt = Date.now();
  lastLogoutCause = null;
  lastLogoutMessage = null;
  emit();
}

/** Updates what a revalidation learnt about the key (permissions may have changed). */
export function updateApiKeyDetails(permissions: number, keyInfo: ApiKeyInfo | null): void {
  if (current.type !== 'apikey') return;
  safeStorage.set(StorageKeys.apiKeyPermissions, String(permissions));
  safeStorage.set(StorageKeys.apiKeyInfo, JSON.stringify(keyInfo));
  emit();
}

/** Clears every credential and returns to "none" (spec §4). `message` is shown on the login page. */
export function logout(cause: LogoutCause = 'user', message?: string): void {
  const wasLoggedIn = current.type !== 'none' || safeStorage.get(StorageKeys.adminToken) !== null;
  clearStoredCredentials();
  // Explorer folders listed under this session leave the offline database with it.
  void import('./offline/cache').then((m) => m.clearPrivateCaches()).catch(() => undefined);
  lastValidatedAt = null;
  lastLogoutCause = cause;
  lastLogoutMessage = message ?? null;
  if (!wasLoggedIn && current.type === 'none') return;
  const extra =
    cause === 'admin-token-expired'
      ? AUTH_EVENTS.adminTokenExpired
      : cause === 'api-key-invalid'
        ? AUTH_EVENTS.apiKeyInvalid
        : undefined;
  emit(extra);
}

export function markValidated(at = Date.now()): void {
  lastValidatedAt = at;
}

export function getLastValidatedAt(): number | null {
  return lastValidatedAt;
}

/** Spec §4: revalidate when never validated or older than 5 minutes. */
export function needsRevalidation(validatedAt: number | null, now: number): boolean {
  return validatedAt === null || now - validatedAt > AUTH_REVALIDATE_MS;
}

/** The notice the login page shows after a forced logout; read once. */
export function takeLogoutNotice(): { cause: LogoutCause; message: string | null } | null {
  if (!lastLogoutCause || lastLogoutCause === 'user') return null;
  const notice = { cause: lastLogoutCause, message: lastLogoutMessage };
  return notice;
}

export function clearLogoutNotice(): void {
  lastLogoutCause = null;
  lastLogoutMessage = null;
}

/** The Authorization header value for a session (spec §6). */
export function authorizationHeader(session: Session): string | null {
  if (session.type === 'admin') return `Bearer ${session.token}`;
  if (session.type === 'apikey') return `ApiKey ${session.apiKey}`;
  return null;
}
