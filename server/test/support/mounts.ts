import type { MountView } from '@clipnest/contract';
import type { TestServer } from './harness.js';

/** Creates an API key with a base path; answers the key string. */
export async function createPathKey(
  server: TestServer,
  token: string,
  permissions: number,
  basicPath = '/',
): Promise<string> {
  const res = await server.call<{ key: string }>('POST', '/api/admin/api-keys', {
    token,
    body: { name: `key ${Math.random().toString(36).slice(2, 8)}`, permissions, basic_path: basicPath },
  });
  if (res.status !== 201 || !res.body.data) throw new Error(`key creation failed: ${res.status} ${res.body.message}`);
  return res.body.data.key;
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
