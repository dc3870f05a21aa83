// The WebDAV driver's HTTP: one keep-alive agent per driver, node:http(s) with the guarded `lookup`, a connect
// and a response timeout (a server that is down fails fast with 'unavailable', never hangs a request).
import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { isAbortError } from '../streams.js';
import { StorageError } from '../types.js';

export interface DavHttpOptions {
  /** The root collection, e.g. https://nas.example/remote.php/dav/files/me/ (a trailing slash is added). */
  endpoint: string;
  username?: string;
  password?: string;
  /** Accept any TLS certificate (self-signed NAS). */
  tlsInsecure?: boolean;
  /** How sockets resolve host names (the app refuses metadata addresses here). */
  lookup?: LookupFunction;
  /** Connect + response-headers timeout (default 10 s). */
  timeoutMs?: number;
}

export interface DavRequest {
  method: string;
  /** Encoded path below the root ('' = the root), or a full URL (Destination targets are built by the caller). */
  path: string;
  headers?: OutgoingHttpHeaders;
  /** A string body, or a Node readable streamed as it is. */
  body?: string | Readable;
  signal?: AbortSignal;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EACCES',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Maps a network failure to a StorageError. */
export function mapNetworkError(err: unknown, path?: string): StorageError {
  if (err instanceof StorageError) return err;
  if (isAbortError(err)) return new StorageError('aborted', 'aborted', { path, cause: err });
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? '';
  const message = err instanceof Error ? err.message : String(err);
  if (NETWORK_CODES.has(code))
    return new StorageError('unavailable', `webdav server unreachable: ${message}`, { path, cause: err });
  return new StorageError('io', `webdav: ${message}`, { path, cause: err });
}

/** A kept-alive socket the server had closed: the request never reached it (see DavHttp.request). */
class StaleSocketError extends Error {
  constructor(override readonly cause: unknown) {
    super('stale keep-alive socket');
  }
}

const isConnectionReset = (err: unknown): boolean => {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
};

export class DavHttp {
  readonly base: URL;
  private readonly agent: http.Agent;
  private readonly auth?: string;
  private readonly timeoutMs: number;

  constructor(options: DavHttpOptions) {
    const base = new URL(options.endpoint);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new StorageError('invalid_path', 'webdav endpoint_url must be http(s)');
    }
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    base.search = '';
    base.hash = '';
    this.base = base;
    const agentOptions = { keepAlive: true, maxSockets: 16, ...(options.lookup ? { lookup: options.lookup } : {}) };
    this.agent =
      base.protocol === 'https:'
        ? new https.Agent({ ...agentOptions, rejectUnauthorized: !options.tlsInsecure })
        : new http.Agent(agentOptions);
    if (options.username || options.password) {
      this.auth = `Basic ${Buffer.from(`${options.username ?? ''}:${options.password ?? ''}`).toString('base64')}`;
    }
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** The absolute URL of an encoded path below the root. */
  url(encodedPath: string): string {
    return new URL(encodedPath, this.base).href;
  }

  /**
   * Sends one request; answers once the response headers arrived (the body is the caller's to read). A request
   * without a streamed body is sent once more when a kept-alive socket turns out to have been closed by the server
   * (ECONNRESET / "socket hang up" on a reused socket: the server's keep-alive timeout raced our reuse).
   */
  async request(req: DavRequest): Promise<IncomingMessage> {
    try {
      return await this.send(req);
    } catch (err) {
      if (!(err instanceof StaleSocketError) || (req.body !== undefined && typeof req.body !== 'string')) {
        throw err instanceof StaleSocketError ? mapNetworkError(err.cause) : err;
      }
      return this.send(req, false).catch((again: unknown) => {
        throw again instanceof StaleSocketError ? mapNetworkError(again.cause) : again;
      });
    }
  }

  private send(req: DavRequest, mayRetry = true): Promise<IncomingMessage> {
    const target = new URL(req.path, this.base);
    const mod = target.protocol === 'https:' ? https : http;
    return new Promise<IncomingMessage>((resolve, reject) => {
      let settled = false;
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        const stale = mayRetry && outgoing.reusedSocket && isConnectionReset(err);
        reject(stale ? new StaleSocketError(err) : mapNetworkError(err));
      };
      const headers: OutgoingHttpHeaders = { ...req.headers };
      if (this.auth) headers.authorization = this.auth;
      if (typeof req.body === 'string') headers['content-length'] = Buffer.byteLength(req.body);
      const outgoing = mod.request(target, { method: req.method, headers, agent: this.agent, signal: req.signal });
      // Idle socket time before the response headers (covers connect); streamed bodies reset it as they flow.
      outgoing.setTimeout(this.timeoutMs, () => {
        outgoing.destroy(Object.assign(new Error(`no answer within ${this.timeoutMs} ms`), { code: 'ETIMEDOUT' }));
      });
      outgoing.on('error', fail);
      outgoing.on('response', (res) => {
        outgoing.setTimeout(0);
        res.socket?.setTimeout(0);
        if (settled) {
          res.resume();
          return;
        }
        settled = true;
        resolve(res);
      });
      if (req.body === undefined) outgoing.end();
      else if (typeof req.body === 'string') outgoing.end(req.body);
      else {
        const body = req.body;
        body.on('error', (err) => outgoing.destroy(err));
        body.pipe(outgoing);
      }
    });
  }

  /** Reads a (small) response body as text. */
  async text(res: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Drains and drops a response body so the socket goes back to the pool. */
  drain(res: IncomingMessage): void {
    res.resume();
  }

  close(): void {
    this.agent.destroy();
  }
}
