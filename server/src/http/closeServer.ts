import type { Server } from 'node:http';
import type { ServerType } from '@hono/node-server';

/**
 * Stops accepting connections and resolves once every open one has ended. `server.close()` alone ends only the
 * keep-alive connections idle at that moment: one still busy would then stay open for the keep-alive timeout
 * (KEEP_ALIVE_MS) once idle, so connections are closed as they become idle. With `timeoutMs`, connections still
 * open by then are cut (their requests are lost) and the answer is false.
 */
export async function closeWhenIdle(server: ServerType, timeoutMs?: number): Promise<boolean> {
  const http = server as Server;
  const closed = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeIdleConnections();
  const idle = setInterval(() => http.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    if (timeoutMs !== undefined) timer = setTimeout(() => resolve(true), timeoutMs);
  });
  const timedOut = await Promise.race([closed.then(() => false), deadline]);
  clearTimeout(timer);
  clearInterval(idle);
  if (timedOut) {
    http.closeAllConnections();
    await closed;
    return false;
  }
  return true;
}
