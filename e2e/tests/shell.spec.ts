import { adminToken, call } from '../support/api';
import { expect, test } from '../support/fixtures';

const DEFAULTS = {
  site_title: 'Clipnest',
  site_footer_markdown: '© 2026 Clipnest. All rights reserved.',
  site_custom_head: '',
  site_custom_body: '',
  site_announcement_enabled: false,
  site_announcement_content: '',
};

async function saveSiteSettings(values: Record<string, unknown>) {
  const token = await adminToken();
  const { status, envelope } = await call('PUT', '/admin/settings/group/4', { token, body: values });
  expect(status, envelope.message).toBe(200);
}

test.describe('site settings in the shell', () => {
  test.afterEach(async () => {
    await saveSiteSettings(DEFAULTS);
  });

  test('title, sanitised footer, announcement and custom code', async ({ page }) => {
    await saveSiteSettings({
      site_title: 'Team Paste',
      site_footer_markdown:
        'Run by **ACME** · [Status](https://status.example.com) <img src=x onerror="window.__xss=1">',
      site_custom_head: '<meta name="clipnest-e2e" content="head-ok"><style>#main{--e2e:1}</style>',
      site_custom_body: '<script>window.__customBody = "ran";</script>',
      site_announcement_enabled: true,
      site_announcement_content: 'Maintenance **Friday**',
    });
    await page.goto('/upload');
    await expect(page.getByTestId('site-title')).toHaveText('Team Paste');
    await expect(page).toHaveTitle('Upload files - Team Paste');

    const footer = page.getByRole('contentinfo');
    await expect(footer.locator('strong')).toHaveText('ACME');
    await expect(footer.getByRole('link', { name: 'Status' })).toHaveAttribute('rel', /noopener/);
    await expect(footer.locator('img')).not.toHaveAttribute('onerror');
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

    // Admin-trusted custom code is injected as is (scripts run).
    await expect(page.locator('meta[name="clipnest-e2e"]')).toHaveAttribute('content', 'head-ok');
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __customBody?: string }).__customBody))
      .toBe('ran');

    // The announcement is a home page banner; "don't show again" survives reloads.
    await expect(page.getByRole('region', { name: 'Announcement' })).toHaveCount(0);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Home' }).click();
    const banner = page.getByRole('region', { name: 'Announcement' });
    await expect(banner).toContainText('Maintenance Friday');
    await banner.getByRole('button', { name: "Don't show again" }).click();
    await expect(banner).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('site-title')).toHaveText('Team Paste');
    await expect(page.getByRole('region', { name: 'Announcement' })).toHaveCount(0);

    // New content shows again, once the cached config is refreshed.
    await saveSiteSettings({ site_announcement_content: 'A different notice' });
    await page.evaluate(() => localStorage.removeItem('site_config_cache'));
    await page.reload();
    await expect(page.getByRole('region', { name: 'Announcement' })).toContainText('A different notice');
  });

  test('the site config comes with the page, or a cached copy paints first and is revalidated on every load (issue 35 point 13)', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByTestId('site-title')).toHaveText('Clipnest');
    // The default title shows before the config arrives, so wait for the cache entry itself.
    await expect
      .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('site_config_cache') ?? 'null')))
      .toMatchObject({ data: { site_title: 'Clipnest' } });

    // The server writes the current settings into the page it serves: a load asks nothing more (issue 36).
    const settingsRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/public/site-settings')) settingsRequests.push(r.url());
    });
    await page.reload();
    await expect(page.getByTestId('site-title')).toHaveText('Clipnest');
    expect(settingsRequests).toEqual([]);

    // A page without them (as the service worker serves it from its precache) paints the cached copy and still
    // asks the server (an ETag makes it a 304 while unchanged).
    await page.route(
      (url) => url.pathname === '/',
      async (route) => {
        const served = await route.fetch();
        const html = (await served.text()).replace(/<meta name="clipnest-site-settings"[^>]*>/, '');
        await route.fulfill({ response: served, body: html });
      },
    );
    const asked = page.waitForRequest((r) => r.url().endsWith('/api/public/site-settings'));
    await page.reload();
    await asked;
    await expect(page.getByTestId('site-title')).toHaveText('Clipnest');
    await page.unroute((url) => url.pathname === '/');

    // A returning visitor sees a change on the next load, not 24 hours later.
    await saveSiteSettings({ site_title: 'Renamed' });
    await page.reload();
    await expect(page.getByTestId('site-title')).toHaveText('Renamed');
    await expect(page).toHaveTitle('Share text - Renamed');
    await expect
      .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('site_config_cache') ?? 'null')))
      .toMatchObject({ data: { site_title: 'Renamed' } });
  });
});

test('a screen whose code cannot load (server unreachable, new deploy) says the page is temporarily unreachable', async ({
  page,
}) => {
  await page.route(/\/assets\/UploadPage-[^/]*\.js$/, (route) => route.abort('connectionrefused'));
  await page.goto('/');
  await page.getByRole('link', { name: 'Upload' }).first().click();
  await expect(page.getByText('This page is temporarily unreachable').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'This page is temporarily unreachable' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  await page.unroute(/\/assets\/UploadPage-[^/]*\.js$/);
  await page.getByRole('link', { name: 'Home' }).first().click();
  await expect(page.getByRole('heading', { name: 'This page is temporarily unreachable' })).toHaveCount(0);
});
