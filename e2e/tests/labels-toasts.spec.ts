import { randomBytes } from 'node:crypto';
import { call } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';
import { createPaste, deleteAllPastes } from '../support/pastes';
import { animationsFinished } from '../support/settle';

/** Issue 35 point 18: labels that contradicted themselves, and toasts over the header. */
test.describe('labels and toasts', () => {
  test.beforeEach(async ({ token }) => {
    await deleteAllPastes(token);
  });

  test('a paste with its views used up says "No views left", not "Expired" beside "in 59 minutes"', async ({
    adminPage: page,
    token,
  }) => {
    const paste = await createPaste(token, { content: 'one look', remark: 'used up', max_views: 1, expires_in: 1 });
    const seen = await call('GET', `/paste/${paste.slug}`);
    expect(seen.status).toBe(200);
    await page.goto('/admin/text-management');
    const row = page.locator('[data-testid="paste-status"]').first();
    await expect(row).toHaveText('No views left');
    await expect(page.getByText('used up').first()).toBeVisible();
  });

  test('an encrypted paste reads "End-to-end encrypted", not "Plain text · (empty)"', async ({
    adminPage: page,
    token,
  }) => {
    const encryption = {
      v: 1,
      alg: 'AES-256-GCM',
      kind: 'paste',
      kdf: 'none',
      iterations: 0,
      salt: randomBytes(16).toString('base64url'),
      iv: randomBytes(12).toString('base64url'),
    };
    await call('POST', '/paste', {
      token,
      body: { content: randomBytes(64).toString('base64url'), type: 'text', encryption },
    });
    await page.goto('/admin/text-management');
    const preview = page.getByTestId('paste-preview').first();
    await expect(preview).toContainText('Encrypted content');
    await expect(preview).not.toContainText('(empty)');
    await expect(page.getByText('End-to-end encrypted').first()).toBeVisible();
  });

  for (const width of [1280, 390]) {
    test(`a toast never covers the header (${width} px)`, async ({ page, token }) => {
      await page.setViewportSize({ width, height: 800 });
      await seedStorage(page, { admin_token: token });
      await page.goto('/');
      // An action with a toast: copying an empty editor says there is nothing to copy.
      await page.getByRole('button', { name: 'Copy' }).click();
      await page.getByRole('menuitem', { name: /Markdown/ }).click();
      const toast = page.locator('[data-sonner-toast]').first();
      await expect(toast).toBeVisible();
      const header = await page.locator('header').first().boundingBox();
      expect(header).toBeTruthy();
      // Once it has slid in: its top edge is below the header's bottom edge.
      await expect
        .poll(async () => (await toast.boundingBox())?.y ?? -1, { timeout: 3000 })
        .toBeGreaterThanOrEqual(header!.y + header!.height);
      // And stays there once its entry animation is over.
      await animationsFinished(toast);
      expect((await toast.boundingBox())!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
    });
  }
});
