// Every error answer carries a machine-readable `kind` from the contract's closed list, and the kind's
// status (ErrorStatus) is the HTTP status: walked over the whole route table with the usual bad inputs,
// plus the finer kinds the web tells apart (password_required/password_wrong, expired, quota_exceeded,
// rate_limited).
import { API_ERROR_KINDS, ErrorStatus, type ErrorKind } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Config, startS3rver, upload, type S3rverHandle } from './support/fileShares.js';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';

interface Answer {
  status: number;
  body: unknown;
  contentType: string;
}

/** The route's path with its parameters filled in (`:name` and `*`). */
function concrete(path: string, value: string): string {
  return path.replace(/:[A-Za-z0-9_]+(\{[^}]*\})?\??/g, value).replace(/\*/g, value);
}

describe.each(dbTargets)('error kinds (%s)', (target) => {
  let server: TestServer;
  let token: string;
  let s3: S3rverHandle;

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver('error-kinds')]);
    token = await server.login();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const send = async (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: init.headers,
      body: init.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: reported below when it is an error answer
    }
    return { status: res.status, body, contentType: res.headers.get('content-type') ?? '' } satisfies Answer;
  };

  /** An error answer must be the envelope with a listed kind whose status is the HTTP status. */
  const problemOf = (label: string, answer: Answer): string | null => {
    if (answer.status < 400) return null;
    if (label.includes(' HEAD ')) return null; // a HEAD answer has no body to carry the envelope
    const body = answer.body as { code?: unknown; kind?: unknown; success?: unknown; message?: unknown };
    if (typeof body !== 'object' || body === null) return `${label}: ${answer.status} is not an envelope`;
    if (!API_ERROR_KINDS.includes(body.kind as never)) return `${label}: kind ${String(body.kind)} not in the list`;
    const status = ErrorStatus[String(body.kind).toUpperCase() as ErrorKind];
    if (status !== answer.status) return `${label}: kind ${String(body.kind)} is ${status}, answered ${answer.status}`;
    if (body.code !== answer.status || body.success !== false || typeof body.message !== 'string') {
      return `${label}: envelope mismatch ${JSON.stringify(body)}`;
    }
    return null;
  };

  it('every route answers its errors with a kind from the list, whose status is the HTTP status', async () => {
    const routes = new Map<string, { method: string; path: string }>();
    for (const route of server.built.app.routes) {
      if (!route.path.startsWith('/api')) continue;
      const method = route.method === 'ALL' ? 'GET' : route.method;
      routes.set(`${method} ${route.path}`, { method, path: route.path });
    }
    expect(routes.size).toBeGreaterThan(50);

    const problems: string[] = [];
    let errors = 0;
    const probe = async (label: string, method: string, path: string, init: Parameters<typeof send>[2] = {}) => {
      let answer: Answer;
      try {
        answer = await send(method, path, init);
      } catch (error) {
        // An endpoint that streams (events) and stays open is no error answer.
        if ((error as Error).name === 'TimeoutError') return;
        throw error;
      }
      if (answer.status >= 400) errors += 1;
      const problem = problemOf(`${label} ${method} ${path}`, answer);
      if (problem) problems.push(problem);
    };

    const admin = { authorization: `Bearer ${token}` };
    for (const { method, path } of routes.values()) {
      const unknown = concrete(path, 'no-such-id-0000');
      const json = { 'content-type': 'application/json' };
      await probe('no credentials', method, unknown);
      await probe('wrong bearer', method, unknown, { headers: { authorization: 'Bearer not-a-token' } });
      await probe('wrong api key', method, unknown, { headers: { authorization: 'ApiKey cn_not-a-real-key' } });
      await probe('malformed header', method, unknown, { headers: { authorization: 'Basic x' } });
      if (method !== 'GET' && method !== 'HEAD') {
        await probe('malformed json', method, unknown, { headers: { ...admin, ...json }, body: '{"oops":' });
      }
      if (path.includes(':') || path.includes('*')) {
        // Read-only probes with rights: deleting or changing an unknown thing must fail, not touch others.
        await probe('unknown id', method, unknown, {
          headers: admin,
          ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }),
        });
        await probe('dot-dot', 'GET', concrete(path, '%2e%2e%2f%2e%2e%2fetc'), { headers: admin });
      }
      await probe('dot-dot query', 'GET', `${unknown}?path=${encodeURIComponent('/../../etc/passwd')}`, {
        headers: admin,
      });
    }
    await probe('fallback', 'GET', '/api/no/such/endpoint');
    await probe('fallback', 'DELETE', '/api/no/such/endpoint', { headers: admin });
    expect(problems).toEqual([]);
    expect(errors).toBeGreaterThan(routes.size);
    token = await server.login(); // the walk may have logged the session out (POST /api/admin/logout)
  }, 240_000);

  const kindOf = (answer: { status: number; body: { kind?: string } }) => ({
    status: answer.status,
    kind: answer.body.kind,
  });

  it('tells a missing share password from a wrong one (files and pastes)', async () => {
    const shared = await upload(server, 'secret', { token, fields: { password: 'open sesame' } });
    expect(shared.status).toBe(201);
    const slug = shared.body.data!.slug;
    const verify = (password: string) =>
      server.call('POST', `/api/public/files/${slug}/verify`, { body: { password } });
    expect(kindOf(await verify(''))).toEqual({ status: 401, kind: 'password_required' });
    expect(kindOf(await verify('nope'))).toEqual({ status: 401, kind: 'password_wrong' });
    expect((await verify('open sesame')).status).toBe(200);
    expect(kindOf(await send('GET', `/api/file-download/${slug}`).then(asCall))).toEqual({
      status: 401,
      kind: 'password_required',
    });

    const paste = await server.call<{ slug: string }>('POST', '/api/paste', {
      token,
      body: { content: 'hidden', password: 'pw-1234' },
    });
    expect(paste.status).toBe(201);
    const pasteSlug = paste.body.data!.slug;
    const raw = (query: string) => send('GET', `/api/raw/${pasteSlug}${query}`).then(asCall);
    expect(kindOf(await raw(''))).toEqual({ status: 401, kind: 'password_required' });
    expect(kindOf(await raw('?password=wrong'))).toEqual({ status: 401, kind: 'password_wrong' });
    const unlock = await server.call('POST', `/api/paste/${pasteSlug}`, { body: { password: 'wrong' } });
    expect(kindOf(unlock)).toEqual({ status: 401, kind: 'password_wrong' });
  });

  it('says expired for a share whose time or views are used up, and rate_limited after too many guesses', async () => {
    const once = await upload(server, 'once', { token, fields: { max_views: '1' } });
    const slug = once.body.data!.slug;
    expect((await server.call('GET', `/api/public/files/${slug}`)).status).toBe(200);
    expect(kindOf(await server.call('GET', `/api/public/files/${slug}`))).toEqual({ status: 410, kind: 'expired' });

    const paste = await server.call<{ slug: string }>('POST', '/api/paste', {
      token,
      body: { content: 'soon', expires_in: 1 },
    });
    expect(paste.status).toBe(201);
    server.clock.advance(2 * 3600_000);
    expect(kindOf(await server.call('GET', `/api/paste/${paste.body.data!.slug}`))).toEqual({
      status: 410,
      kind: 'expired',
    });

    const locked = await upload(server, 'locked', { token, fields: { password: 'right' } });
    const guess = () =>
      server.call('POST', `/api/public/files/${locked.body.data!.slug}/verify`, { body: { password: 'wrong' } });
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(kindOf(await guess()));
    expect(answers.slice(0, 10).every((a) => a.kind === 'password_wrong')).toBe(true);
    expect(answers[10]).toEqual({ status: 429, kind: 'rate_limited' });
  });

  it('says quota_exceeded on every upload path when the storage capacity would be passed', async () => {
    const config = await createS3Config(server, token, s3, { total_capacity: 1000 });
    const form = await upload(server, new Uint8Array(1500), { token, fields: { s3_config_id: config.id } });
    expect(kindOf(form)).toEqual({ status: 413, kind: 'quota_exceeded' });
    expect(form.body.message).toMatch(/^insufficient storage/);
    const share = { s3_config_id: config.id, filename: 'big.bin', size: 1500 };
    expect(kindOf(await server.call('POST', '/api/s3/presign', { token, body: share }))).toEqual({
      status: 413,
      kind: 'quota_exceeded',
    });
    expect(kindOf(await server.call('POST', '/api/upload/multipart/init', { token, body: share }))).toEqual({
      status: 413,
      kind: 'quota_exceeded',
    });
  });
});

function asCall(answer: Answer): { status: number; body: { kind?: string } } {
  return { status: answer.status, body: answer.body as { kind?: string } };
}
