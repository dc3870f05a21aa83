import { createServer, type Server } from 'node:http';

export interface RemoteFileServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A tiny HTTP file server on 127.0.0.1 for URL uploads: `/files/<name>` (HEAD, Range), `/nohead/<name>`
 * (HEAD refused: 405), `/redirect?to=` (302), `/slow` (a byte every 50 ms), `/status/<n>`.
 */
export async function startRemoteFiles(
  files: Record<string, { body: Uint8Array; type: string }>,
): Promise<RemoteFileServer> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const [, kind, name] = url.pathname.split('/');
    if (kind === 'redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      return;
    }
    if (kind === 'status') {
      res.writeHead(Number(name)).end();
      return;
    }
    if (kind === 'slow') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '100000' });
      const timer = setInterval(() => res.write(new Uint8Array(10)), 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    const file = name ? files[decodeURIComponent(name)] : undefined;
    if ((kind !== 'files' && kind !== 'nohead') || !file) {
      res.writeHead(404).end();
      return;
    }
    if (req.method === 'HEAD' && kind === 'nohead') {
      res.writeHead(405).end();
      return;
    }
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), file.body.length - 1) : file.body.length - 1;
      res.writeHead(206, {
        'content-type': file.type,
        'content-length': String(end - start + 1),
        'content-range': `bytes ${start}-${end}/${file.body.length}`,
        'accept-ranges': 'bytes',
      });
      res.end(req.method === 'HEAD' ? undefined : file.body.subarray(start, end + 1));
      return;
    }
    res.writeHead(200, {
      'content-type': file.type,
      'content-length': String(file.body.length),
      'accept-ranges': 'bytes',
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
