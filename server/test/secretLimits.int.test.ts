import { Permission } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from './support/fileShares.js';
import { ADMIN, dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { createKey, createPaste } from './support/pastes.js';

const WINDOW_MS = 15 * 60_000;
const LIMIT = 10;

let lastClient = 0;
/** A fresh client address per scenario, so scenarios never share a bucket. */
function newClient(): string {
  lastClient++;
  return `198.51.${Math.floor(lastClient / 250)}.${(lastClient % 250) + 1}`;
}

function randomAddress(): string {
  return Array.from({ length: 4 }, () => Math.floor(Math.random() * 256)).join('.');
}

interface Answer {
  status: number;
  headers: Headers;
  /** The envelope when the answer is JSON. */
  body?: { code: number; message: string; success: boolean };
}

/**
 * One request as `client` behind a trusting proxy: the proxy appends the address it saw, and the
 * client prepends entries of its own choosing (spoofing) to every request.
 */
async function send(server: TestServer, client: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  headers.set('x-forwarded-for', `${randomAddress()}, ${randomAddress()}, ${client}`);
  const res = await fetch(server.url + path, { ...init, headers, redirect: 'manual' });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('application/json');
  return { status: res.status, headers: res.headers, body: json ? (JSON.parse(text) as Answer['body']) : undefined };
}

const postJson = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const q = (password: string) => `?password=${encodeURIComponent(password)}`;

/** A secret entry point: `prepare` makes a fresh target and answers how to try a secret on it. */
interface EntryPoint {
  name: string;
  prepare(
    server: TestServer,
    token: string,
  ): Promise<{ right: string; attempt: (secret: string, client: string) => Promise<Answer> }>;
}

async function passwordFile(server: TestServer, token: string, password: string) {
  const res = await upload(server, 'guarded bytes', {
    token,
    fields: { password },
    filename: 'guarded.txt',
    type: 'text/plain',
  });
  if (res.status !== 201 || !res.body.data) throw new Error(`upload failed: ${res.status} ${res.body.message}`);
  return encodeURIComponent(res.body.data.slug);
}

const entryPoints: EntryPoint[] = [
  {
    name: 'admin login',
    prepare: async (server) => ({
      right: ADMIN.password,
      attempt: (password, client) =>
        send(server, client, '/api/admin/login', postJson({ username: ADMIN.username, password })),
    }),
  },
  {
    name: 'paste unlock (POST /api/paste/{slug})',
    prepare: async (server, token) => {
      const { slug } = await createPaste(server, { token }, { content: 'secret text', password: 'paste-pw' });
      return {
        right: 'paste-pw',
        attempt: (password, client) => send(server, client, `/api/paste/${slug}`, postJson({ password })),
      };
    },
  },
  {
    name: 'raw paste (GET /api/raw/{slug}?password=)',
    prepare: async (server, token) => {
      const { slug } = await createPaste(server, { token }, { content: 'secret text', password: 'raw-pw' });
      return { right: 'raw-pw', attempt: (password, client) => send(server, client, `/api/raw/${slug}${q(password)}`) };
    },
  },
  {
    name: 'file share verify (POST /api/public/files/{slug}/verify)',
    prepare: async (server, token) => {
      const slug = await passwordFile(server, token, 'file-pw');
      return {
        right: 'file-pw',
        attempt: (password, client) => send(server, client, `/api/public/files/${slug}/verify`, postJson({ password })),
      };
    },
  },
  {
    name: 'file download (GET /api/file-download/{slug}?password=)',
    prepare: async (server, token) => {
      const slug = await passwordFile(server, token, 'dl-pw');
      return {
        right: 'dl-pw',
        attempt: (password, client) => send(server, client, `/api/file-download/${slug}${q(password)}`),
      };
    },
  },
  {
    name: 'file view (GET /api/file-view/{slug}?password=)',
    prepare: async (server, token) => {
      const slug = await passwordFile(server, token, 'view-pw');
      return {
        right: 'view-pw',
        attempt: (password, client) => send(server, client, `/api/file-view/${slug}${q(password)}`),
      };
    },
  },
  {
    name: 'office preview (GET /api/office-preview/{slug}?password=)',
    prepare: async (server, token) => {
      const slug = await passwordFile(server, token, 'office-pw');
      return {
        right: 'office-pw',
        attempt: (password, client) => send(server, client, `/api/office-preview/${slug}${q(password)}`),
      };
    },
  },
  {
    name: 'API key (Authorization: ApiKey …)',
    prepare: async (server, token) => {
      const key = await createKey(server, token, `key-${Math.random().toString(36).slice(2)}`, Permission.TEXT);
      return {
        right: key,
        attempt: (secret, client) =>
          send(server, client, '/api/test/api-key', { headers: { authorization: `ApiKey ${secret}` } }),
      };
    },
  },
];

function expectLimited(answer: Answer): void {
  expect(answer.status).toBe(429);
  expectEnvelope(answer.body as never, 429);
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);
}

describe.each(dbTargets)('secret attempt limits on %s (TRUST_PROXY=true)', (target) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(target, { TRUST_PROXY: 'true' });
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  describe.each(entryPoints)('$name', (entry) => {
    it('refuses the 11th attempt in a row with 429 + Retry-After (right secret too); other clients and the next window get in', async () => {
      const { right, attempt } = await entry.prepare(server, token);
      const client = newClient();
      for (let i = 0; i < LIMIT; i++) {
        const answer = await attempt(`wrong-${i}-${Math.random()}`, client);
        expect(answer.status).toBe(401);
      }
      expectLimited(await attempt(right, client));
      expectLimited(await attempt('wrong-again', client));
      // The right secret from another client still works while this one is limited.
      expect((await attempt(right, newClient())).status).toBe(200);
      // The window ends: the client is not locked out for good.
      server.clock.advance(WINDOW_MS + 1000);
      expect((await attempt(right, client)).status).toBe(200);
    });

    it('limits 50 guesses sent at once, the right one last, exactly like 50 in a row', async () => {
      const { right, attempt } = await entry.prepare(server, token);
      const client = newClient();
      const secrets = [...Array.from({ length: 49 }, (_, i) => `parallel-wrong-${i}`), right];
      const answers = await Promise.all(secrets.map((secret) => attempt(secret, client)));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(LIMIT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(secrets.length - LIMIT);
      expectLimited(answers.at(-1) as Answer);
      expect((await attempt(right, newClient())).status).toBe(200);
    });
  });

  it('limits failed logins with random usernames from one client, and the admin from that client too', async () => {
    const client = newClient();
    const login = (username: string, password: string) =>
      send(server, client, '/api/admin/login', postJson({ username, password }));
    for (let i = 0; i < LIMIT; i++) {
      expect((await login(`nobody-${Math.random().toString(36).slice(2)}`, 'whatever-password')).status).toBe(401);
    }
    expectLimited(await login(`nobody-${Math.random().toString(36).slice(2)}`, 'whatever-password'));
    expectLimited(await login(ADMIN.username, ADMIN.password));
    const elsewhere = await send(server, newClient(), '/api/admin/login', postJson(ADMIN));
    expect(elsewhere.status).toBe(200);
  });

  it('a client limited for unknown API keys still sees public pages as anonymous', async () => {
    const { slug } = await createPaste(server, { token }, { content: 'public text' });
    const client = newClient();
    const withKey = (path: string, key: string) =>
      send(server, client, path, { headers: { authorization: `ApiKey ${key}` } });
    for (let i = 0; i < LIMIT; i++) expect((await withKey('/api/test/api-key', `unknown-${i}`)).status).toBe(401);
    expectLimited(await withKey('/api/test/api-key', 'unknown-again'));
    expect((await withKey(`/api/paste/${slug}`, 'unknown-again')).status).toBe(200);
  });

  it('reads the client from the rightmost X-Forwarded-For entry: prepended entries neither reset nor dodge the limit', async () => {
    const client = newClient();
    const login = (forwardedFor: string, password = 'wrong-password') =>
      fetch(`${server.url}/api/admin/login`, {
        ...postJson({ username: ADMIN.username, password }),
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      });
    for (let i = 0; i < LIMIT; i++) {
      // A different spoofed chain on every request (what a client behind an appending proxy controls).
      const spoofed = Array.from({ length: 1 + (i % 3) }, randomAddress).join(', ');
      expect((await login(`${spoofed}, ${client}`)).status).toBe(401);
    }
    expect((await login(`${randomAddress()}, ${client}`, ADMIN.password)).status).toBe(429);
    expect((await login(`${client}, ${randomAddress()}, ${client}`, ADMIN.password)).status).toBe(429);
    // Naming the limited address on the left does not make another client limited either.
    expect((await login(`${client}, ${newClient()}`, ADMIN.password)).status).toBe(200);
  });
});
