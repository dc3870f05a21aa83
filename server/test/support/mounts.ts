import type { MountView, StorageConfigView } from '@clipnest/contract';
import path from 'node:path';
import { createApiKey } from './apiKeys.js';
import type { TestServer } from './harness.js';

/** Creates an API key with a base path; answers the key string. */
export async function createPathKey(
  server: TestServer,
  token: string,
  permissions: number,
  basicPath = '/',
): Promise<string> {
  const name = `key ${Math.random().toString(36).slice(2, 8)}`;
  return (await createApiKey(server, token, { name, permissions, basic_path: basicPath })).key;
}

/** Creates a mount through the API (admin). */
export async function createMount(
  server: TestServer,
  token: string,
  body: { name?: string; path: string; storage_config_id: string } & Record<string, unknown>,
): Promise<MountView> {
  const res = await server.call<MountView>('POST', '/api/mount/create', {
    token,
    body: { name: body.path.slice(1) || 'root', cache_ttl: 60, ...body },
  });
  if (res.status !== 201 || !res.body.data) throw new Error(`mount creation failed: ${res.status} ${res.body.message}`);
  return res.body.data;
}

/** The folder of the mountable local config (a sibling of the built-in share storage, never inside it). */
export function mountedLocalRoot(server: TestServer): string {
  return path.join(path.dirname(server.built.services.storageRegistry.localRoot), 'mounted');
}

/**
 * A local storage config with a folder of its own (`mountedLocalRoot`), for mounts: the built-in local
 * storage holds the file shares and cannot be mounted. Created once per server; answers its id.
 */
export async function mountableLocalConfig(server: TestServer, token: string): Promise<string> {
  const name = 'Mounted local';
  const list = await server.call<{ items: StorageConfigView[] }>('GET', '/api/s3-configs?limit=100', { token });
  const found = list.body.data?.items.find((c) => c.name === name);
  if (found) return found.id;
  const res = await server.call<StorageConfigView>('POST', '/api/s3-configs', {
    token,
    body: { name, storage_type: 'local', root_path: mountedLocalRoot(server) },
  });
  if (res.status !== 201 || !res.body.data) throw new Error(`local config failed: ${res.status} ${res.body.message}`);
  return res.body.data.id;
}
