import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import type { ApiEnvelope, FileView, StorageConfigView } from '@clipnest/contract';
import type { TestServer } from './harness.js';
import { startS3rver as startS3Emulator, type S3Emulator } from './s3Emulator.js';

export interface S3rverHandle {
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

/** s3rver on 127.0.0.1 with one bucket (the driver helper's emulator launcher). */
export async function startS3rver(bucket = 'clipnest-files'): Promise<S3rverHandle> {
  const emulator = await startS3Emulator({ bucket });
  return { endpoint: emulator.endpoint, bucket: emulator.bucket, close: () => emulator.stop() };
}

/** Creates an S3 config pointing at s3rver. */
export async function createS3Config(
  server: TestServer,
  token: string,
  s3: S3rverHandle,
  extra: Record<string, unknown> = {},
): Promise<StorageConfigView> {
  const res = await server.call<StorageConfigView>('POST', '/api/s3-configs', {
    token,
    body: {
      name: `s3rver ${Math.random().toString(36).slice(2, 8)}`,
      provider: 'minio',
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      region: 'us-east-1',
      access_key_id: 'S3RVER',
      secret_access_key: 'S3RVER',
      path_style: true,
      ...extra,
    },
  });
  if (res.status !== 201 || !res.body.data) throw new Error(`create config failed: ${res.status} ${res.body.message}`);
  return res.body.data;
}

/** Creates an S3 config (provider other, path style) pointing at an emulator from ./s3Emulator.js, named after it. */
export async function createEmulatorConfig(
  server: TestServer,
  token: string,
  emulator: S3Emulator,
): Promise<StorageConfigView> {
  const res = await server.call<StorageConfigView>('POST', '/api/s3-configs', {
    token,
    body: {
      name: emulator.name,
      provider: 'other',
      endpoint: emulator.endpoint,
      bucket: emulator.bucket,
      region: emulator.region,
      access_key_id: emulator.accessKeyId,
      secret_access_key: emulator.secretAccessKey,
      path_style: true,
    },
  });
  if (res.status !== 201 || !res.body.data) throw new Error(`create config failed: ${res.status} ${res.body.message}`);
  return res.body.data;
}

export interface UploadOptions {
  token?: string;
  apiKey?: string;
  fields?: Record<string, string>;
  /** Fields sent after the file part (as curl -F file=@x -F …, ShareX and most scripts do). */
  after?: Record<string, string>;
  filename?: string;
  type?: string;
  headers?: Record<string, string>;
}

/** POST /api/upload with FormData (`fields`, then the file, then `after`). */
export async function upload(
  server: TestServer,
  content: string | Uint8Array,
  options: UploadOptions = {},
): Promise<{ status: number; body: ApiEnvelope<FileView> }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(options.fields ?? {})) form.append(k, v);
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  form.append(
    'file',
    new Blob([bytes as Uint8Array<ArrayBuffer>], { type: options.type ?? 'application/octet-stream' }),
    options.filename ?? 'hello.txt',
  );
  for (const [k, v] of Object.entries(options.after ?? {})) form.append(k, v);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers.authorization = `ApiKey ${options.apiKey}`;
  const res = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as ApiEnvelope<FileView> };
  } catch {
    throw new Error(`upload answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
  }
}

/** Raw GET (no JSON parsing) for content endpoints. */
export async function rawGet(server: TestServer, urlPath: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + urlPath, { headers, redirect: 'manual' });
  const body = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, text: new TextDecoder().decode(body) };
}

/** Every row of files / storage_configs, for "nothing changed" assertions. */
export async function countFiles(server: TestServer): Promise<number> {
  const rows = await server.built.database.db.selectFrom('files').select('id').execute();
  return rows.length;
}

/** Every file below a directory (recursively), relative paths, for "no object left" assertions. */
export function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(dir, e.name), r);
      else out.push(r);
    }
  };
  walk(root, '');
  return out.sort();
}

/** Root of the built-in local storage of a test server. */
export function localRoot(server: TestServer): string {
  return server.built.services.storageRegistry.localRoot;
}

/** Sets the max upload size (group 1 settings). */
export async function setMaxUpload(server: TestServer, token: string, size: number, unit: 'KB' | 'MB' | 'GB') {
  const res = await server.call('PUT', '/api/admin/settings/group/1', {
    token,
    body: { max_upload_size: size, max_upload_size_unit: unit },
  });
  if (res.status !== 200) throw new Error(`settings update failed: ${res.status} ${res.body.message}`);
}
