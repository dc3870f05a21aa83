// The WebDAV settings page's Locks and Blocked addresses tables (issues 34.6 and 35.9): a lock a key took is listed
// with its holder and broken by the admin; an address blocked for wrong passwords is listed with its door and cleared.
// Screenshots in light/dark, en/zh-CN, 390/1280 px (WEBDAV_SHOTS_DIR).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Permission } from '@clipnest/contract';
import { adminToken, call, createKey } from '../support/api';
import { BASE_URL } from '../support/env';
import { expect, seedStorage, test } from '../support/fixtures';
import { lookThemes, shot } from '../support/looks';
import { localStorage, mount, writeTree } from '../support/mounts';

const out = process.env.WEBDAV_SHOTS_DIR ?? '/tmp/webdav-shots';
const stamp = Date.now().toString(36);
const mountPath = `/locks-${stamp}`;
let davAuth = '';

const LOCK_BODY =
  '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>' +
  '<D:locktype><D:write/></D:locktype><D:owner>Office on laptop</D:owner></D:lockinfo>';

/** The key locks `docs/` (with its content) as a WebDAV client would. */
async function lockDocs(): Promise<void> {
  const res = await fetch(`${BASE_URL}/dav${mountPath}/docs/`, {
    method: 'LOCK',
    headers: { authorization: davAuth, depth: 'infinity', timeout: 'Infinite' },
    body: LOCK_BODY,
  });
  expect(res.status).toBe(200);
}

/** Ten wrong passwords for one password paste: this client (127.0.0.1) is blocked for that paste only. */
async function blockOnPaste(token: string): Promise<void> {
  const created = await call<{ slug: string }>('POST', '/paste', {
    token,
    body: { content: 'guarded', password: 'right-password' },
  });
  const slug = created.envelope.data!.slug;
  for (let i = 0; i < 10; i++) {
    const res = await call('POST', `/paste/${slug}`, { body: { password: `wrong-${i}` } });
    expect(res.status).toBe(401);
  }
  expect((await call('POST', `/paste/${slug}`, { body: { password: 'right-password' } })).status).toBe(429);
}

test.describe('WebDAV settings: locks and blocked addresses', () => {
  test.describe.configure({ mode: 'serial' });

  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    const { config, root } = await localStorage(token, `locks-${stamp}`);
    writeTree(root, { 'docs/report.txt': 'report' });
    await mount(token, `Locks ${stamp}`, mountPath, config.id);
    const key = await createKey(token, {
      name: `dav writer ${stamp}`,
      permissions: Permission.WEBDAV_MANAGE,
      basic_path: mountPath,
    });
    davAuth = `Basic ${Buffer.from(`${key.key}:${key.key}`).toString('base64')}`;
    await lockDocs();
    await blockOnPaste(token);
  });

  for (const theme of lookThemes) {
    for (const lang of ['en', 'zh-CN'] as const) {
      for (const width of [390, 1280] as const) {
        test(`screenshot ${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          await page.goto('/admin/settings/webdav');
          const locks = page.getByTestId('webdav-locks');
          await expect(locks.locator(`[data-lock-path="${mountPath}/docs"]`)).toBeVisible({ timeout: 30_000 });
          await expect(page.getByTestId('webdav-blocked').locator('[data-address="127.0.0.1"]')).toBeVisible();
          await shot(page, path.join(out, `webdav-locks-${lang}-${theme}-${width}-page.png`), true);
          await shot(locks, path.join(out, `webdav-locks-${lang}-${theme}-${width}-locks.png`));
          await shot(
            page.getByTestId('webdav-blocked'),
            path.join(out, `webdav-locks-${lang}-${theme}-${width}-blocked.png`),
          );
        });
      }
    }
  }

  test('the admin breaks a key’s lock and unblocks an address', async ({ adminPage: page }) => {
    await page.goto('/admin/settings/webdav');
    const locks = page.getByTestId('webdav-locks');
    const row = locks.locator(`[data-lock-path="${mountPath}/docs"]`);
    await expect(row).toBeVisible({ timeout: 30_000 });
    await expect(row).toContainText(`dav writer ${stamp}`);
    await expect(row).toContainText('Office on laptop');
    // Writes through the file manager wait for the lock.
    const token = await adminToken();
    const refused = await call('POST', '/fs/update', {
      token,
      body: { path: `${mountPath}/docs/report.txt`, content: 'x' },
    });
    expect(refused.status).toBe(423);

    await row.getByRole('button', { name: 'Break lock' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Break lock' }).click();
    await expect(row).toHaveCount(0);
    const saved = await call('POST', '/fs/update', {
      token,
      body: { path: `${mountPath}/docs/report.txt`, content: 'x' },
    });
    expect(saved.status).toBe(200);

    const blocked = page.getByTestId('webdav-blocked');
    const address = blocked.locator('[data-address="127.0.0.1"]');
    await expect(address).toContainText('Text share password');
    await address.getByRole('button', { name: 'Unblock' }).click();
    await expect(address).toHaveCount(0);
  });
});
