// Issue 34 point 11: signed fs links (up to 7 days) and zip links kept working after the key that issued
// them was disabled, deleted or moved to another base path. A link now names its issuer (signed with it) and
// acts as that key as it is when the link is used; an admin's links keep working.
import { Permission, type ApiKeyView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../support/apiKeys.js';
import { fsUpload } from '../support/fsApi.js';
import { dbTargets, startTestServer, type TestServer } from '../support/harness.js';
import { createMount, mountableLocalConfig } from '../support/mounts.js';

describe.each(dbTargets)('signed link revocation on %s', (target) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    await createMount(server, token, {
      path: '/local',
      storage_config_id: await mountableLocalConfig(server, token),
      cache_ttl: 0,
    });
    for (const p of ['/local/team/a.txt', '/local/other/b.txt']) {
      expect((await fsUpload(server, { token }, `content of ${p}`, { before: { path: p } })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const newKey = (basic_path = '/local/team') =>
    createApiKey(server, token, {
      name: `k${Math.random().toString(36).slice(2, 8)}`,
      permissions: Permission.MOUNT_VIEW,
      basic_path,
    });
  const fileLink = async (auth: { apiKey: string } | { token: string }, p: string) => {
    const res = await server.call<{ url: string; type: string }>(
      'GET',
      `/api/fs/file-link?path=${encodeURIComponent(p)}&expires_in=604800`,
      auth,
    );
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data?.type).toBe('proxy');
    return new URL(res.body.data!.url).pathname + new URL(res.body.data!.url).search;
  };
  const zipLink = async (auth: { apiKey: string } | { token: string }, p: string) => {
    const res = await server.call<{ url: string }>('POST', '/api/fs/zip/link', { ...auth, body: { paths: [p] } });
    expect(res.status, res.body.message).toBe(200);
    return res.body.data!.url;
  };
  /** Status of an anonymous GET of a link (no credentials: the link is the right). */
  const use = async (link: string) => {
    const res = await fetch(server.url + link);
    const text = await res.text();
    if (res.status !== 200) expect(JSON.parse(text).code, text).toBe(res.status);
    return res.status;
  };
  const setKey = (key: ApiKeyView, body: Record<string, unknown>) =>
    server.call('PUT', `/api/admin/api-keys/${key.id}`, { token, body });

  it('a key link stops working when the key is disabled, and again works when it is enabled', async () => {
    const key = await newKey();
    const file = await fileLink({ apiKey: key.key }, '/local/team/a.txt');
    const zip = await zipLink({ apiKey: key.key }, '/local/team');
    expect(file).toContain('by=apikey');
    expect([await use(file), await use(zip)]).toEqual([200, 200]);
    expect((await setKey(key, { enabled: false })).status).toBe(200);
    expect([await use(file), await use(zip)]).toEqual([403, 403]);
    expect((await setKey(key, { enabled: true })).status).toBe(200);
    expect(await use(file)).toBe(200);
  });

  it('a key link stops working when the key is deleted', async () => {
    const key = await newKey();
    const file = await fileLink({ apiKey: key.key }, '/local/team/a.txt');
    const zip = await zipLink({ apiKey: key.key }, '/local/team/a.txt');
    expect((await server.call('DELETE', `/api/admin/api-keys/${key.id}`, { token })).status).toBe(200);
    expect([await use(file), await use(zip)]).toEqual([403, 403]);
  });

  it("a key link follows the key's base path and permissions now", async () => {
    const key = await newKey();
    const file = await fileLink({ apiKey: key.key }, '/local/team/a.txt');
    const zip = await zipLink({ apiKey: key.key }, '/local/team/a.txt');
    expect((await setKey(key, { basic_path: '/local/other' })).status).toBe(200);
    expect([await use(file), await use(zip)]).toEqual([403, 403]);
    expect((await setKey(key, { basic_path: '/local/team', permissions: Permission.TEXT })).status).toBe(200);
    expect([await use(file), await use(zip)]).toEqual([403, 403]);
  });

  it('the issuer cannot be swapped, and an admin link keeps working', async () => {
    const key = await newKey();
    const file = await fileLink({ apiKey: key.key }, '/local/team/a.txt');
    const adminId = (await server.built.services.auth.verifyToken(token))!.adminId;
    const forged = file.replace(/by=[^&]+/, `by=${encodeURIComponent(adminId)}`);
    expect(await use(forged)).toBe(403);
    const unsigned = file.replace(/&?by=[^&]+/, '');
    expect(await use(unsigned)).toBe(403);

    const adminFile = await fileLink({ token }, '/local/other/b.txt');
    const adminZip = await zipLink({ token }, '/local/other');
    expect([await use(adminFile), await use(adminZip)]).toEqual([200, 200]);
    const res = await fetch(server.url + adminFile);
    expect(await res.text()).toBe('content of /local/other/b.txt');
  });
});
