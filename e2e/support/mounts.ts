/** Local and S3 (s3rver) mounts for the explorer tests, arranged through the API and the disk. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { MountView, StorageConfigView } from '@clipnest/contract';
import { call } from './api';
import type { S3rver } from './s3rver';

async function ok<T>(method: string, url: string, token: string, body?: unknown): Promise<T> {
  const { status, envelope } = await call<T>(method, url, { token, body });
  if (status >= 300) throw new Error(`${method} ${url} → ${status}: ${envelope.message}`);
  return envelope.data as T;
}

/** A local storage config rooted in a fresh folder of the server's data dir, and its folder on disk. */
export async function localStorage(token: string, name: string): Promise<{ config: StorageConfigView; root: string }> {
  const root = path.join(process.env.CLIPNEST_E2E_DATA_DIR!, 'storage', `${name}-${Date.now().toString(36)}`);
  mkdirSync(root, { recursive: true });
  const config = await ok<StorageConfigView>('POST', '/s3-configs', token, {
    storage_type: 'local',
    name,
    root_path: root,
  });
  return { config, root };
}

export async function s3Storage(token: string, name: string, s3: S3rver): Promise<StorageConfigView> {
  return ok<StorageConfigView>('POST', '/s3-configs', token, {
    name,
    provider: 'other',
    endpoint: s3.endpoint,
    region: 'us-east-1',
    bucket: s3.bucket,
    access_key_id: 'S3RVER',
    secret_access_key: 'S3RVER',
    path_style: true,
  });
}

export async function mount(token: string, name: string, mountPath: string, configId: string): Promise<MountView> {
  return ok<MountView>('POST', '/mount/create', token, { name, path: mountPath, storage_config_id: configId });
}

export async function deleteMount(token: string, id: string): Promise<void> {
  await ok('DELETE', `/mount/${id}`, token);
}

/**
 * A mount at `mountPath` over a fresh local folder, unless one is already there. A key's base path must lie in
 * the mount tree (issue 35 point 16), so tests that give keys a base path make the mount first.
 */
export async function ensureMount(token: string, mountPath: string): Promise<void> {
  const list = await ok<{ items: MountView[] }>('GET', '/mount/list', token);
  if (list.items.some((m) => m.path === mountPath)) return;
  const { config } = await localStorage(token, `mount${mountPath.replace(/\W+/g, '-')}`);
  await mount(token, mountPath.slice(1) || 'root', mountPath, config.id);
}

export async function deleteAllMounts(token: string): Promise<void> {
  const list = await ok<{ items: MountView[] }>('GET', '/mount/list', token);
  for (const m of list.items) await ok('DELETE', `/mount/${m.id}`, token);
}

/** Files on disk under a local root: { 'a/b.txt': 'text' }. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}
