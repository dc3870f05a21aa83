import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  LOGIN_FLOW_TTL_MS,
  Permission,
  type ApiKeyView,
  type LoginFlowApproval,
  type LoginFlowView,
} from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_PASSWORD_PERMISSIONS, MAX_PENDING_FLOWS_PER_ADDRESS } from '../src/services/auth/loginFlowService.js';
import { totpCodeAt } from '../src/security/totp.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount, mountableLocalConfig, mountedLocalRoot } from './support/mounts.js';
import { basicAuth } from './support/webdav.js';

const DESKTOP_UA =
  'Mozilla/5.0 (Linux) mirall/3.7.3 (Nextcloud, debian-6.1.0-13-amd64 ClientArchitecture: x86_64 OsArchitecture: x86_64)';
const NEXTCLOUDCMD = '/usr/bin/nextcloudcmd';

interface Started {
  poll: { token: string; endpoint: string };
  login: string;
}

describe.each(dbTargets)('Nextcloud Login Flow v2 on %s', (target) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    const localId = await mountableLocalConfig(server, token);
    await createMount(server, token, { path: '/local', storage_config_id: localId, cache_ttl: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });

  const start = async (ua = DESKTOP_UA): Promise<Started & { loginToken: string }> => {
    const res = await fetch(`${server.url}/index.php/login/v2`, { method: 'POST', headers: { 'user-agent': ua } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Started;
    const loginToken = decodeURIComponent(/\/connect\/([^/?#]+)$/.exec(body.login)?.[1] ?? '');
    expect(loginToken).not.toBe('');
    return { ...body, loginToken };
  };
  const poll = (endpoint: string, pollToken: string, init: RequestInit = {}) =>
    fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: pollToken }).toString(),
      ...init,
    });
  const flowCall = <T>(method: string, loginToken: string, action = '') =>
    server.call<T>(method, `/api/admin/login-flows/${encodeURIComponent(loginToken)}${action}`, { token });
  const propfind = (user: string, password: string) =>
    fetch(`${server.url}/remote.php/dav/files/${encodeURIComponent(user)}/`, {
      method: 'PROPFIND',
      headers: { authorization: basicAuth(user, password), depth: '1' },
    });

  it('runs the whole flow: start, poll 404, approve as admin, poll 200 once, then the app password works and is revocable', async () => {
    const flow = await start();
    expect(flow.poll.endpoint).toBe(`${server.url}/index.php/login/v2/poll`);
    expect(flow.login).toBe(`${server.url}/connect/${encodeURIComponent(flow.loginToken)}`);
    expect(flow.poll.token).not.toBe(flow.loginToken);

    expect((await poll(flow.poll.endpoint, flow.poll.token)).status).toBe(404);

    // Nextcloud's own browser address of a flow leads to the same page.
    const redirect = await fetch(`${server.url}/index.php/login/v2/flow/${flow.loginToken}`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(`/connect/${flow.loginToken}`);

    // The approval page needs the admin session.
    expect((await server.call('GET', `/api/admin/login-flows/${flow.loginToken}`)).status).toBe(401);
    const shown = await flowCall<LoginFlowView>('GET', flow.loginToken);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({
      client_name: 'Nextcloud (desktop 3.7.3, Linux)',
      user_agent: DESKTOP_UA,
      address: '127.0.0.1',
    });

    const approved = await flowCall<LoginFlowApproval>('POST', flow.loginToken, '/approve');
    expect(approved.status).toBe(200);
    expect(approved.body.data?.name).toBe('Nextcloud (desktop 3.7.3, Linux)');
    // The link is single use.
    expect((await flowCall('POST', flow.loginToken, '/approve')).status).toBe(404);
    expect((await flowCall('GET', flow.loginToken)).status).toBe(404);

    const collected = await poll(flow.poll.endpoint, flow.poll.token);
    expect(collected.status).toBe(200);
    expect(collected.headers.get('cache-control')).toBe('no-store');
    const creds = (await collected.json()) as { server: string; loginName: string; appPassword: string };
    expect(creds.server).toBe(server.url);
    expect(creds.loginName).toBe(`key-${approved.body.data?.key_id}`);
    // Once only.
    expect((await poll(flow.poll.endpoint, flow.poll.token)).status).toBe(404);
    // The approval (by the admin) and the collection (by the app) are in the audit log, never the password.
    await server.built.services.audit.flush();
    const audit = await server.call<{ items: { action: string; target: string | null }[] }>(
      'GET',
      '/api/admin/audit-log?action=api_key.login_flow',
      { token },
    );
    const actions = audit.body.data?.items.map((item) => item.action) ?? [];
    expect(actions).toEqual(expect.arrayContaining(['api_key.login_flow.approve', 'api_key.login_flow.collect']));
    expect(JSON.stringify(audit.body.data)).not.toContain(creds.appPassword);

    // The app password over WebDAV, as the app uses it (login name and password), and as OCS names its user.
    const listing = await propfind(creds.loginName, creds.appPassword);
    expect(listing.status).toBe(207);
    expect(await listing.text()).toContain(`/remote.php/dav/files/${creds.loginName}/local/`);
    const user = await fetch(`${server.url}/ocs/v2.php/cloud/user?format=json`, {
      headers: { authorization: basicAuth(creds.loginName, creds.appPassword) },
    });
    expect(await user.json()).toMatchObject({ ocs: { data: { id: creds.loginName } } });
    // Another key's login name with this password is refused.
    expect((await propfind('key-someoneelse', creds.appPassword)).status).toBe(401);

    // It is an API key: listed, scoped to the tree and WebDAV (no admin, no pastes), revocable.
    const keys = await server.call<ApiKeyView[]>('GET', '/api/admin/api-keys', { token });
    const key = keys.body.data?.find((k) => k.id === approved.body.data?.key_id);
    expect(key?.permissions).toBe(APP_PASSWORD_PERMISSIONS);
    expect(key && key.permissions & Permission.TEXT).toBe(0);
    const asKey = await server.call('GET', '/api/admin/api-keys', { apiKey: creds.appPassword });
    expect(asKey.status).toBe(403);
    expect((await server.call('DELETE', `/api/admin/api-keys/${key?.id}`, { token })).status).toBe(200);
    expect((await propfind(creds.loginName, creds.appPassword)).status).toBe(401);
  });

  it('takes the poll token as a form body, JSON or a query, at /login/v2 too', async () => {
    const flow = await start('Mozilla/5.0 (Android) Nextcloud-android/3.26.0');
    expect((await flowCall<LoginFlowView>('GET', flow.loginToken)).body.data?.client_name).toBe(
      'Nextcloud (Android 3.26.0)',
    );
    const json = await fetch(`${server.url}/login/v2/poll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: flow.poll.token }),
    });
    expect(json.status).toBe(404);
    await flowCall('POST', flow.loginToken, '/approve');
    const query = await fetch(`${server.url}/login/v2/poll?token=${encodeURIComponent(flow.poll.token)}`, {
      method: 'POST',
    });
    expect(query.status).toBe(200);
    // Two apps of the same kind get two keys with distinct names.
    const again = await start('Mozilla/5.0 (Android) Nextcloud-android/3.26.0');
    expect((await flowCall<LoginFlowApproval>('POST', again.loginToken, '/approve')).body.data?.name).toBe(
      'Nextcloud (Android 3.26.0) 2',
    );
  });

  it('denies: the app never gets a password, the link is spent', async () => {
    const flow = await start();
    const keysBefore = (await server.call<ApiKeyView[]>('GET', '/api/admin/api-keys', { token })).body.data?.length;
    expect((await flowCall('POST', flow.loginToken, '/deny')).status).toBe(200);
    expect((await poll(flow.poll.endpoint, flow.poll.token)).status).toBe(404);
    expect((await flowCall('POST', flow.loginToken, '/approve')).status).toBe(404);
    expect((await flowCall('POST', flow.loginToken, '/deny')).status).toBe(404);
    expect((await server.call<ApiKeyView[]>('GET', '/api/admin/api-keys', { token })).body.data?.length).toBe(
      keysBefore,
    );
  });

  it('expires after 20 minutes', async () => {
    const flow = await start();
    const late = await start();
    await flowCall('POST', late.loginToken, '/approve');
    server.clock.advance(LOGIN_FLOW_TTL_MS + 1000);
    try {
      expect((await flowCall('GET', flow.loginToken)).status).toBe(404);
      expect((await flowCall('POST', flow.loginToken, '/approve')).status).toBe(404);
      expect((await poll(flow.poll.endpoint, flow.poll.token)).status).toBe(404);
      // Approved but never collected in time: the password is not handed out any more.
      expect((await poll(late.poll.endpoint, late.poll.token)).status).toBe(404);
    } finally {
      server.clock.advance(-(LOGIN_FLOW_TTL_MS + 1000));
    }
  });

  it('refuses wrong tokens: 404, and guessed poll tokens count like guessed API keys (then 429)', async () => {
    expect((await flowCall('GET', 'x'.repeat(43))).status).toBe(404);
    expect((await flowCall('POST', 'not a token', '/approve')).status).toBe(404);
    expect((await flowCall('POST', 'y'.repeat(43), '/deny')).status).toBe(404);
    const flow = await start();
    // The poll token is not the link, and the link is not the poll token.
    expect((await flowCall('GET', flow.poll.token)).status).toBe(404);
    // An API key session is not the admin.
    const key = await server.call<ApiKeyView>('POST', '/api/admin/api-keys', {
      token,
      body: { name: 'not admin', permissions: Permission.MOUNT_VIEW },
    });
    const asKey = await server.call('POST', `/api/admin/login-flows/${flow.loginToken}/approve`, {
      apiKey: key.body.data?.key,
    });
    expect(asKey.status).toBe(403);

    // Every request here comes from 127.0.0.1 (no TRUST_PROXY): its api_key budget already holds the wrong login
    // of the first test; unknown poll tokens spend the rest (10 a window), then 429.
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await poll(flow.poll.endpoint, `guess${i}${'z'.repeat(40)}`)).status);
    const limited = statuses.indexOf(429);
    expect(limited).toBeGreaterThan(0);
    expect(statuses.slice(0, limited).every((s) => s === 404)).toBe(true);
    // A known token is no guess: the app polling its own flow is not refused for its address's other guesses.
    expect((await poll(flow.poll.endpoint, flow.poll.token)).status).toBe(404);
  });
});

describe('Login Flow v2 start limits', () => {
  it('lets one address keep 20 flows waiting, then answers 429 until they end', async () => {
    const server = await startTestServer('sqlite');
    try {
      const start = () => fetch(`${server.url}/index.php/login/v2`, { method: 'POST' });
      for (let i = 0; i < MAX_PENDING_FLOWS_PER_ADDRESS; i++) expect((await start()).status).toBe(200);
      const refused = await start();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      server.clock.advance(LOGIN_FLOW_TTL_MS + 1000);
      expect((await start()).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('Login Flow v2 with two-factor sign-in on', () => {
  it('gives the app a password that works where the admin password is refused', async () => {
    const server = await startTestServer('sqlite');
    try {
      const token = await server.login();
      const setup = await server.call<{ secret: string }>('POST', '/api/admin/2fa/setup', { token });
      const on = await server.call('POST', '/api/admin/2fa/enable', {
        token,
        body: { code: totpCodeAt(setup.body.data!.secret, server.clock.now().getTime()), password: ADMIN.password },
      });
      expect(on.status).toBe(200);
      const dav = (user: string, password: string) =>
        fetch(`${server.url}/remote.php/dav/files/${user}/`, {
          method: 'PROPFIND',
          headers: { authorization: basicAuth(user, password), depth: '0' },
        });
      expect((await dav(ADMIN.username, ADMIN.password)).status).toBe(401);

      const started = (await (await fetch(`${server.url}/index.php/login/v2`, { method: 'POST' })).json()) as Started;
      const loginToken = decodeURIComponent(started.login.slice(started.login.lastIndexOf('/') + 1));
      // The admin session (signed in before, or with the second factor) answers the flow.
      expect((await server.call('POST', `/api/admin/login-flows/${loginToken}/approve`, { token })).status).toBe(200);
      const creds = (await (
        await fetch(started.poll.endpoint, { method: 'POST', body: new URLSearchParams({ token: started.poll.token }) })
      ).json()) as { loginName: string; appPassword: string };
      expect((await dav(creds.loginName, creds.appPassword)).status).toBe(207);
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(!existsSync(NEXTCLOUDCMD))('nextcloudcmd with an app password from Login Flow v2', () => {
  let server: TestServer;
  let work: string;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    work = mkdtempSync(path.join(tmpdir(), 'clipnest-loginflow-'));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('syncs with the login name and app password the flow handed out', async () => {
    const token = await server.login();
    const localId = await mountableLocalConfig(server, token);
    await createMount(server, token, {
      path: '/local',
      storage_config_id: localId,
      webdav_policy: 'native_proxy',
      cache_ttl: 0,
    });
    const root = mountedLocalRoot(server);
    mkdirSync(path.join(root, 'from-server'), { recursive: true });
    writeFileSync(path.join(root, 'from-server/hello.txt'), 'hello app password\n');

    const started = await fetch(`${server.url}/index.php/login/v2`, {
      method: 'POST',
      headers: { 'user-agent': DESKTOP_UA },
    });
    const flow = (await started.json()) as Started;
    const loginToken = decodeURIComponent(flow.login.slice(flow.login.lastIndexOf('/') + 1));
    expect((await server.call('POST', `/api/admin/login-flows/${loginToken}/approve`, { token })).status).toBe(200);
    const creds = (await (
      await fetch(flow.poll.endpoint, { method: 'POST', body: new URLSearchParams({ token: flow.poll.token }) })
    ).json()) as { loginName: string; appPassword: string };

    const local = path.join(work, 'sync');
    mkdirSync(local);
    writeFileSync(path.join(local, 'from-app.txt'), 'made by the app\n');
    const run = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        NEXTCLOUDCMD,
        ['--non-interactive', '-u', creds.loginName, '-p', creds.appPassword, '--path', '/local', local, server.url],
        { maxBuffer: 16 * 1024 * 1024, timeout: 120_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
      );
    });
    expect(run.code, run.output.slice(-3000)).toBe(0);
    expect(readFileSync(path.join(local, 'from-server/hello.txt'), 'utf8')).toBe('hello app password\n');
    expect(readFileSync(path.join(root, 'from-app.txt'), 'utf8')).toBe('made by the app\n');
  }, 180_000);
});
