import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DavHttp } from './http.js';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that answers the first request on each socket, then hangs up on the next one without answering. */
async function hangsUpOnReuse(): Promise<{ endpoint: string; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const served = new WeakSet<Socket>();
  server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const socket = req.socket;
    sockets.add(socket);
    if (served.has(socket)) {
      socket.destroy();
      return;
    }
    served.add(socket);
    res.writeHead(207, { 'content-type': 'application/xml' }).end('<multistatus/>');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, sockets };
}

describe('DavHttp keep-alive', () => {
  it('sends a bodiless request again when the kept-alive socket was closed by the server', async () => {
    const { endpoint, sockets } = await hangsUpOnReuse();
    const client = new DavHttp({ endpoint });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await client.request({ method: 'PROPFIND', path: '', headers: { depth: '1' }, body: '<x/>' });
        expect(res.statusCode).toBe(207);
        expect(await client.text(res)).toBe('<multistatus/>');
      }
      expect(sockets.size).toBe(3);
    } finally {
      client.close();
    }
  });

  it('a request that fails on a fresh socket is not retried', async () => {
    server = http.createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const client = new DavHttp({ endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` });
    try {
      await expect(client.request({ method: 'PROPFIND', path: '' })).rejects.toMatchObject({ code: 'unavailable' });
    } finally {
      client.close();
    }
  });
});
