// Request ids, access logs and Prometheus metrics (prom-client) for every request.
// - Request id: a sane incoming `X-Request-Id` (from a proxy) is kept, otherwise one is made; it is answered in
//   `X-Request-Id` and carried by the request's log line (`req_id`) and by error lines.
// - Access log: one `info` line per request (method, route pattern, path without its query, status, ms, bytes),
//   written when the response has been sent.
// - Metrics: requests by route and status, latency histograms (to the response's end), bytes in/out as the
//   socket counts them (headers included) plus what the sendfile addon wrote to the socket past Node,
//   requests and uploads in flight, plus whatever gauges the server adds (tasks by status).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Next } from 'hono';
import { routePath } from 'hono/route';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AccessLine, Logger } from '../lib/logger.js';
import type { AppEnv } from './env.js';
import { requestHeader } from './requestHeader.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request that moves a file body in: form/raw uploads, chunked and multipart parts, WebDAV PUT. */
function isUpload(method: string, path: string): boolean {
  if (method !== 'PUT' && method !== 'POST') return false;
  if (path.startsWith('/dav') || path.startsWith('/remote.php/')) return method === 'PUT';
  return /^\/api\/(upload|s3\/upload|fs\/(put|form)|upload-direct)/.test(path);
}

export class HttpMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly duration: Histogram<'method' | 'route'>;
  readonly bytesIn: Counter<'route'>;
  readonly bytesOut: Counter<'route'>;
  readonly inFlight: Gauge;
  readonly activeUploads: Gauge;

  constructor(options: { defaults?: boolean } = {}) {
    this.registry.setDefaultLabels({ app: 'clipnest' });
    if (options.defaults ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'clipnest_' });
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'clipnest_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'clipnest_http_request_duration_seconds',
      help: 'Time until the response was sent, by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.bytesIn = new Counter({
      name: 'clipnest_http_request_bytes_total',
      help: 'Bytes received (request line, headers and body), by route pattern',
      labelNames: ['route'],
      registers,
    });
    this.bytesOut = new Counter({
      name: 'clipnest_http_response_bytes_total',
      help: 'Bytes sent (status line, headers and body, sendfile downloads included), by route pattern',
      labelNames: ['route'],
      registers,
    });
    this.inFlight = new Gauge({
      name: 'clipnest_http_requests_in_flight',
      help: 'Requests being handled now',
      registers,
    });
    this.activeUploads = new Gauge({
      name: 'clipnest_active_uploads',
      help: 'Upload requests (file bodies coming in) being handled now',
      registers,
    });
  }

  /** A gauge read when scraped (e.g. tasks by status from the database). */
  gauge(name: string, help: string, labelNames: string[], read: () => Promise<[Record<string, string>, number][]>) {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const [labels, value] of await read()) this.set(labels, value);
      },
    });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

/** Transfers written to a response's socket past Node (sendfile): the bytes they sent, once they are over. */
const nativeTransfers = new WeakMap<object, Promise<number>>();

/**
 * Counts a transfer that writes to `outgoing`'s socket without Node (which cannot see those bytes): the request's
 * log line and metrics wait for it and add its bytes. Called before the response can close.
 */
export function countNativeTransfer(outgoing: object, sent: Promise<number>): void {
  nativeTransfers.set(outgoing, sent);
}

/** The middleware that gives every request an id, a log line and its metrics. */
export function observe(options: { logger: Logger; metrics?: HttpMetrics }) {
  const { logger, metrics } = options;
  const logging = logger.enabled?.('info') ?? true;
  return async (c: Context<AppEnv>, next: Next) => {
    const started = performance.now();
    const { incoming, outgoing } = (c.env ?? {}) as NodeBindings;
    const given = requestHeader(c, 'x-request-id');
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    c.set('requestId', id);
    // Before the handler: a header added to a finished response makes Hono rebuild it (see app.ts).
    c.header('X-Request-Id', id);
    // Nothing to record (no metrics, LOG_LEVEL below info): the id is all this request gets.
    if (!metrics && !logging) return next();
    const method = c.req.method;
    const path = c.req.path;
    const upload = metrics !== undefined && isUpload(method, path);
    // Bytes in and out as the socket counts them (bodies streamed or not; keep-alive requests are sequential).
    const socket = incoming?.socket;
    const read0 = socket?.bytesRead ?? 0;
    const written0 = socket?.bytesWritten ?? 0;
    metrics?.inFlight.inc();
    if (upload) metrics?.activeUploads.inc();
    let status = 500;
    let route = '*';
    const done = () => {
      const native = outgoing && nativeTransfers.get(outgoing);
      if (native) void native.then(finish, () => finish(0));
      else finish(0);
    };
    const finish = (nativeBytes: number) => {
      metrics?.inFlight.dec();
      if (upload) metrics?.activeUploads.dec();
      const seconds = (performance.now() - started) / 1000;
      const bytesIn = socket ? socket.bytesRead - read0 : 0;
      const bytesOut = (socket ? socket.bytesWritten - written0 : 0) + nativeBytes;
      if (metrics) {
        metrics.requests.inc({ method, route, status: String(status) });
        metrics.duration.observe({ method, route }, seconds);
        if (bytesIn > 0) metrics.bytesIn.inc({ route }, bytesIn);
        if (bytesOut > 0) metrics.bytesOut.inc({ route }, bytesOut);
      }
      if (logging) {
        const line: AccessLine = {
          req_id: id,
          method,
          route,
          path,
          status,
          ms: Math.round(seconds * 10_000) / 10,
          bytes_in: bytesIn,
          bytes_out: bytesOut,
          client: c.get('clientAddress'),
        };
        if (logger.access) logger.access(line);
        else logger.info('request', { ...line });
      }
    };
    try {
      await next();
      status = c.res.status;
    } finally {
      try {
        // After next(), the route index points at the handler that answered.
        route = routePath(c) || '*';
      } catch {
        // No route matched at all.
      }
      // Streamed bodies (downloads, zips) end after the handler: count them when the response is done.
      if (outgoing && !outgoing.writableFinished && !outgoing.destroyed) outgoing.once('close', done);
      else done();
    }
  };
}
