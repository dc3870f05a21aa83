import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerType } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { closeWhenIdle } from './closeServer.js';
import { applyHttpTimeouts, KEEP_ALIVE_MS } from './timeouts.js';

/** A server with the product's 65 s keep-alive whose answers take `workMs`. */
async function startServer(workMs: number) {
  const server = http.createServer((_req, res) => setTimeout(() => res.end('done'), workMs));
  applyHttpTimeouts(server as unknown as ServerType, {
    uploadIdleMs: 10_000,
    downloadIdleMs: 10_000,
    requestTimeoutMs: 10_000,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** A request on a keep-alive connection that the client keeps open afterwards. */
function request(port: number, agent: http.Agent) {
  return new Promise<number | string>((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', (error) => resolve(error.message));
  });
}

describe('closeWhenIdle', () => {
  it('lets a busy keep-alive connection finish its answer, then closes it at once, not after the keep-alive time', async () => {
    const { server, port } = await startServer(300);
    const agent = new http.Agent({ keepAlive: true });
    const answered = request(port, agent);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const closed = await closeWhenIdle(server as unknown as ServerType);
    expect(await answered).toBe(200);
    expect(closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(KEEP_ALIVE_MS);
    agent.destroy();
  });

  it('cuts what is still open after its timeout and says so', async () => {
    const { server, port } = await startServer(60_000);
    const agent = new http.Agent({ keepAlive: true });
    const answered = request(port, agent);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await closeWhenIdle(server as unknown as ServerType, 200)).toBe(false);
    expect(await answered).toMatch(/socket hang up|ECONNRESET/);
    agent.destroy();
  });
});
