// Request ids, access logs and Prometheus metrics (prom-client) for every request.
// - Request id: a sane incoming `X-Request-Id` (from a proxy) is kept, otherwise one is made; it is answered in
//   `X-Request-Id` and carried by the request's log line (`req_id`) and by error lines.
// - Access log: one `info` line per request (method, route pattern, path without its query, status, ms, bytes).
// - Metrics: requests by route and status, latency histograms, bytes in/out (as Content-Length declares them),
//   requests and uploads in flight, plus whatever gauges the server adds (tasks by status).
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'hono';
import { routePath } from 'hono/route';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from '../lib/logger.js';
import type { AppEnv } from './env.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request that moves a file body in: form/raw uploads, chunked and multipart parts, WebDAV PUT. */
function isUpload(method: string, path: string): boolean {
  if (method !== 'PUT' && method !== 'POST') return false;
  if (path.startsWith('/dav')) return method === 'PUT';
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
      help: 'Time to the response head (streamed bodies may take longer), by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.bytesIn = new Counter({
      name: 'clipnest_http_request_bytes_total',
      help: 'Request body bytes received (Content-Length), by route pattern',
      labelNames: ['route'],
      registers,
    });
    this.bytesOut = new Counter({
      name: 'clipnest_http_response_bytes_total',
      help: 'Response body bytes sent (Content-Length), by route pattern',
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

/** The middleware that gives every request an id, a log line and its metrics. */
export function observe(options: { logger: Logger; metrics?: HttpMetrics }) {
  const { logger, metrics } = options;
  return async (c: Context<AppEnv>, next: Next) => {
    const started = performance.now();
    const incoming = c.req.header('x-request-id');
    const id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    c.set('requestId', id);
    // Before the handler: a header added to a finished response makes Hono rebuild it (see app.ts).
    c.header('X-Request-Id', id);
    const method = c.req.method;
    const path = c.req.path;
    const upload = isUpload(method, path);
    metrics?.inFlight.inc();
    if (upload) metrics?.activeUploads.inc();
    let status = 500;
    try {
      await next();
      status = c.res.status;
    } finally {
      metrics?.inFlight.dec();
      if (upload) metrics?.activeUploads.dec();
      const seconds = (performance.now() - started) / 1000;
      let route = '*';
      try {
        // After next(), the route index points at the handler that answered.
        route = routePath(c) || '*';
      } catch {
        // No route matched at all.
      }
      const bytesIn = Number(c.req.header('content-length') ?? 0) || 0;
      const bytesOut = Number(c.res.headers.get('content-length') ?? 0) || 0;
      if (metrics) {
        metrics.requests.inc({ method, route, status: String(status) });
        metrics.duration.observe({ method, route }, seconds);
        if (bytesIn > 0) metrics.bytesIn.inc({ route }, bytesIn);
        if (bytesOut > 0) metrics.bytesOut.inc({ route }, bytesOut);
      }
      logger.info('request', {
        req_id: id,
        method,
        route,
        path,
        status,
        ms: Math.round(seconds * 1000 * 10) / 10,
        bytes_in: bytesIn,
        bytes_out: bytesOut,
        client: c.get('clientAddress'),
      });
    }
  };
}
