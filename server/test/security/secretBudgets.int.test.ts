// Issue 34 point 14: one guessing budget per secret, whatever the door. WebDAV Basic and the login form counted
// failures in buckets of their own, so one address had 20 guesses at the admin password per window (10 per door);
// an API key sent as WebDAV user and password did not count with the `ApiKey` header either. Now the admin password
// has one budget (login form, password change, WebDAV Basic) and API keys one (`ApiKey` header, WebDAV Basic).
import { Permission } from '@clipnest/contract';
import { describe, expect, it } from 'vitest';
import { withAdminServer } from '../support/adminServer.js';
import { createApiKey } from '../support/apiKeys.js';
import { ADMIN, dbTargets, expectEnvelope, type TestServer } from '../support/harness.js';
import { basicAuth } from '../support/webdav.js';

const LIMIT = 10;

describe.each(dbTargets)('guessing budgets on %s', (target) => {
  let server: TestServer;
  let token: string;
  withAdminServer(target, (started) => ({ server, token } = started));

  // Every request of the server comes from 127.0.0.1: each test leaves the budgets it used in a new window.
  const nextWindow = () => server.clock.advance(16 * 60_000);

  const login = (password: string) =>
    fetch(`${server.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.username, password }),
    });
  const webdav = (user: string, password: string) =>
    fetch(`${server.url}/dav/`, {
      method: 'PROPFIND',
      headers: { depth: '0', authorization: basicAuth(user, password) },
    });
  const apiKeyHeader = (key: string) =>
    fetch(`${server.url}/api/test/api-key`, { headers: { authorization: `ApiKey ${key}` } });

  it('the admin password: WebDAV and login failures share one budget of 10 (not 10 per door)', async () => {
    nextWindow();
    for (let i = 0; i < LIMIT / 2; i++) {
      expect((await webdav(ADMIN.username, `wrong-dav-${i}`)).status).toBe(401);
      expect((await login(`wrong-login-${i}`)).status).toBe(401);
    }
    // Ten wrong guesses at one secret: the next attempt at it is refused at every door, the right password too.
    const refused = await login(ADMIN.password);
    expect(refused.status).toBe(429);
    expectEnvelope((await refused.json()) as never, 429);
    expect((await webdav(ADMIN.username, ADMIN.password)).status).toBe(429);
    expect((await webdav(ADMIN.username, 'wrong-again')).status).toBe(429);
  });

  it('ten wrong WebDAV passwords leave no further guesses on the login form', async () => {
    nextWindow();
    for (let i = 0; i < LIMIT; i++) expect((await webdav(ADMIN.username, `wrong-${i}`)).status).toBe(401);
    expect((await login(`wrong-login`)).status).toBe(429);
  });

  it('API keys: wrong keys through the ApiKey header and through WebDAV Basic share one budget', async () => {
    nextWindow();
    const key = await createApiKey(server, token, {
      name: 'budget key',
      permissions: Permission.WEBDAV_READ,
      basic_path: '/',
    });
    for (let i = 0; i < LIMIT / 2; i++) {
      expect((await apiKeyHeader(`cn_wrong_header_${i}`)).status).toBe(401);
      const guess = `cn_wrong_dav_${i}`;
      expect((await webdav(guess, guess)).status).toBe(401);
    }
    expect((await apiKeyHeader(`cn_wrong_header_last`)).status).toBe(429);
    expect((await webdav(key.key, key.key)).status).toBe(429);
    // Another window: the right key works at both doors.
    nextWindow();
    expect((await webdav(key.key, key.key)).status).toBe(207);
  });
});
