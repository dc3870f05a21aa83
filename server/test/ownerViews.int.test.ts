import { Permission, type ApiKeyView, type PasteLocked, type PasteView, type PublicFileInfo } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from './support/fileShares.js';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createPaste } from './support/pastes.js';

/**
 * Issue 35 point 14: the owner of a share (the admin, or the API key that created it) opening it neither uses
 * up its views nor needs its password; everybody else is counted and asked as before.
 */
describe.each(dbTargets)('owners see their own shares uncounted on %s', (target) => {
  let server: TestServer;
  let token: string;
  let keyA: ApiKeyView;
  let keyB: ApiKeyView;
  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    const mk = async (name: string) =>
      (
        await server.call<ApiKeyView>('POST', '/api/admin/api-keys', {
          token,
          body: { name, permissions: Permission.TEXT | Permission.FILE_SHARE },
        })
      ).body.data!;
    keyA = await mk('owner-a');
    keyB = await mk('other-b');
  });
  afterAll(async () => {
    await server?.close();
  });

  const viewPaste = (slug: string, auth: { token?: string; apiKey?: string } = {}) =>
    server.call<PasteView | PasteLocked>('GET', `/api/paste/${slug}`, auth);

  it('a 3-view paste: admin and creating key visits are not counted; other keys and visitors are', async () => {
    const paste = await createPaste(server, { apiKey: keyA.key }, { content: 'three views', max_views: 3 });
    for (let i = 0; i < 4; i++) {
      const admin = await viewPaste(paste.slug, { token });
      expect(admin.status).toBe(200);
      expect(admin.body.data).toMatchObject({ content: 'three views', views: 0, is_owner: true });
      const owner = await viewPaste(paste.slug, { apiKey: keyA.key });
      expect(owner.body.data).toMatchObject({ content: 'three views', views: 0, is_owner: true });
    }
    const other = await viewPaste(paste.slug, { apiKey: keyB.key });
    expect(other.body.data).toMatchObject({ views: 1, is_owner: false });
    expect((await viewPaste(paste.slug)).body.data).toMatchObject({ views: 2 });
    expect((await viewPaste(paste.slug)).body.data).toMatchObject({ views: 3 });
    expect((await viewPaste(paste.slug)).status).toBe(410);
  });

  it('a password paste: the owner sees it without the password and uncounted; a visitor must unlock', async () => {
    const paste = await createPaste(server, { token }, { content: 'secret', password: 'pw-1234', max_views: 2 });
    const admin = await viewPaste(paste.slug, { token });
    expect(admin.body.data).toMatchObject({ content: 'secret', views: 0, is_owner: true, has_password: true });
    const adminPost = await server.call<PasteView>('POST', `/api/paste/${paste.slug}`, {
      token,
      body: { password: 'wrong' },
    });
    expect(adminPost.body.data).toMatchObject({ content: 'secret', views: 0 });
    expect((await viewPaste(paste.slug, { apiKey: keyA.key })).body.data).toEqual({
      slug: paste.slug,
      requires_password: true,
    });
    const visitor = await server.call<PasteView>('POST', `/api/paste/${paste.slug}`, { body: { password: 'pw-1234' } });
    expect(visitor.body.data).toMatchObject({ content: 'secret', views: 1, is_owner: false });
  });

  it('a 2-view file: the admin and the creating key open it uncounted, without its password', async () => {
    const made = await upload(server, 'file body', {
      apiKey: keyA.key,
      filename: 'limited.txt',
      fields: { max_views: '2', password: 'file-pw' },
    });
    expect(made.status).toBe(201);
    const slug = made.body.data!.slug;
    const info = (auth: { token?: string; apiKey?: string } = {}) =>
      server.call<PublicFileInfo>('GET', `/api/public/files/${slug}`, auth);
    for (let i = 0; i < 3; i++) {
      expect((await info({ token })).body.data).toMatchObject({ requires_password: false, views: 0, is_owner: true });
      expect((await info({ apiKey: keyA.key })).body.data).toMatchObject({ views: 0, is_owner: true });
    }
    expect((await info({ apiKey: keyB.key })).body.data).toEqual({
      slug,
      requires_password: true,
      has_password: true,
    });
    const verify = () =>
      server.call<PublicFileInfo>('POST', `/api/public/files/${slug}/verify`, { body: { password: 'file-pw' } });
    expect((await verify()).body.data).toMatchObject({ views: 1, is_owner: false });
    expect((await verify()).body.data).toMatchObject({ views: 2 });
    expect((await verify()).status).toBe(410);
  });
});
