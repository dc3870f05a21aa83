/** Helpers for the large/remote upload e2e tests: an S3 config for the emulator, random files, a slow file server. */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StorageConfigView } from '@clipnest/contract';
import { call } from './api';
import type { S3rver } from './s3rver';

/** An S3 storage config (path style) pointing at the emulator, created through the API. */
export async function createS3Config(token: string, s3: S3rver, name: string): Promise<StorageConfigView> {
  const { status, envelope } = await call<StorageConfigView>('POST', '/s3-configs', {
    token,
    body: {
      name,
      provider: 'other',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      access_key_id: 'S3RVER',
      secret_access_key: 'S3RVER',
      path_style: true,
    },
  });
  if (status >= 300 || !envelope.data) throw new Error(`create config → ${status}: ${envelope.message}`);
  return envelope.data;
}

/** A file of random bytes in a temp directory; answers its path and SHA-256. */
export function randomFile(name: string, size: number): { path: string; sha256: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'clipnest-e2e-upload-'));
  const file = path.join(dir, name);
  const bytes = randomBytes(size);
  writeFileSync(file, bytes);
  return { path: file, sha256: sha256(bytes), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface FileServer {
  url: (name: string) => string;
  stop: () => Promise<void>;
}

/**
 * A tiny HTTP server on 127.0.0.1 serving `files`, each sent in chunks with a pause between them
 * so a download takes a few seconds (progress is visible). Answers HEAD with the length.
 */
export async function startFileServer(
  files: Record<string, { body: Buffer; type: string }>,
  options: { chunk?: number; pauseMs?: number } = {},
): Promise<FileServer> {
  const chunk = options.chunk ?? 64 * 1024;
  const pauseMs = options.pauseMs ?? 40;
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').split('?')[0]!.slice(1));
    const file = files[name];
    if (!file) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': file.type, 'Content-Length': String(file.body.length) });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    let offset = 0;
    const timer = setInterval(() => {
      if (res.destroyed) {
        clearInterval(timer);
        return;
      }
      res.write(file.body.subarray(offset, offset + chunk));
      offset += chunk;
      if (offset >= file.body.length) {
        clearInterval(timer);
        res.end();
      }
    }, pauseMs);
    req.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: (name) => `http://127.0.0.1:${port}/${encodeURIComponent(name)}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
