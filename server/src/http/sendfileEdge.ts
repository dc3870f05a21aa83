// The serving edge for local file downloads: a route offers the stream it answers with; when that stream
// is an unread range of a local file and the connection is a plain HTTP/1.1 socket, the bytes go out with
// sendfile(2) from the native addon (page cache → socket, as nginx sends files) instead of through
// JavaScript buffers. Everything else, and every case the addon cannot take, is answered as usual.
import { ServerResponse, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { constants } from 'node:os';
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { SendfileBinding } from '@clipnest/native';
import type { Context } from 'hono';
import type { Logger } from '../lib/logger.js';
import { fileBodySource, type FileBodySource } from '../storage/fileBody.js';
import { countNativeTransfer } from './observability.js';

/** Smaller bodies are streamed: a thread of their own is not worth it. */
export const SENDFILE_MIN_BYTES = 64 * 1024;
/** Transfers running at once; further downloads are streamed. */
export const SENDFILE_MAX_ACTIVE = 64;
/** A client that takes no byte for this long is disconnected (DOWNLOAD_IDLE_TIMEOUT; this when not given). */
const STALL_MS = 15 * 60_000;

export type Fetch = (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;

const offered = new WeakMap<object, ReadableStream<Uint8Array>>();

/** Answers with `stream` as the body; the edge may send it with sendfile (same headers, same bytes). */
export function fileBody(c: Context, stream: ReadableStream<Uint8Array>, status: 200 | 206): Response {
  const outgoing = (c.env as Partial<HttpBindings | Http2Bindings> | undefined)?.outgoing;
  if (outgoing) offered.set(outgoing, stream);
  return c.body(stream, status);
}

/** The socket's descriptor when the response goes out on a plain (not TLS) TCP socket and nothing is sent yet. */
export function plainSocketFd(outgoing: ServerResponse): number | undefined {
  const socket = outgoing.socket as (Socket & { encrypted?: boolean; _handle?: { fd?: unknown } }) | null;
  if (outgoing.headersSent || !socket || socket.destroyed || socket.encrypted) return undefined;
  const fd = socket._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : undefined;
}

function outgoingHeaders(headers: Headers): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  headers.forEach((value, key) => {
    if (key !== 'set-cookie') out[key] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  return out;
}

/** Resolves once the status line and headers are with the kernel, so the file's bytes follow them. */
function sendHeaders(outgoing: ServerResponse, response: Response): Promise<void> {
  outgoing.writeHead(response.status, outgoingHeaders(response.headers));
  return new Promise((resolve, reject) => {
    outgoing.write('', (error) => (error ? reject(error) : resolve()));
  });
}

export function withSendfile(
  fetch: Fetch,
  options: { binding: SendfileBinding | null; enabled: boolean; logger: Logger; stallMs?: number },
): Fetch {
  const { binding, logger } = options;
  const stallMs = options.stallMs ?? STALL_MS;
  if (!options.enabled || !binding) return fetch;
  let active = 0;

  /**
   * Sends the file's range after the response's headers; the stream is cancelled (file closed) at the end.
   * Resolves with the bytes sendfile wrote (Node's socket does not count them).
   */
  const transfer = async (
    outgoing: ServerResponse,
    response: Response,
    stream: ReadableStream<Uint8Array>,
    source: FileBodySource,
    fds: { socket: number; file: number },
  ): Promise<number> => {
    active += 1;
    try {
      await sendHeaders(outgoing, response);
      // A socket still open keeps its descriptor; a closed one may have handed the number on.
      if (outgoing.destroyed || outgoing.socket?.destroyed !== false) {
        outgoing.destroy();
        return 0;
      }
      // The native thread writes to the socket's descriptor: Node sees no activity, the stall timer below counts.
      outgoing.socket?.setTimeout(0);
      return await new Promise<number>((resolve) => {
        const handle = binding.start(fds.socket, fds.file, source.start, source.length, stallMs, (errno, sent) => {
          outgoing.off('close', onClose);
          if (errno === 0) outgoing.end();
          else {
            if (errno !== constants.errno.ECANCELED && errno !== constants.errno.EPIPE) {
              logger.debug(`sendfile stopped after ${sent} of ${source.length} bytes (errno ${errno})`);
            }
            outgoing.destroy();
          }
          resolve(sent);
        });
        const onClose = () => binding.cancel(handle);
        outgoing.once('close', onClose);
      });
    } catch (error) {
      logger.debug(`sendfile could not start: ${error instanceof Error ? error.message : String(error)}`);
      outgoing.destroy();
      return 0;
    } finally {
      active -= 1;
      await stream.cancel().catch(() => undefined);
    }
  };

  return async (request, env) => {
    const response = await fetch(request, env);
    const outgoing = env?.outgoing;
    const stream = outgoing ? offered.get(outgoing) : undefined;
    if (!stream || !(outgoing instanceof ServerResponse)) return response;
    offered.delete(outgoing);
    const source = fileBodySource(stream);
    const socket = plainSocketFd(outgoing);
    if (
      !source ||
      socket === undefined ||
      source.length < SENDFILE_MIN_BYTES ||
      active >= SENDFILE_MAX_ACTIVE ||
      (response.status !== 200 && response.status !== 206) ||
      response.headers.get('content-length') !== String(source.length) ||
      response.body !== stream
    ) {
      return response;
    }
    const file = source.claim();
    if (file === undefined) return response;
    const sent = transfer(outgoing, response, stream, source, { socket, file }).catch((error: unknown) => {
      logger.error('sendfile transfer failed', error);
      return 0;
    });
    countNativeTransfer(outgoing, sent);
    return RESPONSE_ALREADY_SENT;
  };
}
