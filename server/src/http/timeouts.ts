// How long a request may take, per phase. Node's own `requestTimeout` (300 s for the
// whole request) would end every upload that needs longer, so it is off; instead:
// - upload routes (bodies of any size): the socket is closed when no byte arrives for `uploadIdleMs`;
// - every other request: its body must be complete within `requestTimeoutMs` (the old total limit);
// - responses: the socket is closed when the client takes no byte for `downloadIdleMs`;
// - while the server itself works (after the body, before the answer) no timer runs; a request without a body
//   (no Content-Length above 0, no Transfer-Encoding: RFC 9112 §6.3) has nothing to time until its answer.
// - idle keep-alive connections: closed after KEEP_ALIVE_MS, not Node's 5 s. A client (or a proxy in front) that
//   reuses an idle connection just as the server closes it gets a reset: a failed upload, or a 502 from nginx,
//   whose upstream connections idle up to 60 s. Clients read the `Keep-Alive: timeout=65` hint and drop theirs first.
// Header timeouts (`headersTimeout`) stay as Node sets them.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { ServerType } from '@hono/node-server';

export interface HttpTimeouts {
  uploadIdleMs: number;
  downloadIdleMs: number;
  requestTimeoutMs: number;
}

/** Routes whose body may take as long as it needs while bytes keep coming (form, PUT, part, fs, WebDAV). */
const UPLOAD_PATH = /^\/(api\/upload(-direct)?|api\/fs\/(upload|multipart)|dav)(\/|\?|$)/;

/** How long an idle keep-alive connection stays open: longer than the 60 s of common proxies' upstream pools. */
export const KEEP_ALIVE_MS = 65_000;

export function isUploadPath(url: string | undefined): boolean {
  return url !== undefined && UPLOAD_PATH.test(url);
}

/**
 * Whether a body follows the headers. `req.complete` cannot tell: it is still false when 'request' is emitted, and
 * 'end' comes only once a body is read, which no handler does for a HEAD or a MOVE, so an idle timer set for a
 * body that never comes cut off every bodiless WebDAV request whose answer took longer than UPLOAD_IDLE_TIMEOUT.
 */
function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

function watch(req: IncomingMessage, res: ServerResponse, timeouts: HttpTimeouts): void {
  const socket = req.socket;
  if (!req.complete && hasBody(req)) {
    if (isUploadPath(req.url)) {
      // Refreshed by every byte the parser reads; the server's own work afterwards is not timed.
      socket.setTimeout(timeouts.uploadIdleMs);
      req.once('end', () => {
        if (!res.headersSent) socket.setTimeout(0);
      });
    } else {
      const timer = setTimeout(() => {
        if (!req.complete) socket.destroy();
      }, timeouts.requestTimeoutMs);
      timer.unref();
      res.once('close', () => clearTimeout(timer));
      req.once('end', () => clearTimeout(timer));
    }
  }
  const writeHead = res.writeHead;
  // Every answer starts here (also implicit headers): from now on a client that stops reading is cut off.
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!socket.destroyed) socket.setTimeout(timeouts.downloadIdleMs);
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}

/** Applies the timeouts to a server made by `serve()`; used by main.ts and the test harness. */
export function applyHttpTimeouts(server: ServerType, timeouts: HttpTimeouts): void {
  const http = server as Server;
  http.requestTimeout = 0;
  http.keepAliveTimeout = KEEP_ALIVE_MS;
  http.on('request', (req: IncomingMessage, res: ServerResponse) => watch(req, res, timeouts));
}
