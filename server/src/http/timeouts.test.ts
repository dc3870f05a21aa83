import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyHttpTimeouts, KEEP_ALIVE_MS } from './timeouts.js';

const IDLE_MS = 200;
/** The server's own work before it answers: longer than the upload idle limit, which must not count it. */
const WORK_MS = 3 * IDLE_MS;

function send(port: number, method: string, path: string, body?: { bytes: Buffer; stallAfter?: number }) {
  return new Promise<number | string>((resolve) => {
    // Node's client would send a chunked empty body for PROPFIND, MOVE and DELETE: length 0, as WebDAV clients do.
    const headers = { 'content-length': String(body?.bytes.length ?? 0) };
    const options = { host: '127.0.0.1', port, method, path, agent: false };
    const req = http.request({ ...options, headers: method === 'GET' || method === 'HEAD' ? {} : headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (error) => resolve(error.message));
    if (!body) req.end();
    else if (body.stallAfter === undefined) req.end(body.bytes);
    else req.write(body.bytes.subarray(0, body.stallAfter));
  });
}

describe('HTTP timeouts', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      // Reads the body, if there is one (as Hono does: never for a bodiless request), then works a while.
      if (Number(req.headers['content-length'] ?? 0) === 0) setTimeout(() => res.end('done'), WORK_MS);
      else req.resume().on('end', () => setTimeout(() => res.end('done'), WORK_MS));
    });
    applyHttpTimeouts(server as unknown as ServerType, {
      uploadIdleMs: IDLE_MS,
      downloadIdleMs: 10_000,
      requestTimeoutMs: 10_000,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each(['HEAD', 'GET', 'PROPFIND', 'MOVE', 'DELETE'])(
    'answers a bodiless %s on an upload path however long the server works on it',
    async (method) => {
      expect(await send(port, method, '/dav/big-folder')).toBe(200);
    },
  );

  it('answers an upload whose body came whole, however long the server works on it', async () => {
    expect(await send(port, 'PUT', '/dav/file.bin', { bytes: Buffer.alloc(1024) })).toBe(200);
  });

  it('keeps an idle connection for 65 s and tells the client so, to drop its idle sockets first', async () => {
    expect(KEEP_ALIVE_MS).toBe(65_000);
    const agent = new http.Agent({ keepAlive: true });
    const header = await new Promise<string | string[] | undefined>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/api/health', agent }, (res) => {
          res.resume();
          resolve(res.headers['keep-alive']);
        })
        .on('error', reject);
    });
    agent.destroy();
    expect(header).toBe('timeout=65');
  });

  it('still cuts off an upload whose body stops coming', async () => {
    expect(await send(port, 'PUT', '/dav/file.bin', { bytes: Buffer.alloc(1024), stallAfter: 100 })).toBe(
      'socket hang up',
    );
  });
});
