// A TCP proxy on 127.0.0.1 in front of a real server (PostgreSQL), which a test can cut (every open socket
// destroyed, new connections refused) and restore: a database restart as the app sees it, without touching the
// shared database server itself.
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Open client connections through the proxy now. */
  connections(): number;
  /** Destroys every connection and stops listening: connects are refused until restore(). */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** `delayMs`: each chunk from the target waits this long before it goes on (a slow backend to read from). */
export async function startTcpProxy(target: { host: string; port: number; delayMs?: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    const delayMs = target.delayMs ?? 0;
    if (delayMs === 0) upstream.pipe(client);
    else
      upstream.on('data', (chunk: Buffer) => {
        upstream.pause();
        setTimeout(() => {
          if (client.destroyed) return;
          client.write(chunk);
          upstream.resume();
        }, delayMs);
      });
    upstream.on('end', () => setTimeout(() => client.end(), delayMs));
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  return {
    port,
    connections: () => sockets.size / 2,
    cut: stop,
    restore: () => listen(port),
    close: stop,
  };
}

/** The database URL with its host and port replaced by the proxy's. */
export function throughProxy(databaseUrl: string, proxy: TcpProxy): string {
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return url.toString();
}
