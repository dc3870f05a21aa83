import type { ApiKeyView, CreateApiKeyInput } from '@clipnest/contract';
import type { TestServer } from './harness.js';

/** Creates an API key through the admin API (refusals throw) and answers it with its key string. */
export async function createApiKey(server: TestServer, token: string, body: CreateApiKeyInput): Promise<ApiKeyView> {
  const res = await server.call<ApiKeyView>('POST', '/api/admin/api-keys', { token, body });
  if (res.status !== 201 || !res.body.data) throw new Error(`key creation failed: ${res.status} ${res.body.message}`);
  return res.body.data;
}
