// The WebDAV settings page (issue 20): per-client addresses, credentials, and the live check of /dav/ for the
// admin and for API keys (a confined key, a key whose base path holds no mount, a disabled key). Screenshots
// in light/dark, en/zh-CN, 390/1280 px.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Permission } from '@clipnest/contract';
import { adminToken, createKey } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';
import { lookThemes, shot } from '../support/looks';
import { deleteMount, localStorage, mount } from '../support/mounts';

const out = process.env.WEBDAV_SHOTS_DIR ?? '/tmp/webdav-shots';
const stamp = Date.now().toString(36);
const mountPath = `/team-${stamp}`;
let teamKey = '';
let nowhereKey = '';
let offKey = '';

test.describe('WebDAV settings page', () => {
  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    const { config } = await localStorage(token, `webdav-${stamp}`);
    await mount(token, `Team ${stamp}`, mountPath, config.id);
    teamKey = (
      await createKey(token, {
        name: `dav team ${stamp}`,
        permissions: Permission.WEBDAV_MANAGE,
        basic_path: mountPath,
      })
    ).key;
    // A base path must lie in the tree when it is set (issue 35 point 16): the mount goes away afterwards.
    const nowhere = await mount(token, `Nowhere ${stamp}`, `/nowhere-${stamp}`, config.id);
    nowhereKey = (
      await createKey(token, {
        name: `dav nowhere ${stamp}`,
        permissions: Permission.WEBDAV_READ,
        basic_path: `/nowhere-${stamp}`,
      })
    ).key;
    await deleteMount(token, nowhere.id);
    offKey = (
      await createKey(token, {
        name: `dav off ${stamp}`,
        permissions: Permission.WEBDAV_READ,
        basic_path: '/',
        enabled: false,
      })
    ).key;
  });

  test('shows each client its address and lists /dav/ for the admin and for keys', async ({
    adminPage: page,
    baseURL,
  }) => {
    await page.goto('/admin/settings/webdav');
    const addresses = page.getByTestId('webdav-addresses');
    // The first page of a cold server (its chunks, the settings and the info) can take a while on a busy machine.
    await expect(addresses).toBeVisible({ timeout: 30_000 });
    await expect(addresses.locator('[data-client="windows"] code')).toHaveText(`${baseURL}/dav/`);
    await expect(addresses.locator('[data-client="rclone"] code')).toHaveText(`${baseURL}/dav`);
    await expect(addresses.locator('[data-client="davfs2"] code')).toHaveText(`${baseURL}/dav/`);
    await expect(addresses.locator('[data-client="linuxFiles"] code')).toHaveText(
      `${baseURL!.replace(/^http/, 'dav')}/dav/`,
    );
    await expect(page.getByText(/plain http/)).toBeVisible();

    const check = page.getByRole('form', { name: 'Live check' });
    const result = page.getByTestId('webdav-check-result');
    // The admin sees every mount, ours among them.
    await check.getByRole('button', { name: 'List /dav/' }).click();
    await expect(result).toContainText('Read and write');
    await expect(result.getByText(`/dav${mountPath}/`)).toHaveCount(1);

    // A key confined to our mount sees only it.
    await check.getByRole('radio', { name: 'API key' }).click();
    await check.getByRole('button', { name: 'List /dav/' }).click();
    await expect(check.getByText('Paste an API key')).toBeVisible();
    await check.getByLabel('API key', { exact: true }).fill(teamKey);
    await check.getByRole('button', { name: 'List /dav/' }).click();
    await expect(result).toContainText(`Base path ${mountPath}`);
    await expect(result.getByRole('listitem')).toHaveCount(1);
    await expect(result.getByText(`/dav${mountPath}/`)).toHaveCount(1);

    // A key whose base path holds no mount: an empty collection, and why.
    await check.getByLabel('API key', { exact: true }).fill(nowhereKey);
    await check.getByRole('button', { name: 'List /dav/' }).click();
    await expect(result).toContainText('/dav/ is an empty collection');
    await expect(result).toContainText(`base path /nowhere-${stamp}`);

    // A disabled key and a made-up one: what WebDAV will answer them.
    await check.getByLabel('API key', { exact: true }).fill(offKey);
    await check.getByRole('button', { name: 'List /dav/' }).click();
    await expect(result).toContainText('This API key is disabled: WebDAV answers 401.');
    await check.getByLabel('API key', { exact: true }).fill('cn_made-up-key');
    await check.getByRole('button', { name: 'List /dav/' }).click();
    await expect(result).toContainText('No API key matches');
  });

  for (const theme of lookThemes) {
    for (const lang of ['en', 'zh-CN'] as const) {
      for (const width of [390, 1280] as const) {
        test(`screenshot ${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          await page.goto('/admin/settings/webdav');
          const en = lang === 'en';
          const check = page.getByRole('form', { name: en ? 'Live check' : '实时检查' });
          await check.getByRole('radio', { name: en ? 'API key' : 'API 密钥' }).click();
          await check.getByLabel(en ? 'API key' : 'API 密钥', { exact: true }).fill(teamKey);
          await check.getByRole('button', { name: en ? 'List /dav/' : '列出 /dav/' }).click();
          await expect(page.getByTestId('webdav-check-result').getByRole('listitem')).toHaveCount(1);
          await shot(page, path.join(out, `webdav-${lang}-${theme}-${width}.png`), true);
        });
      }
    }
  }
});
