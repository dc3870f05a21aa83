import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { ApiEnvelope } from '@clipnest/contract';
import type { S3rverHandle } from './fileShares.js';
import { localRoot } from './fileShares.js';
import type { TestServer } from './harness.js';

export type Auth = { token: string } | { apiKey: string };

function authHeader(auth: Auth): Record<string, string> {
  return 'token' in auth ? { authorization: `Bearer ${auth.token}` } : { authorization: `ApiKey ${auth.apiKey}` };
}

/** POST /api/fs/upload; `before` fields go before the file part, `after` fields after it. */
export async function fsUpload(
  server: TestServer,
  auth: Auth,
  content: string | Uint8Array,
  options: { before?: Record<string, string>; after?: Record<string, string>; filename?: string; type?: string },
): Promise<{ status: number; body: ApiEnvelope<unknown> }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(options.before ?? {})) form.append(k, v);
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  form.append(
    'file',
    new Blob([bytes as Uint8Array<ArrayBuffer>], { type: options.type ?? 'application/octet-stream' }),
    options.filename ?? 'upload.bin',
  );
  for (const [k, v] of Object.entries(options.after ?? {})) form.append(k, v);
  const res = await fetch(`${server.url}/api/fs/upload`, { method: 'POST', body: form, headers: authHeader(auth) });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as ApiEnvelope<unknown> };
}

/** A raw GET (bytes and headers), with credentials. */
export async function fsRaw(server: TestServer, urlPath: string, auth?: Auth, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + urlPath, {
    headers: { ...(auth ? authHeader(auth) : {}), ...headers },
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/**
 * Every file under the server's data directory, with sizes and mtimes (database files aside, and the
 * upload spool folder's own entry: spooled parts are removed, the folder stays).
 */
export function diskSnapshot(server: TestServer): string[] {
  const dataDir = path.resolve(localRoot(server), '..', '..');
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        const rel = path.relative(dataDir, full);
        if (rel !== 'tmp' && rel !== path.join('tmp', 'uploads')) out.push(`${rel}/`);
        walk(full);
      } else if (!/^clipnest\.db/.test(entry.name)) {
        const info = statSync(full);
        out.push(`${path.relative(dataDir, full)} ${info.size} ${info.mtimeMs}`);
      }
    }
  };
  walk(dataDir);
  return out.sort();
}

/** Every key of the emulator's bucket, with sizes. */
export async function bucketSnapshot(s3: S3rverHandle): Promise<string[]> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const keys: string[] = [];
  let token: string | undefined;
  try {
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: s3.bucket, ...(token ? { ContinuationToken: token } : {}) }),
      );
      for (const o of page.Contents ?? []) keys.push(`${o.Key} ${o.Size}`);
      token = page.NextContinuationToken;
    } while (token);
  } finally {
    client.destroy();
  }
  return keys.sort();
}
