import { DEFAULT_SETTINGS, type SettingView } from '@clipnest/contract';
import type { Page } from '@playwright/test';
import { adminToken, call } from '../support/api';
import { expect, test } from '../support/fixtures';

function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

async function resetSettings() {
  const token = await adminToken();
  await call('PUT', '/admin/settings/group/4', {
    token,
    body: {
      site_title: DEFAULT_SETTINGS.site_title,
      site_favicon_url: '',
      site_footer_markdown: DEFAULT_SETTINGS.site_footer_markdown,
      site_announcement_enabled: false,
      site_announcement_content: '',
    },
  });
  await call('PUT', '/admin/settings/group/1', { token, body: { max_upload_size: 100, max_upload_size_unit: 'MB' } });
}

async function settingValue(token: string, group: number, key: string) {
  const { envelope } = await call<SettingView[]>('GET', `/admin/settings?group=${group}`, { token });
  return envelope.data?.find((s) => s.key === key)?.value;
}

test.describe('site settings', () => {
  test.beforeEach(resetSettings);
  test.afterAll(resetSettings);

  test('title, footer and announcement show in the public shell at once', async ({ adminPage: page, token }) => {
    const errors = watchConsole(page);
    await page.goto('/admin/settings/site');
    await expect(page.getByLabel('Site title')).toHaveValue('Clipnest');

    // Per-field validation from the contract, shown next to the field; nothing is saved.
    await page.getByLabel('Favicon').fill('javascript:alert(1)');
    await page.getByLabel('Site title').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Use an http(s) link or a data:image URL (256 KB at most)')).toBeVisible();
    await expect(page.getByText('Enter a title of 1 to 100 characters')).toBeVisible();
    await expect(page.getByLabel('Site title')).toBeFocused();
    expect(await settingValue(token, 4, 'site_title')).toBe('Clipnest');

    await page.getByLabel('Favicon').fill('');
    await page.getByLabel('Site title').fill('E2E Nest');
    await page.getByLabel('Footer (Markdown)').fill('**Made** with [care](https://example.com)');
    await expect(page.getByTestId('site_footer_markdown-preview').locator('strong')).toHaveText('Made');
    await page.getByRole('switch', { name: 'Show the announcement' }).click();
    await page.getByLabel('Announcement (Markdown)').fill('Maintenance *tonight*');
    await expect(page.getByTestId('site_announcement_content-preview').locator('em')).toHaveText('tonight');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Settings saved')).toBeVisible();
    await expect(page.getByText('All changes saved')).toBeVisible();

    // The shell follows without a reload: header title and document title…
    await expect(page.getByRole('banner').getByText('E2E Nest')).toBeVisible();
    await expect(page).toHaveTitle(/E2E Nest/);
    // …and the public pages, reached by a client-side navigation.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Home' }).click();
    await expect(page.getByRole('region', { name: 'Announcement' })).toContainText('Maintenance tonight');
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText('Made with care');
    await expect(footer.getByRole('link', { name: 'care' })).toHaveAttribute('href', 'https://example.com');
    expect(await settingValue(token, 4, 'site_title')).toBe('E2E Nest');

    // A fresh visitor (no cache) sees the same.
    await page.evaluate(() => localStorage.clear());
    await page.goto('/');
    await expect(page.getByRole('banner').getByText('E2E Nest')).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('global settings: upload size with units, validated', async ({ adminPage: page, token }) => {
    await page.goto('/admin/settings/global');
    const size = page.getByLabel('Maximum upload size');
    await expect(size).toHaveValue('100');
    await size.fill('-5');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Enter a size greater than 0')).toBeVisible();
    await page.getByLabel('Signature lifetime').fill('1.5');
    await expect(page.getByText('Enter whole seconds from 0 to 31,536,000 (one year)')).toBeVisible();
    await page.getByLabel('Signature lifetime').fill('600');
    await size.fill('2');
    await page.getByRole('combobox', { name: 'Unit' }).selectOption('GB');
    await expect(page.getByText('= 2,147,483,648 bytes per file')).toBeVisible();
    await page.getByRole('radio', { name: 'Reject' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Settings saved')).toBeVisible();
    expect(await settingValue(token, 1, 'max_upload_size')).toBe(2);
    expect(await settingValue(token, 1, 'max_upload_size_unit')).toBe('GB');
    expect(await settingValue(token, 1, 'file_overwrite_mode')).toBe('reject');
    expect(await settingValue(token, 1, 'proxy_sign_expires')).toBe(600);
    await call('PUT', '/admin/settings/group/1', {
      token,
      body: { file_overwrite_mode: 'rename', proxy_sign_expires: 0 },
    });
  });

  test('preview and WebDAV settings save', async ({ adminPage: page, token }) => {
    await page.goto('/admin/settings/preview');
    await page.getByLabel('Images').fill('png, .jpg');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Use extensions separated by commas, without dots, e.g. png,jpg')).toBeVisible();
    await page.getByLabel('Images').fill('png, JPG,webp');
    await page.getByRole('radio', { name: 'Google Docs Viewer' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Settings saved')).toBeVisible();
    expect(await settingValue(token, 2, 'preview_image_types')).toBe('png,jpg,webp');
    expect(await settingValue(token, 2, 'preview_office_provider')).toBe('google');

    await page.goto('/admin/settings/webdav');
    await page.getByRole('radio', { name: /Multipart/ }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Settings saved')).toBeVisible();
    expect(await settingValue(token, 3, 'webdav_upload_mode')).toBe('multipart');
    await call('PUT', '/admin/settings/group/2', {
      token,
      body: {
        preview_image_types: DEFAULT_SETTINGS.preview_image_types,
        preview_office_provider: DEFAULT_SETTINGS.preview_office_provider,
      },
    });
    await call('PUT', '/admin/settings/group/3', { token, body: { webdav_upload_mode: 'direct' } });
  });
});
