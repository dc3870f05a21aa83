/** Direct API calls for test setup (the UI under test is never used to arrange state). */
import { ALL_PERMISSIONS, Permission, type ApiEnvelope, type ApiKeyView } from '@clipnest/contract';
import { BASE_URL, E2E_ADMIN } from './env';
import { ensureMount } from './mounts';

type Envelope<T> = ApiEnvelope<T>;
export type KeyView = ApiKeyView;

export async function call<T>(method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${BASE_URL}/api${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const envelope = (await response.json()) as Envelope<T>;
  return { status: response.status, envelope };
}

async function expectOk<T>(method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const { status, envelope } = await call<T>(method, path, options);
  if (status >= 300) throw new Error(`${method} ${path} → ${status}: ${envelope.message}`);
  return envelope.data as T;
}

export async function adminToken(): Promise<string> {
  const data = await expectOk<{ token: string }>('POST', '/admin/login', { body: E2E_ADMIN });
  return data.token;
}

export async function revokeToken(token: string): Promise<void> {
  await expectOk('POST', '/admin/logout', { token });
}

export async function createKey(
  token: string,
  body: { name: string; permissions: number; [key: string]: unknown },
): Promise<KeyView> {
  return expectOk<KeyView>('POST', '/admin/api-keys', { token, body });
}

export async function listKeys(token: string): Promise<KeyView[]> {
  return expectOk<KeyView[]>('GET', '/admin/api-keys', { token });
}

export async function deleteKey(token: string, id: string): Promise<void> {
  await expectOk('DELETE', `/admin/api-keys/${encodeURIComponent(id)}`, { token });
}

export async function deleteAllKeys(token: string): Promise<void> {
  for (const key of await listKeys(token)) await deleteKey(token, key.id);
}

/** Replaces every key with three that show each status (enabled, never expiring with a base path, disabled guest). */
export async function seedSampleKeys(
  token: string,
  photos = { name: 'photo-backup', basic_path: '/photos' },
): Promise<void> {
  await deleteAllKeys(token);
  // The base path must lie in the mount tree (issue 35 point 16).
  await ensureMount(token, `/${photos.basic_path.split('/')[1]}`);
  await createKey(token, { name: 'ci-deploy', permissions: Perm.TEXT | Perm.FILE_SHARE, expires_in_days: 30 });
  await createKey(token, {
    ...photos,
    permissions: Perm.MOUNT_VIEW | Perm.MOUNT_UPLOAD | Perm.MOUNT_COPY | Perm.WEBDAV_READ,
    expires_at: null,
  });
  await createKey(token, { name: 'guest-viewer', permissions: Perm.TEXT, is_guest: 1, enabled: false });
}

let counter = 0;
/** A key name unique within the run. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

export const Perm = { ...Permission, ALL: ALL_PERMISSIONS } as const;
