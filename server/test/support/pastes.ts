import type { CreatePasteInput, PasteCreated } from '@clipnest/contract';
import { createApiKey } from './apiKeys.js';
import type { TestServer } from './harness.js';

/** Creates an API key through the admin API and returns the key string. */
export async function createKey(server: TestServer, token: string, name: string, permissions: number): Promise<string> {
  return (await createApiKey(server, token, { name, permissions })).key;
}

export type Auth = { token: string } | { apiKey: string };

export async function createPaste(server: TestServer, auth: Auth, body: CreatePasteInput): Promise<PasteCreated> {
  const res = await server.call<PasteCreated>('POST', '/api/paste', { ...auth, body });
  if (res.status !== 201 || !res.body.data) throw new Error(`paste creation failed: ${res.status} ${res.body.message}`);
  return res.body.data;
}

/** GET /api/raw/{slug}: status, body text and headers (the body is not JSON on success). */
export async function fetchRaw(server: TestServer, slug: string, password?: string) {
  const query = password === undefined ? '' : `?password=${encodeURIComponent(password)}`;
  const res = await fetch(`${server.url}/api/raw/${encodeURIComponent(slug)}${query}`);
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** The day's paste_views counter, after writing the counts the stats service still holds in memory. */
export async function pasteViewsToday(server: TestServer): Promise<number> {
  await server.built.services.stats.flush();
  const day = server.clock.now().toISOString().slice(0, 10);
  const row = await server.built.database.db
    .selectFrom('daily_stats')
    .select('value')
    .where('day', '=', day)
    .where('metric', '=', 'paste_views')
    .executeTakeFirst();
  return Number(row?.value ?? 0);
}

/** A paste's views and view limit as stored, after writing the view counts the service still buffers. */
export async function pasteViewCount(server: TestServer, slug: string): Promise<{ views: number; max_views: number }> {
  await server.built.services.pastes.flushViews();
  return server.built.database.db
    .selectFrom('pastes')
    .select(['views', 'max_views'])
    .where('slug', '=', slug)
    .executeTakeFirstOrThrow();
}
