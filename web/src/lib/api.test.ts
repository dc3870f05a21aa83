import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
// Type-only imports are erased: the modules are loaded below, after the globals are stubbed.
import type * as ApiNs from './api';
import type * as AuthNs from './auth';

// A tiny browser stand-in (the unit project runs in Node): localStorage, events, origin.
const store = new Map<string, string>();
const events: string[] = [];
vi.stubGlobal('window', {
  localStorage: {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  },
  location: { origin: 'http://app.test' },
  addEventListener: () => {},
  removeEventListener: () => {},
  dispatchEvent: (event: Event) => {
    events.push(event.type);
    return true;
  },
});
vi.stubGlobal(
  'CustomEvent',
  class extends Event {
    detail: unknown;
    constructor(type: string, init?: { detail?: unknown }) {
      super(type);
      this.detail = init?.detail;
    }
  },
);

let apiModule: typeof ApiNs;
let auth: typeof AuthNs;

beforeAll(async () => {
  apiModule = await import('./api');
  auth = await import('./auth');
  const i18n = (await import('./i18n')).default;
  await i18n.changeLanguage('en');
});

afterEach(() => {
  store.clear();
  events.length = 0;
});

function respond(status: number, body: unknown, statusText = '') {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status, statusText }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('api client', () => {
  it('calls {origin}/api{path} with JSON and returns data', async () => {
    const fetchMock = respond(200, { code: 200, message: 'ok', data: { a: 1 }, success: true });
    await expect(apiModule.api.post('/things', { x: 1 }, { query: { page: 2, empty: undefined } })).resolves.toEqual({
      a: 1,
    });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://app.test/api/things?page=2');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"x":1}');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('prefers the saved api_base_url and passes absolute URLs unchanged', () => {
    store.set('api_base_url', 'https://api.example.com/');
    expect(apiModule.apiUrl('/health')).toBe('https://api.example.com/api/health');
    expect(apiModule.apiUrl('https://cdn.example.com/x')).toBe('https://cdn.example.com/x');
  });

  it('raises an envelope whose code is not 200/201/202, even on HTTP 200; the server sentence is only a detail', async () => {
    respond(200, { code: 400, message: 'name is required', success: false });
    await expect(apiModule.api.get('/x')).rejects.toMatchObject({
      status: 400,
      message: 'Some of what was entered is not valid',
      serverMessage: 'name is required',
    });
  });

  it('carries the envelope kind on ApiError, and only a kind from the contract list', async () => {
    respond(410, { code: 410, message: 'this file share has expired', kind: 'expired', success: false });
    await expect(apiModule.api.get('/x')).rejects.toMatchObject({ status: 410, kind: 'expired' });
    respond(410, { code: 410, message: 'gone', kind: 'made_up', success: false });
    await expect(apiModule.api.get('/x')).rejects.toMatchObject({ status: 410, kind: undefined });
  });

  it('401 with Bearer logs out and says the admin session expired', async () => {
    store.set('admin_token', 'tok');
    // The module read the session at import; re-save it so the client sends Bearer.
    auth.saveAdminSession('tok');
    const fetchMock = respond(401, { code: 401, message: 'token revoked', success: false });
    await expect(apiModule.api.get('/admin/api-keys')).rejects.toMatchObject({
      status: 401,
      message: 'Admin session expired, please log in again',
      loggedOut: 'admin-token-expired',
    });
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    expect(store.has('admin_token')).toBe(false);
    expect(events).toContain('auth-state-changed');
    expect(events).toContain('admin-token-expired');
  });

  it('401 with ApiKey logs out and says the key is invalid', async () => {
    auth.saveApiKeySession('key-1', 1, null);
    respond(401, { code: 401, message: 'bad key', success: false });
    await expect(apiModule.api.get('/pastes')).rejects.toMatchObject({ message: 'API key invalid or expired' });
    expect(store.has('api_key')).toBe(false);
    expect(store.has('api_key_permissions')).toBe(false);
    expect(events).toContain('api-key-invalid');
  });

  it('a login check (handleAuthErrors: false) never ends the session', async () => {
    auth.saveAdminSession('tok');
    respond(401, { code: 401, message: 'nope', success: false });
    await expect(
      apiModule.api.get('/test/api-key', { auth: { apiKey: 'other' }, handleAuthErrors: false }),
    ).rejects.toMatchObject({ status: 401 });
    expect(store.get('admin_token')).toBe('tok');
  });

  it('409 falls back to the slug text; a status without a kind to HTTP error {status}: {statusText}', async () => {
    respond(409, {});
    await expect(apiModule.api.post('/paste', {})).rejects.toMatchObject({
      message: 'The link suffix is taken, try another suffix',
    });
    respond(504, {}, 'Gateway Timeout');
    await expect(apiModule.api.get('/x')).rejects.toMatchObject({ message: 'HTTP error 504: Gateway Timeout' });
  });

  it('network failure, timeout and abort have their own texts', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(apiModule.api.get('/x')).rejects.toMatchObject({
      status: 0,
      transport: 'network',
      message: 'Network connection failed, check network settings',
    });

    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ),
    );
    await expect(apiModule.api.get('/x', { timeoutMs: 20 })).rejects.toMatchObject({
      transport: 'timeout',
      message: 'Request timed out, the server took too long',
    });
    const controller = new AbortController();
    const pending = apiModule.api.get('/x', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ transport: 'aborted', message: 'Request cancelled or timed out' });
  });

  it('sends FormData as is, without a JSON content type', async () => {
    const fetchMock = respond(201, { code: 201, message: 'created', data: null, success: true });
    const form = new FormData();
    form.append('file', new Blob(['hi']), 'a.txt');
    await apiModule.api.post('/upload', form);
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(init.body).toBe(form);
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  it('uses a 30 s default timeout and 300 s for part uploads', () => {
    expect(apiModule.REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(apiModule.PART_UPLOAD_TIMEOUT_MS).toBe(300_000);
  });
});
