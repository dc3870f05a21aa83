import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import http from 'node:http';
import { sendfile } from '@clipnest/native';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SENDFILE_MIN_BYTES } from '../src/http/sendfileEdge.js';
import { startTestServer, type TestServer } from './support/harness.js';
import { upload } from './support/fileShares.js';

const MB = 1024 * 1024;
const METRICS_TOKEN = 'metrics-token-0123456789';
const openFds = () => readdirSync('/proc/self/fd').length;

/** GET with Node's client: the raw bytes, the status, the headers, and which socket carried it. */
function get(
  url: string,
  options: { agent?: http.Agent; headers?: Record<string, string>; onData?: (res: http.IncomingMessage) => void } = {},
) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; localPort: number }>(
    (resolve, reject) => {
      const req = http.get(url, { agent: options.agent, headers: options.headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          options.onData?.(res);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            localPort: req.socket?.localPort ?? 0,
          }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
    },
  );
}

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

// The addon is built by `npm install` on Linux; elsewhere downloads are streamed and this file has nothing to test.
describe.skipIf(!sendfile)('local downloads through sendfile', () => {
  let server: TestServer;
  let streamed: TestServer;
  let token: string;
  let streamedToken: string;
  const content = randomBytes(6 * MB + 12345);
  let slug: string;
  let streamedSlug: string;

  beforeAll(async () => {
    [server, streamed] = await Promise.all([
      startTestServer('sqlite', { METRICS_TOKEN }),
      startTestServer('sqlite', { LOCAL_SENDFILE: 'false', METRICS_TOKEN }),
    ]);
    [token, streamedToken] = await Promise.all([server.login(), streamed.login()]);
    const [a, b] = await Promise.all([
      upload(server, content, { token, filename: 'big.bin', type: 'application/octet-stream' }),
      upload(streamed, content, { token: streamedToken, filename: 'big.bin', type: 'application/octet-stream' }),
    ]);
    slug = a.body.data!.slug;
    streamedSlug = b.body.data!.slug;
  });
  afterAll(async () => {
    await server?.close();
    await streamed?.close();
  });
  afterEach(() => vi.restoreAllMocks());

  it('sends the same bytes and headers as the streamed path, through the addon', async () => {
    const start = vi.spyOn(sendfile!, 'start');
    const [zero, plain] = await Promise.all([
      get(`${server.url}/api/file-download/${slug}`),
      get(`${streamed.url}/api/file-download/${streamedSlug}`),
    ]);
    expect(start).toHaveBeenCalledTimes(1);
    expect(zero.status).toBe(200);
    expect(zero.body.equals(content)).toBe(true);
    expect(plain.body.equals(content)).toBe(true);
    const pick = (h: http.IncomingHttpHeaders) => ({
      'content-length': h['content-length'],
      'content-type': h['content-type'],
      'content-disposition': h['content-disposition'],
      'x-content-type-options': h['x-content-type-options'],
      'cache-control': h['cache-control'],
      'accept-ranges': h['accept-ranges'],
      'content-security-policy': h['content-security-policy'],
    });
    expect(pick(zero.headers)).toEqual(pick(plain.headers));
    expect(zero.headers['content-length']).toBe(String(content.length));
    expect(zero.headers.etag).toMatch(/^"/);
  });

  it('counts the bytes sendfile wrote in the metrics, as the streamed path counts its own', async () => {
    const sentBytes = async (target: TestServer) => {
      const res = await fetch(`${target.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const line =
        /clipnest_http_response_bytes_total\{route="\/api\/file-download\/:slug",app="clipnest"\} (\d+)/.exec(
          await res.text(),
        );
      return Number(line?.[1] ?? 0);
    };
    const start = vi.spyOn(sendfile!, 'start');
    const before = [await sentBytes(server), await sentBytes(streamed)];
    const [zero, plain] = await Promise.all([
      get(`${server.url}/api/file-download/${slug}`),
      get(`${streamed.url}/api/file-download/${streamedSlug}`),
    ]);
    expect(start).toHaveBeenCalledTimes(1);
    expect(zero.body.equals(content)).toBe(true);
    expect(plain.body.equals(content)).toBe(true);
    // The answer is counted when it is over, which the client may see a moment before the server does.
    let counted: number[];
    const deadline = Date.now() + 5000;
    do {
      counted = [(await sentBytes(server)) - before[0]!, (await sentBytes(streamed)) - before[1]!];
    } while ((counted[0]! < content.length || counted[1]! < content.length) && Date.now() < deadline);
    // The body and the status line and headers (well under 2 KB), on either path.
    for (const bytes of counted) {
      expect(bytes).toBeGreaterThan(content.length);
      expect(bytes).toBeLessThan(content.length + 2048);
    }
  });

  it('answers ranges with 206 and exactly the asked bytes', async () => {
    const from = 1 * MB + 7;
    const to = 5 * MB + 3;
    const res = await get(`${server.url}/api/file-download/${slug}`, { headers: { range: `bytes=${from}-${to}` } });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${from}-${to}/${content.length}`);
    expect(res.body.equals(content.subarray(from, to + 1))).toBe(true);
    const tail = await get(`${server.url}/api/file-download/${slug}`, { headers: { range: 'bytes=-100000' } });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(content.subarray(content.length - 100000))).toBe(true);
  });

  it('streams bodies below the threshold and leaves small ranges to the streamed path', async () => {
    const start = vi.spyOn(sendfile!, 'start');
    const res = await get(`${server.url}/api/file-download/${slug}`, {
      headers: { range: `bytes=0-${SENDFILE_MIN_BYTES - 2}` },
    });
    expect(res.status).toBe(206);
    expect(res.body.equals(content.subarray(0, SENDFILE_MIN_BYTES - 1))).toBe(true);
    expect(start).not.toHaveBeenCalled();
  });

  it('keeps the connection alive for the next request', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(`${server.url}/api/file-download/${slug}`, { agent });
      const second = await get(`${server.url}/api/file-download/${slug}`, { agent });
      const health = await get(`${server.url}/api/health`, { agent });
      expect(first.body.equals(content)).toBe(true);
      expect(second.body.equals(content)).toBe(true);
      expect(health.status).toBe(200);
      expect(second.localPort).toBe(first.localPort);
      expect(health.localPort).toBe(first.localPort);
    } finally {
      agent.destroy();
    }
  });

  it('copes with a slow reader (the socket fills and drains)', async () => {
    let paused = 0;
    const res = await get(`${server.url}/api/file-download/${slug}`, {
      onData: (r) => {
        if (paused++ % 16 === 0) {
          r.pause();
          setTimeout(() => r.resume(), 20);
        }
      },
    });
    expect(res.body.equals(content)).toBe(true);
  });

  it('lets go of the file and the socket when the client goes away mid-transfer', async () => {
    // Larger than the loopback socket buffers can hold, so the transfer is still running when the client leaves.
    const large = randomBytes(64 * MB);
    const up = await upload(server, large, { token, filename: 'large.bin', type: 'application/octet-stream' });
    const largeSlug = up.body.data!.slug;
    const binding = sendfile!;
    const realStart = binding.start.bind(binding);
    const endings: number[] = [];
    vi.spyOn(binding, 'start').mockImplementation((socketFd, fileFd, offset, length, stallMs, done) =>
      realStart(socketFd, fileFd, offset, length, stallMs, (errno, sent) => {
        endings.push(errno);
        done(errno, sent);
      }),
    );
    const before = openFds();
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`${server.url}/api/file-download/${largeSlug}`, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve() : reject(error)));
      });
    }
    await waitFor(() => endings.length === 3 && openFds() <= before);
    expect(endings.every((errno) => errno !== 0)).toBe(true);
    vi.restoreAllMocks();
    const after = await get(`${server.url}/api/file-download/${largeSlug}`);
    expect(after.status).toBe(200);
    expect(after.body.equals(large)).toBe(true);
  });

  it('answers HEAD with the headers only, without a transfer', async () => {
    const start = vi.spyOn(sendfile!, 'start');
    const res = await fetch(`${server.url}/api/file-download/${slug}`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(content.length));
    expect(start).not.toHaveBeenCalled();
  });
});
