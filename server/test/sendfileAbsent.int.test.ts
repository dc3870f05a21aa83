// The sendfile addon is optional: without its built file (another OS, no compiler at install time) the server
// streams local downloads through JavaScript and counts them the same.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { upload } from './support/fileShares.js';
import { startTestServer, type TestServer } from './support/harness.js';

// What the loader answers when build/Release/clipnest_sendfile.node is not there (checked below).
vi.mock('@clipnest/native', () => ({ sendfile: null, sendfileLoadError: 'Cannot find module (test)' }));

const METRICS_TOKEN = 'metrics-token-0123456789';

describe('the native loader without a built addon', () => {
  it('answers null and says why, instead of throwing', async () => {
    const loader = createRequire(import.meta.url).resolve('@clipnest/native');
    const dir = mkdtempSync(path.join(tmpdir(), 'clipnest-native-'));
    try {
      copyFileSync(loader, path.join(dir, 'index.js'));
      const native = (await import(pathToFileURL(path.join(dir, 'index.js')).href)) as {
        sendfile: unknown;
        sendfileLoadError: string | null;
      };
      expect(native.sendfile).toBeNull();
      expect(native.sendfileLoadError).toEqual(expect.any(String));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('local downloads without the sendfile addon', () => {
  let server: TestServer;
  let token: string;
  const content = randomBytes(3 * 1024 * 1024 + 17);

  beforeAll(async () => {
    server = await startTestServer('sqlite', { METRICS_TOKEN });
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('are streamed: whole files and ranges, the same bytes, counted in the metrics', async () => {
    const uploaded = await upload(server, content, { token, filename: 'big.bin', type: 'application/octet-stream' });
    expect(uploaded.status).toBe(201);
    const url = `${server.url}/api/file-download/${uploaded.body.data!.slug}`;
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(content.length));
    expect(Buffer.from(await whole.arrayBuffer()).equals(content)).toBe(true);
    const range = await fetch(url, { headers: { range: 'bytes=100000-1999999' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(content.subarray(100000, 2000000))).toBe(true);

    // A response's bytes are counted once its socket has finished with it, which may come after the client read it.
    const counted = async () => {
      const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const line =
        /clipnest_http_response_bytes_total\{route="\/api\/file-download\/:slug",app="clipnest"\} (\d+)/.exec(
          await metrics.text(),
        );
      return Number(line?.[1] ?? 0);
    };
    await expect.poll(counted, { timeout: 10_000 }).toBeGreaterThan(content.length + 1_900_000);
  });
});
