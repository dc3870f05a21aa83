// Operations (issue #26): readiness for load balancers, request ids, Prometheus metrics behind METRICS_TOKEN.
import type { ReadinessInfo } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';

const METRICS_TOKEN = 'metrics-token-0123456789';

describe.each(dbTargets)('health, request ids and metrics on %s', (target) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(target, { METRICS_TOKEN });
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('readiness reports the database and every storage config', async () => {
    const ready = await server.call<ReadinessInfo>('GET', '/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.data).toMatchObject({ status: 'ok', database: 'ok', stopping: false });
    expect(ready.body.data?.instance).toBe(server.built.services.cluster.instanceId);
    expect(ready.body.data?.storages.length).toBeGreaterThan(0);
    expect(ready.body.data?.storages.every((s) => s.status === 'ok')).toBe(true);
  });

  it('answers every request with an X-Request-Id, keeping a sane one from the proxy', async () => {
    const made = await server.call('GET', '/api/health');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await server.call('GET', '/api/health', { headers: { 'x-request-id': 'lb-1234.abc' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-1234.abc');
    const replaced = await server.call('GET', '/api/health', { headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.headers.get('x-request-id')).not.toContain('script');
  });

  it('serves Prometheus metrics only with the token: requests by route and status, latency, uploads, tasks', async () => {
    await server.call('GET', '/api/nope', { token });
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(/clipnest_http_requests_total\{method="GET",route="\/api\/health",status="200"/);
    expect(text).toMatch(/clipnest_http_requests_total\{method="GET",route="\/api\/\*",status="404"/);
    expect(text).toContain('clipnest_http_request_duration_seconds_bucket');
    expect(text).toMatch(/clipnest_http_response_bytes_total\{route="\/api\/health",app="clipnest"\} [1-9]/);
    expect(text).toContain('clipnest_active_uploads');
    expect(text).toContain('clipnest_tasks_running_here');
    expect(text).toContain('clipnest_process_cpu_seconds_total');
  });

  it('readiness answers 503 once the instance is stopping (SIGTERM), liveness stays 200', async () => {
    server.built.services.system.markStopping();
    const ready = await server.call<ReadinessInfo>('GET', '/api/health/ready');
    expect(ready.status).toBe(503);
    expectEnvelope(ready.body, 503);
    expect(ready.body.data).toMatchObject({ status: 'unavailable', stopping: true });
    expect((await server.call('GET', '/api/health')).status).toBe(200);
  });
});

describe('metrics without METRICS_TOKEN', () => {
  it('are not served on the app port', async () => {
    const server = await startTestServer('sqlite');
    try {
      const res = await fetch(`${server.url}/metrics`);
      expect(res.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
