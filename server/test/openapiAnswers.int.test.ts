// Real answers of the server fit the schemas GET /api/openapi.json gives for them (success and error answers),
// for a spread of endpoints: pastes, file shares, the fs tree, storage configs, mounts, API keys, settings, tasks.
import { Permission } from '@clipnest/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from './support/apiKeys.js';
import { withAdminServer } from './support/adminServer.js';
import { upload } from './support/fileShares.js';
import { fsUpload } from './support/fsApi.js';
import { dbTargets, type CallOptions, type TestServer } from './support/harness.js';
import { createMount, mountableLocalConfig } from './support/mounts.js';
import { answerChecker, type JsonValue } from './support/openapiSchemas.js';

describe.each(dbTargets)('real answers against the OpenAPI document (%s)', (target) => {
  let server: TestServer;
  let token: string;
  let check: ReturnType<typeof answerChecker>;
  withAdminServer(target, (started) => ({ server, token } = started));

  beforeAll(async () => {
    check = answerChecker((await (await fetch(`${server.url}/api/openapi.json`)).json()) as JsonValue);
  });

  /** Calls `path` as `operation` says (its method) and answers the problems of its answer against the document. */
  const problems: string[] = [];
  const call = async (operation: string, path: string, options: CallOptions = {}, expected?: number) => {
    const method = operation.split(' ')[0]!;
    const res = await server.call(method, path, options);
    if (expected !== undefined && res.status !== expected) {
      problems.push(`${operation}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    const problem = check(operation, res.status, res.body);
    if (problem) problems.push(problem);
    return res.body.data as Record<string, unknown> | undefined;
  };

  it('system, auth, API keys and settings', async () => {
    problems.length = 0;
    await call('GET /api/version', '/api/version', {}, 200);
    await call('GET /api/health', '/api/health', {}, 200);
    await call('GET /api/health/ready', '/api/health/ready', {}, 200);
    await call('GET /api/test/admin-token', '/api/test/admin-token', { token }, 200);
    const key = await call(
      'POST /api/admin/api-keys',
      '/api/admin/api-keys',
      { token, body: { name: 'openapi', permissions: Permission.TEXT | Permission.FILE_SHARE, expires_in_days: 7 } },
      201,
    );
    await call('GET /api/admin/api-keys', '/api/admin/api-keys', { token }, 200);
    await call(
      'PUT /api/admin/api-keys/{id}',
      `/api/admin/api-keys/${String(key?.id)}`,
      { token, body: { enabled: true } },
      200,
    );
    await call('GET /api/test/api-key', '/api/test/api-key', { apiKey: String(key?.key) }, 200);
    await call('GET /api/admin/settings', '/api/admin/settings', { token }, 200);
    await call('GET /api/admin/settings/groups', '/api/admin/settings/groups', { token }, 200);
    await call('GET /api/admin/settings/metadata', '/api/admin/settings/metadata?key=site_title', { token }, 200);
    await call(
      'PUT /api/admin/settings/group/{group}',
      '/api/admin/settings/group/4',
      { token, body: { site_title: 'Docs' } },
      200,
    );
    await call('GET /api/public/site-settings', '/api/public/site-settings', {}, 200);
    await call('GET /api/admin/cache/stats', '/api/admin/cache/stats', { token }, 200);
    await call('GET /api/admin/dashboard/stats', '/api/admin/dashboard/stats', { token }, 200);
    await call('GET /api/admin/backup/schedule', '/api/admin/backup/schedule', { token }, 200);
    await call('DELETE /api/admin/api-keys/{id}', `/api/admin/api-keys/${String(key?.id)}`, { token }, 200);
    expect(problems).toEqual([]);
  });

  it('pastes: create, view, lock, list, detail, update, delete', async () => {
    problems.length = 0;
    const created = await call(
      'POST /api/paste',
      '/api/paste',
      { token, body: { content: '# hello', remark: 'r' } },
      201,
    );
    const locked = await call(
      'POST /api/paste',
      '/api/paste',
      { token, body: { content: 'secret', password: 'pw' } },
      201,
    );
    await call('GET /api/paste/{slug}', `/api/paste/${String(created?.slug)}`, {}, 200);
    await call('GET /api/paste/{slug}', `/api/paste/${String(locked?.slug)}`, {}, 200);
    await call('POST /api/paste/{slug}', `/api/paste/${String(locked?.slug)}`, { body: { password: 'pw' } }, 200);
    await call('POST /api/paste/{slug}', `/api/paste/${String(locked?.slug)}`, { body: { password: 'no' } }, 401);
    await call('GET /api/pastes', '/api/pastes?limit=5', { token }, 200);
    await call('GET /api/pastes/{id}', `/api/pastes/${String(created?.id)}`, { token }, 200);
    await call('PUT /api/pastes/{id}', `/api/pastes/${String(created?.id)}`, { token, body: { remark: 'new' } }, 200);
    await call(
      'POST /api/pastes/batch-delete',
      '/api/pastes/batch-delete',
      { token, body: { ids: [String(locked?.id)] } },
      200,
    );
    await call('DELETE /api/pastes/{id}', `/api/pastes/${String(created?.id)}`, { token }, 200);
    await call('GET /api/paste/{slug}', `/api/paste/${String(created?.slug)}`, {}, 404);
    expect(problems).toEqual([]);
  });

  it('file shares, storage configs, mounts and the fs tree', async () => {
    problems.length = 0;
    const uploaded = await upload(server, 'openapi bytes', { token, filename: 'notes.txt', type: 'text/plain' });
    expect(uploaded.status).toBe(201);
    const uploadProblem = check('POST /api/upload', uploaded.status, uploaded.body);
    if (uploadProblem) problems.push(uploadProblem);
    const file = uploaded.body.data!;
    await call('GET /api/files', '/api/files', { token }, 200);
    await call('GET /api/files/{id}', `/api/files/${file.id}`, { token }, 200);
    await call('PUT /api/files/{id}', `/api/files/${file.id}`, { token, body: { remark: 'x', password: 'pw' } }, 200);
    await call('GET /api/public/files/{slug}', `/api/public/files/${file.slug}`, {}, 200);
    await call(
      'POST /api/public/files/{slug}/verify',
      `/api/public/files/${file.slug}/verify`,
      { body: { password: 'pw' } },
      200,
    );
    await call('GET /api/system/max-upload-size', '/api/system/max-upload-size', {}, 200);
    await call('DELETE /api/files/batch-delete', '/api/files/batch-delete', { token, body: { ids: [file.id] } }, 200);

    await call('GET /api/s3-configs', '/api/s3-configs', { token }, 200);
    const configId = await mountableLocalConfig(server, token);
    await call('GET /api/s3-configs/{id}', `/api/s3-configs/${configId}`, { token }, 200);
    await call('POST /api/s3-configs/{id}/test', `/api/s3-configs/${configId}/test`, { token }, 200);
    await call(
      'PUT /api/s3-configs/{id}',
      `/api/s3-configs/${configId}`,
      { token, body: { total_capacity: null } },
      200,
    );
    const mount = await createMount(server, token, { path: '/docs', storage_config_id: configId });
    await call('GET /api/mount/list', '/api/mount/list', { token }, 200);
    await call('PUT /api/mount/{id}', `/api/mount/${mount.id}`, { token, body: { remark: 'r' } }, 200);
    await call('DELETE /api/s3-configs/{id}', `/api/s3-configs/${configId}`, { token }, 409);

    await call('POST /api/fs/mkdir', '/api/fs/mkdir', { token, body: { path: '/docs/a' } }, 201);
    const put = await fsUpload(server, { token }, 'tree bytes', { before: { path: '/docs/a' }, filename: 'b.txt' });
    const putProblem = check('POST /api/fs/upload', put.status, put.body);
    if (putProblem) problems.push(putProblem);
    await call('GET /api/fs/list', '/api/fs/list?path=/', { token }, 200);
    await call('GET /api/fs/list', '/api/fs/list?path=/docs/a', { token }, 200);
    await call('GET /api/fs/get', '/api/fs/get?path=/docs/a/b.txt', { token }, 200);
    await call('GET /api/fs/file-link', '/api/fs/file-link?path=/docs/a/b.txt', { token }, 200);
    await call(
      'POST /api/fs/rename',
      '/api/fs/rename',
      { token, body: { oldPath: '/docs/a/b.txt', newPath: '/docs/a/c.txt' } },
      200,
    );
    await call(
      'POST /api/fs/update',
      '/api/fs/update',
      { token, body: { path: '/docs/a/c.txt', content: 'edited' } },
      200,
    );
    await call('POST /api/fs/create-share', '/api/fs/create-share', { token, body: { path: '/docs/a/c.txt' } }, 201);
    await call('GET /api/fs/tasks', '/api/fs/tasks', { token }, 200);
    await call('GET /api/fs/search', '/api/fs/search?q=zz', { token }, 200);
    await call('POST /api/fs/batch-remove', '/api/fs/batch-remove', { token, body: { paths: ['/docs/a'] } }, 200);
    await call('GET /api/fs/get', '/api/fs/get?path=/docs/a', { token }, 404);
    await call('DELETE /api/mount/{id}', `/api/mount/${mount.id}`, { token }, 200);
    expect(problems).toEqual([]);
  });

  it('folder shares, sign-in security and the audit log', async () => {
    problems.length = 0;
    const configId = await mountableLocalConfig(server, token);
    const mount = await createMount(server, token, { path: '/shared', storage_config_id: configId });
    await call('POST /api/fs/mkdir', '/api/fs/mkdir', { token, body: { path: '/shared/photos' } }, 201);
    await fsUpload(server, { token }, 'share bytes', { before: { path: '/shared/photos' }, filename: 'a.txt' });
    const share = await call(
      'POST /api/shares',
      '/api/shares',
      { token, body: { path: '/shared/photos', password: 'pw-123456', max_downloads: 5 } },
      201,
    );
    const slug = String(share?.slug);
    await call('GET /api/shares', '/api/shares', { token }, 200);
    await call('GET /api/shares/{slug}', `/api/shares/${slug}`, {}, 200);
    const pw = { headers: { 'x-share-password': 'pw-123456' } };
    await call('GET /api/shares/{slug}', `/api/shares/${slug}`, pw, 200);
    await call('GET /api/shares/{slug}/list', `/api/shares/${slug}/list?path=/`, pw, 200);
    await call('GET /api/shares/{slug}/list', `/api/shares/${slug}/list?path=/`, {}, 401);
    await call('DELETE /api/shares/{id}', `/api/shares/${String(share?.id)}`, { token }, 200);
    await call('GET /api/shares/{slug}', `/api/shares/${slug}`, {}, 404);
    await call('DELETE /api/mount/{id}', `/api/mount/${mount.id}`, { token }, 200);

    await call('GET /api/admin/2fa', '/api/admin/2fa', { token }, 200);
    await call('POST /api/admin/2fa/setup', '/api/admin/2fa/setup', { token }, 200);
    await call('GET /api/admin/sessions', '/api/admin/sessions', { token }, 200);
    await call('GET /api/admin/passkeys', '/api/admin/passkeys', { token }, 200);
    await call('POST /api/admin/passkeys/login/options', '/api/admin/passkeys/login/options', {}, 200);
    await call('GET /api/admin/audit-log', '/api/admin/audit-log?limit=5', { token }, 200);
    await call('GET /api/admin/audit-log', '/api/admin/audit-log?format=xml', { token }, 400);
    expect(problems).toEqual([]);
  });

  it('error answers: validation, auth, permission, not found, conflict, media type', async () => {
    problems.length = 0;
    const key = await createApiKey(server, token, { name: 'text only', permissions: Permission.TEXT });
    await call('GET /api/admin/api-keys', '/api/admin/api-keys', {}, 401);
    await call('GET /api/admin/api-keys', '/api/admin/api-keys', { apiKey: key.key }, 403);
    await call('GET /api/files', '/api/files', { apiKey: key.key }, 403);
    await call('POST /api/admin/api-keys', '/api/admin/api-keys', { token, body: { name: '' } }, 400);
    await call(
      'POST /api/admin/api-keys',
      '/api/admin/api-keys',
      { token, rawBody: '{}', headers: { 'content-type': 'text/plain' } },
      415,
    );
    await call('GET /api/pastes', '/api/pastes?limit=0', { token }, 400);
    await call('GET /api/pastes/{id}', '/api/pastes/nope', { token }, 404);
    await call('GET /api/fs/list', '/api/fs/list?path=/nowhere', { token }, 404);
    await call('POST /api/paste', '/api/paste', { token, body: { content: 'a', slug: 'taken-slug' } }, 201);
    await call('POST /api/paste', '/api/paste', { token, body: { content: 'b', slug: 'taken-slug' } }, 409);
    await call(
      'POST /api/admin/login',
      '/api/admin/login',
      { body: { username: 'admin', password: 'wrong-password' } },
      401,
    );
    expect(problems).toEqual([]);
  });
});
