import { Permission, type AuditEntry, type AuditLogPage } from '@clipnest/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_AUDIT_RULES, READ_METHODS } from '../src/http/auditRules.js';
import { createApiKey } from './support/apiKeys.js';
import { download } from './support/backups.js';
import { createMount, mountableLocalConfig } from './support/mounts.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';

const CHANGING = ['POST', 'PUT', 'PATCH', 'DELETE'];

describe('the audit trail names every changing route', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('has an action (or a reason to skip it) for every POST/PUT/PATCH/DELETE under /api', () => {
    const routes = new Set(
      server.built.app.routes
        .filter((route) => route.path.startsWith('/api/') && !route.path.endsWith('/*'))
        .filter((route) => CHANGING.includes(route.method))
        .map((route) => `${route.method} ${route.path}`),
    );
    const unnamed = [...routes].filter((key) => !API_AUDIT_RULES[key]);
    expect(unnamed, `name these routes in server/src/http/auditRules.ts: ${unnamed.join(', ')}`).toEqual([]);
    for (const [key, rule] of Object.entries(API_AUDIT_RULES)) {
      if (rule.skip !== undefined) expect(rule.skip.length, key).toBeGreaterThan(5);
      else expect(rule.action, key).toMatch(/^[a-z_]+(\.[a-z_0-9]+)+$/);
      const method = key.split(' ')[0] as string;
      if (READ_METHODS.has(method)) expect(rule.view, `${key} is a read: only views are recorded`).toBe(true);
    }
  });

  it('names no route the app does not have', () => {
    const routes = new Set(server.built.app.routes.map((route) => `${route.method} ${route.path}`));
    expect(Object.keys(API_AUDIT_RULES).filter((key) => !routes.has(key))).toEqual([]);
  });
});

describe('the audit log behind a trusted proxy', () => {
  it('records the client address the proxy forwarded, as the limiter sees it', async () => {
    const server = await startTestServer('sqlite', { TRUST_PROXY: 'true' });
    try {
      await server.call('POST', '/api/admin/login', {
        body: { username: 'admin', password: 'wrong-one' },
        headers: { 'x-forwarded-for': '198.51.100.7, 203.0.113.9' },
      });
      const token = await server.login();
      const res = await server.call<AuditLogPage>('GET', '/api/admin/audit-log?action=auth.login.failed', { token });
      expect(res.body.data!.items[0]?.client).toBe('203.0.113.9');
    } finally {
      await server.close();
    }
  });
});

describe.each(dbTargets)('audit log on %s', (target) => {
  let server: TestServer;
  let token: string;
  const secrets: string[] = [];

  const entries = async (query = '') => {
    const res = await server.call<AuditLogPage>('GET', `/api/admin/audit-log?limit=500${query}`, { token });
    expect(res.status, res.body.message).toBe(200);
    return res.body.data!;
  };
  const actions = async (query = '') => (await entries(query)).items.map((e) => e.action);

  beforeAll(async () => {
    server = await startTestServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('records sign-ins, right and wrong, with the address and request id, never the password', async () => {
    const wrong = 'not-the-password-xyz';
    secrets.push(wrong, ADMIN.password);
    const bad = await server.call('POST', '/api/admin/login', {
      body: { username: 'admin', password: wrong },
      headers: { 'x-request-id': 'req-wrong-login' },
    });
    expect(bad.status).toBe(401);
    token = await server.login();
    const page = await entries('&action=auth.login');
    const failed = page.items.find((e) => e.action === 'auth.login.failed');
    expect(failed).toMatchObject({
      actor: 'anonymous',
      outcome: 'denied',
      status: 401,
      client: '127.0.0.1',
      request_id: 'req-wrong-login',
      target: 'username=admin',
    });
    const ok = page.items.find((e) => e.action === 'auth.login');
    expect(ok).toMatchObject({ actor: 'admin:admin', outcome: 'success', status: 200, client: '127.0.0.1' });
    // `auth.login` as a filter is the family: the failure is in it too.
    expect(page.items.map((e) => e.action).sort()).toEqual(['auth.login', 'auth.login.failed']);
  });

  it('records changes with the actor, the target and the outcome; keys by id and name', async () => {
    const key = await createApiKey(server, token, { name: 'script-key', permissions: Permission.TEXT });
    secrets.push(key.key);
    const paste = await server.call<{ slug: string; id: string }>('POST', '/api/paste', {
      apiKey: key.key,
      body: { content: 'hello', password: 'paste-secret-pw', slug: 'audited-paste' },
    });
    secrets.push('paste-secret-pw');
    expect(paste.status).toBe(201);
    const del = await server.call('DELETE', `/api/pastes/${paste.body.data!.id}`, { token });
    expect(del.status).toBe(200);
    const items = (await entries()).items;
    expect(items.find((e) => e.action === 'api_key.create')).toMatchObject({
      actor: 'admin:admin',
      outcome: 'success',
      status: 201,
    });
    expect(items.find((e) => e.action === 'api_key.create')?.target).toContain('name=script-key');
    expect(items.find((e) => e.action === 'paste.create')).toMatchObject({
      actor: `apikey:${key.id}`,
      actor_name: 'script-key',
      target: expect.stringContaining('slug=audited-paste'),
    });
    expect(items.find((e) => e.action === 'paste.delete')?.target).toContain(`id=${paste.body.data!.id}`);
    // newest first
    expect(items.findIndex((e) => e.action === 'paste.delete')).toBeLessThan(
      items.findIndex((e) => e.action === 'paste.create'),
    );
  });

  it('records every failed key use: unknown keys, missing permissions, also on public pages', async () => {
    const unknown = 'cn_this-key-does-not-exist-0000';
    secrets.push(unknown);
    expect((await server.call('POST', '/api/paste', { apiKey: unknown, body: { content: 'x' } })).status).toBe(401);
    // A public page with a bad key goes on as anonymous: still recorded.
    await server.call('POST', '/api/paste', { token, body: { content: 'public', slug: 'public-paste' } });
    expect((await server.call('GET', '/api/paste/public-paste', { apiKey: unknown })).status).toBe(200);
    const weak = await createApiKey(server, token, { name: 'weak-key', permissions: Permission.TEXT });
    secrets.push(weak.key);
    expect((await server.call('GET', '/api/admin/audit-log', { apiKey: weak.key })).status).toBe(403);
    expect((await server.call('GET', '/api/files', { apiKey: weak.key })).status).toBe(403);
    const failed = (await entries('&action=auth.apikey.failed')).items;
    expect(failed.filter((e) => e.actor === 'anonymous').map((e) => e.target)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('paste.create'),
        expect.stringContaining('paste.view slug=public-paste'),
      ]),
    );
    const denied = failed.filter((e) => e.actor === `apikey:${weak.id}`);
    expect(denied.map((e) => e.status)).toEqual([403, 403]);
    expect(denied[0]).toMatchObject({ actor_name: 'weak-key', outcome: 'denied' });
    expect(denied.every((e) => e.detail)).toBe(true);
  });

  it('refuses the log to key holders and anonymous callers', async () => {
    expect((await server.call('GET', '/api/admin/audit-log')).status).toBe(401);
    const holder = await createApiKey(server, token, { name: 'all', permissions: 204547 });
    secrets.push(holder.key);
    expect((await server.call('GET', '/api/admin/audit-log', { apiKey: holder.key })).status).toBe(403);
    const csv = await fetch(`${server.url}/api/admin/audit-log?format=csv`, {
      headers: { authorization: `ApiKey ${holder.key}` },
    });
    expect(csv.status).toBe(403);
  });

  it('records settings changes by key name, never their values; storage secrets stay out', async () => {
    const res = await server.call('PUT', '/api/admin/settings/group/1', {
      token,
      body: { proxy_sign_expires: 60 },
    });
    expect(res.status, res.body.message).toBe(200);
    const entry = (await entries('&action=settings.update')).items[0]!;
    expect(entry.target).toBe('group=1 keys=proxy_sign_expires');
    const secret = 'storage-secret-AKIA-987654321';
    secrets.push(secret);
    const created = await server.call('POST', '/api/s3-configs', {
      token,
      body: {
        name: 'audited s3',
        storage_type: 's3',
        provider: 'minio',
        endpoint: 'http://127.0.0.1:9',
        bucket: 'b',
        access_key_id: 'access-id',
        secret_access_key: secret,
      },
    });
    expect(created.status, created.body.message).toBe(201);
    expect((await entries('&action=storage_config')).items[0]).toMatchObject({
      action: 'storage_config.create',
      target: expect.stringContaining('name=audited s3'),
    });
  });

  it('records fs writes and WebDAV writes and refused WebDAV credentials', async () => {
    const configId = await mountableLocalConfig(server, token);
    await createMount(server, token, { path: '/audited', storage_config_id: configId });
    expect((await server.call('POST', '/api/fs/mkdir', { token, body: { path: '/audited/docs/' } })).status).toBe(201);
    const basic = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
    const put = await fetch(`${server.url}/dav/audited/docs/note.txt`, {
      method: 'PUT',
      headers: { authorization: basic },
      body: 'hi',
    });
    expect(put.status).toBe(201);
    const wrongDav = `Basic ${Buffer.from('admin:dav-wrong-password').toString('base64')}`;
    secrets.push('dav-wrong-password');
    expect(
      (await fetch(`${server.url}/dav/audited/`, { method: 'DELETE', headers: { authorization: wrongDav } })).status,
    ).toBe(401);
    const items = (await entries()).items;
    expect(items.find((e) => e.action === 'fs.mkdir')?.target).toContain('path=/audited/docs/');
    expect(items.find((e) => e.action === 'webdav.put')).toMatchObject({
      actor: 'admin:admin',
      target: 'path=/audited/docs/note.txt',
      status: 201,
    });
    expect(items.find((e) => e.action === 'auth.webdav.failed')).toMatchObject({
      actor: 'anonymous',
      status: 401,
      target: 'DELETE /audited/',
    });
  });

  it('does not record views unless the setting says so', async () => {
    await server.call('POST', '/api/paste', { token, body: { content: 'viewed', slug: 'viewed-paste' } });
    expect((await server.call('GET', '/api/paste/viewed-paste')).status).toBe(200);
    expect(await actions('&action=paste.view')).toEqual([]);
    await server.call('PUT', '/api/admin/settings/group/1', { token, body: { audit_log_views: true } });
    server.built.services.settings.cacheHandle().clear();
    expect((await server.call('GET', '/api/paste/viewed-paste')).status).toBe(200);
    expect((await entries('&action=paste.view')).items[0]).toMatchObject({
      actor: 'anonymous',
      target: 'slug=viewed-paste',
    });
    await server.call('PUT', '/api/admin/settings/group/1', { token, body: { audit_log_views: false } });
    server.built.services.settings.cacheHandle().clear();
  });

  it('filters by action, actor and time, and pages with a total', async () => {
    const all = await entries();
    expect(all.total).toBe(all.items.length);
    const admin = await entries('&actor=admin:admin');
    expect(admin.items.every((e) => e.actor === 'admin:admin')).toBe(true);
    const keys = await entries('&actor=apikey:');
    expect(keys.items.length).toBeGreaterThan(0);
    expect(keys.items.every((e) => e.actor.startsWith('apikey:'))).toBe(true);
    const pageOne = await server.call<AuditLogPage>('GET', '/api/admin/audit-log?limit=2&offset=0', { token });
    const pageTwo = await server.call<AuditLogPage>('GET', '/api/admin/audit-log?limit=2&offset=2', { token });
    expect(pageOne.body.data!.items.map((e) => e.id)).toEqual(all.items.slice(0, 2).map((e) => e.id));
    expect(pageTwo.body.data!.items.map((e) => e.id)).toEqual(all.items.slice(2, 4).map((e) => e.id));
    expect(pageOne.body.data!.total).toBe(all.total);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await entries(`&from=${encodeURIComponent(future)}`)).total).toBe(0);
    expect((await entries(`&to=${encodeURIComponent(future)}`)).total).toBe(all.total);
    const bad = await server.call('GET', '/api/admin/audit-log?from=yesterday', { token });
    expect(bad.status).toBe(400);
    expect((await server.call('GET', '/api/admin/audit-log?limit=100000', { token })).status).toBe(400);
  });

  it('exports the filtered log as CSV, escaped and safe from formulas', async () => {
    await server.call('POST', '/api/admin/login', {
      body: { username: '=cmd|calc, "x"', password: 'nope-nope' },
      headers: { 'x-request-id': '-23.x' },
    });
    const res = await fetch(`${server.url}/api/admin/audit-log?format=csv&action=auth.login.failed`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="audit-log-/);
    const text = await res.text();
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('at,actor,actor_name,action,target,outcome,status,client,request_id,detail,id');
    expect(
      lines
        .slice(1)
        .filter(Boolean)
        .every((line) => line.includes('auth.login.failed')),
    ).toBe(true);
    expect(text).toContain(`"username==cmd|calc, ""x"""`);
    expect(text).toContain(",'-23.x,");
  });

  it('streams a large export page by page', async () => {
    const audit = server.built.services.audit;
    for (let i = 0; i < 1200; i++) audit.record({ action: 'test.bulk', target: `n=${i}` });
    const res = await fetch(`${server.url}/api/admin/audit-log?format=csv&action=test.bulk`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const lines = (await res.text()).split('\r\n').filter(Boolean);
    expect(lines.length).toBe(1201);
    expect(new Set(lines).size).toBe(1201);
  });

  it('has no API that deletes entries', async () => {
    for (const method of ['DELETE', 'POST', 'PUT', 'PATCH']) {
      const res = await server.call(method, '/api/admin/audit-log', { token });
      expect(res.status, method).toBe(404);
    }
    expect(server.built.app.routes.filter((r) => r.path.includes('audit-log')).map((r) => r.method)).toEqual(['GET']);
  });

  it('sweeps entries older than the retention setting; 0 keeps them', async () => {
    const db = server.built.database.db;
    const old = new Date(Date.now() - 400 * 86_400_000).toISOString();
    await db
      .insertInto('audit_log')
      .values({ id: '000000000old1', at: old, actor: 'anonymous', action: 'test.old', outcome: 'success', status: 200 })
      .execute();
    await server.call('PUT', '/api/admin/settings/group/1', { token, body: { audit_log_retention_days: 0 } });
    server.built.services.settings.cacheHandle().clear();
    expect(await server.built.services.audit.sweep()).toBe(0);
    await server.call('PUT', '/api/admin/settings/group/1', { token, body: { audit_log_retention_days: 365 } });
    server.built.services.settings.cacheHandle().clear();
    expect(await server.built.services.audit.sweep()).toBe(1);
    expect(await actions('&action=test.old')).toEqual([]);
    expect((await entries()).total).toBeGreaterThan(10);
    expect(
      (await server.call('PUT', '/api/admin/settings/group/1', { token, body: { audit_log_retention_days: -1 } }))
        .status,
    ).toBe(400);
  });

  it('leaves the log out of backups, and a restore keeps it (and is recorded)', async () => {
    const before = (await entries()).total;
    const { status, file } = await download(server, token, { backup_type: 'full' });
    expect(status).toBe(200);
    expect(Object.keys(file.tables)).not.toContain('audit_log');
    const res = await server.call('POST', '/api/admin/backup/restore', {
      token,
      body: { mode: 'overwrite', backup: file },
    });
    expect(res.status, res.body.message).toBe(200);
    token = await server.login();
    const after = await entries();
    expect(after.total).toBeGreaterThanOrEqual(before + 2);
    expect(after.items.find((e) => e.action === 'backup.restore')).toMatchObject({ outcome: 'success' });
    expect(after.items.find((e) => e.action === 'backup.create')).toMatchObject({ actor: 'admin:admin' });
  });

  it('keeps every secret of the session out of every entry', async () => {
    await server.built.services.audit.flush();
    const { rows } = await sql<Record<string, unknown>>`select * from audit_log`.execute(server.built.database.db);
    expect(rows.length).toBeGreaterThan(20);
    const text = JSON.stringify(rows);
    expect(secrets.length).toBeGreaterThan(6);
    for (const secret of [...secrets, token]) expect(text, secret).not.toContain(secret);
    const entries = rows as unknown as AuditEntry[];
    expect(entries.some((e) => e.action === 'auth.password.change')).toBe(false);
  });
});
