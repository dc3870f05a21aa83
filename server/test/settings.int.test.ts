import { DEFAULT_SETTINGS, Permission, type SettingView, type SiteSettings } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, snapshotTable, startTestServer, type TestServer } from './support/harness.js';

describe.each(dbTargets)('settings on %s', (target) => {
  let server: TestServer;
  let token: string;
  let apiKey: string;
  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    const res = await server.call<{ key: string }>('POST', '/api/admin/api-keys', {
      token,
      body: { name: 'k', permissions: Permission.TEXT },
    });
    apiKey = res.body.data!.key;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves defaults: site title Clipnest and a copyright footer', async () => {
    const res = await server.call<SiteSettings>('GET', '/api/public/site-settings');
    expect(res.status).toBe(200);
    expect(res.body.data?.site_title).toBe('Clipnest');
    expect(res.body.data?.site_footer_markdown).toMatch(/©/);
  });

  it('lets anyone read the site group and only the admin read the others', async () => {
    const site = await server.call<SettingView[]>('GET', '/api/admin/settings?group=4');
    expect(site.status).toBe(200);
    expect(site.body.data?.map((s) => s.key)).toContain('site_title');
    expect(site.body.data?.every((s) => s.group === 4)).toBe(true);
    for (const path of [
      '/api/admin/settings?group=1',
      '/api/admin/settings',
      '/api/admin/settings/groups',
      '/api/admin/settings/metadata?key=site_title',
    ]) {
      expect((await server.call('GET', path)).status, path).toBe(401);
      expect((await server.call('GET', path, { apiKey })).status, path).toBe(403);
    }
    const global = await server.call<SettingView[]>('GET', '/api/admin/settings?group=1', { token });
    expect(global.body.data?.find((s) => s.key === 'max_upload_size')?.value).toBe(100);
  });

  it('lists groups and metadata', async () => {
    const groups = await server.call<{ id: number; name: string }[]>('GET', '/api/admin/settings/groups', { token });
    expect(groups.body.data?.map((g) => `${g.id}:${g.name}`)).toEqual(['1:global', '2:preview', '3:webdav', '4:site']);
    const meta = await server.call<SettingView>('GET', '/api/admin/settings/metadata?key=preview_office_provider', {
      token,
    });
    expect(meta.body.data).toMatchObject({
      group: 2,
      type: 'select',
      options: ['builtin', 'microsoft', 'google'],
      value: 'builtin',
    });
    expect((await server.call('GET', '/api/admin/settings/metadata?key=nope', { token })).status).toBe(404);
    expect((await server.call('GET', '/api/admin/settings/metadata', { token })).status).toBe(400);
    expect((await server.call('GET', '/api/admin/settings?group=9', { token })).status).toBe(400);
  });

  it('saves a group and shows it publicly at once', async () => {
    const res = await server.call<SettingView[]>('PUT', '/api/admin/settings/group/4', {
      token,
      body: { site_title: 'My Nest', site_announcement_enabled: true, site_announcement_content: 'Hello **all**' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data?.find((s) => s.key === 'site_title')?.value).toBe('My Nest');
    const pub = await server.call<SiteSettings>('GET', '/api/public/site-settings');
    expect(pub.body.data).toMatchObject({ site_title: 'My Nest', site_announcement_enabled: true });
  });

  it('answers the public site settings with an ETag: 304 while unchanged, the new settings after a save', async () => {
    // Issue 35 point 13: the web app revalidates its cached copy on every load, so this must be cheap and exact.
    const get = (etag?: string) =>
      fetch(`${server.url}/api/public/site-settings`, { headers: etag ? { 'if-none-match': etag } : {} });
    const first = await get();
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const again = await get(etag!);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    await server.call('PUT', '/api/admin/settings/group/4', { token, body: { site_footer_markdown: 'new footer' } });
    const changed = await get(etag!);
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(((await changed.json()) as { data: SiteSettings }).data.site_footer_markdown).toBe('new footer');
  });

  it('rejects bad values, unknown keys and keys of another group, changing nothing', async () => {
    const before = await snapshotTable(server, 'settings');
    const cases: [string, unknown][] = [
      ['1', { max_upload_size: -5 }],
      ['1', { max_upload_size: 'big' }],
      ['1', { max_upload_size_unit: 'TB' }],
      ['1', { proxy_sign_expires: -1 }],
      ['1', { default_use_proxy: 'yes' }],
      ['2', { preview_office_provider: 'libreoffice' }],
      ['2', { preview_text_types: '.txt;.md' }],
      ['3', { webdav_upload_mode: 'chunked' }],
      ['4', { site_favicon_url: 'javascript:alert(1)' }],
      ['4', { site_favicon_url: 'ftp://example.com/x.ico' }],
      ['4', { site_favicon_url: 'data:text/html;base64,PHNjcmlwdD4=' }],
      ['4', { site_favicon_url: 'https://exa mple.com/x.ico' }],
      ['4', { site_favicon_url: `data:image/png;base64,${'A'.repeat(300 * 1024)}` }],
      ['4', { site_title: 'x'.repeat(101) }],
      ['4', { site_announcement_enabled: 'true' }],
      ['1', { max_upload_size: 0 }],
      ['1', { max_upload_size: null }],
      ['1', { max_upload_size: 2 * 1024 ** 3 }],
      ['1', { max_upload_size_unit: 'mb' }],
      ['1', { max_upload_size: 10, max_upload_size_unit: 'PB' }],
      ['1', { proxy_sign_expires: 1.5 }],
      ['1', { file_overwrite_mode: 'skip' }],
      ['4', { site_title: '' }],
      ['4', { site_title: 'ok', no_such_key: 1 }],
      ['4', { max_upload_size: 5 }],
      ['4', {}],
      ['4', ['site_title']],
      ['5', { site_title: 'x' }],
    ];
    for (const [group, body] of cases) {
      const res = await server.call('PUT', `/api/admin/settings/group/${group}`, { token, body });
      expect(res.status, `${group} ${JSON.stringify(body)}`).toBe(400);
      expectEnvelope(res.body, 400);
    }
    expect(await snapshotTable(server, 'settings')).toEqual(before);
    const unknown = await server.call('PUT', '/api/admin/settings/group/4', {
      token,
      body: { site_title: 'ok', no_such_key: 1 },
    });
    expect(unknown.body.message).toContain('no_such_key');
  });

  it('accepts http(s) and data: favicons and size units', async () => {
    for (const url of ['https://example.com/icon.png', 'data:image/png;base64,iVBORw0KGgo=']) {
      expect(
        (await server.call('PUT', '/api/admin/settings/group/4', { token, body: { site_favicon_url: url } })).status,
      ).toBe(200);
    }
    const res = await server.call<SettingView[]>('PUT', '/api/admin/settings/group/1', {
      token,
      body: { max_upload_size: 2, max_upload_size_unit: 'GB' },
    });
    expect(res.status).toBe(200);
    expect(await server.built.services.settings.get('max_upload_size_unit')).toBe('GB');
  });

  it('with validate=false still checks keys and types', async () => {
    const res = await server.call('PUT', '/api/admin/settings/group/1?validate=false', {
      token,
      body: { proxy_sign_expires: 5 },
    });
    expect(res.status).toBe(200);
    const wrongType = await server.call('PUT', '/api/admin/settings/group/1?validate=false', {
      token,
      body: { proxy_sign_expires: 'x' },
    });
    expect(wrongType.status).toBe(400);
  });

  it('a key holder cannot write settings', async () => {
    const res = await server.call('PUT', '/api/admin/settings/group/4', { apiKey, body: { site_title: 'hacked' } });
    expect(res.status).toBe(403);
    expect(DEFAULT_SETTINGS.site_title).toBe('Clipnest');
  });
});
