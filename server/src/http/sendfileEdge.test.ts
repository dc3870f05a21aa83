import { fstatSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { plainSocketFd } from './sendfileEdge.js';

/**
 * The sendfile edge reads one thing Node does not document: a TCP socket's descriptor (`socket._handle.fd`). This
 * runs on the Node that runs the tests; run the suite on each Node major the server supports (package.json engines).
 */
describe(`the socket descriptor the sendfile edge reads (Node ${process.versions.node})`, () => {
  it('is the open socket of a plain HTTP response, and there is none once headers are sent', async () => {
    const seen: { before?: number; after?: number; isSocket?: boolean } = {};
    const server = http.createServer((_req, res) => {
      seen.before = plainSocketFd(res);
      if (seen.before !== undefined) seen.isSocket = fstatSync(seen.before).isSocket();
      res.writeHead(200, { 'content-length': '2' });
      res.write('', () => {
        seen.after = plainSocketFd(res);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`);
      expect(await res.text()).toBe('ok');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(seen.before).toEqual(expect.any(Number));
    expect(seen.isSocket).toBe(true);
    expect(seen.after).toBeUndefined();
  });
});
