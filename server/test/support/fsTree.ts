// A tree with a local mount (/local, a local config of its own) and an S3 mount (/s3, s3rver) for the fs
// task, zip and search tests; files are put and read through the server's own Vfs as the admin.
import type { StorageConfigView, TaskView } from '@clipnest/contract';
import type { AdminPrincipal } from '../../src/auth/principal.js';
import { createS3Config, type S3rverHandle } from './fileShares.js';
import type { TestServer } from './harness.js';
import { createMount, mountableLocalConfig } from './mounts.js';

export const SYSTEM_ADMIN: AdminPrincipal = {
  type: 'admin',
  adminId: 'test-admin',
  username: 'admin',
  tokenHash: '',
  expiresAt: '',
};

/** Mounts /local and /s3 (cache_ttl 0); answers their ids. */
export async function mountBoth(server: TestServer, token: string, s3: S3rverHandle, s3Config?: StorageConfigView) {
  const config = s3Config ?? (await createS3Config(server, token, s3));
  const local = await createMount(server, token, {
    path: '/local',
    storage_config_id: await mountableLocalConfig(server, token),
    cache_ttl: 0,
  });
  const remote = await createMount(server, token, { path: '/s3', storage_config_id: config.id, cache_ttl: 0 });
  return { localId: local.id, s3Id: remote.id, s3Config: config };
}

export async function putFile(server: TestServer, path: string, bytes: Uint8Array | string): Promise<void> {
  const body = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  await server.built.services.vfs.write(SYSTEM_ADMIN, path, new Blob([body as Uint8Array<ArrayBuffer>]).stream());
}

export async function readFile(server: TestServer, path: string): Promise<Buffer> {
  const { result } = await server.built.services.vfs.read(SYSTEM_ADMIN, path);
  return Buffer.from(await new Response(result.stream).arrayBuffer());
}

export async function fileExists(server: TestServer, path: string): Promise<boolean> {
  try {
    await server.built.services.vfs.stat(SYSTEM_ADMIN, path);
    return true;
  } catch {
    return false;
  }
}

/** Polls a task until it stops running (no timing assertion: the test's own timeout bounds it). */
export async function waitForTask(server: TestServer, token: string, id: string): Promise<TaskView> {
  for (;;) {
    const res = await server.call<TaskView>('GET', `/api/fs/tasks/${id}`, { token });
    if (res.status !== 200 || !res.body.data) throw new Error(`task ${id}: ${res.status} ${res.body.message}`);
    if (!['pending', 'running'].includes(res.body.data.status)) return res.body.data;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
