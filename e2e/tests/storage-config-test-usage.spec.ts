// Issue 35 point 15 on the storage config page: the Test lists the CORS step with advice for the origin the
// admin uses; the usage line says what it counts (file shares and mounts together); deleting a config in use
// says "1 file share and 1 mount" in the UI's language, built from the counts of the 409.
import type { StorageConfigView } from '@clipnest/contract';
import { adminToken, call } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';
import { arrangeStorageInUse, type StorageInUse } from '../support/storageInUse';

test.describe('storage config: CORS step, usage, delete in use', () => {
  let setup: StorageInUse;
  // Names of their own each time (a worker restarted after a failure arranges again on the same server).
  const tag = Math.random().toString(36).slice(2, 6);
  const used = `Team bucket ${tag}`;
  const unmounted = `Closed bucket ${tag}`;
  const mountPath = `/team-${tag}`;
  test.beforeAll(async () => {
    setup = await arrangeStorageInUse(await adminToken(), { used, unmounted, mountPath });
  });
  test.afterAll(async () => {
    await setup?.open.stop();
    await setup?.closed.stop();
  });

  test('the Test lists the CORS step with advice for this page’s origin', async ({ adminPage: page }) => {
    await page.goto('/admin/storage-config');
    const origin = new URL(page.url()).origin;
    const closedCard = page.getByTestId('storage-card').filter({ hasText: unmounted });
    await closedCard.getByRole('button', { name: 'Test', exact: true }).click();
    const cors = closedCard.getByTestId('storage-test-cors');
    await expect(cors).toBeVisible({ timeout: 20_000 });
    await expect(cors).toHaveAttribute('data-success', 'false');
    await expect(cors).toContainText('Browser uploads (CORS)');
    await expect(cors).toContainText(`do not let ${origin} upload`);
    await expect(cors).not.toContainText('localhost');
    // The storage itself works: the steps passed.
    await expect(closedCard.getByTestId('storage-test-result')).toHaveAttribute('data-success', 'true');

    const openCard = page.getByTestId('storage-card').filter({ hasText: used });
    await openCard.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(openCard.getByTestId('storage-test-cors')).toHaveAttribute('data-success', 'true', {
      timeout: 20_000,
    });
    await expect(openCard.getByTestId('storage-test-cors')).toContainText(`Browsers at ${origin} may upload`);
  });

  test('the usage counts shares and mounts together and says so', async ({ adminPage: page, token }) => {
    const view = await call<StorageConfigView>('GET', `/s3-configs/${setup.used.id}`, { token });
    expect(view.envelope.data).toMatchObject({ used_bytes: 6000, used_scope: 'storage' });
    await page.goto('/admin/storage-config');
    const card = page.getByTestId('storage-card').filter({ hasText: used });
    await expect(card.getByTestId('storage-used')).toContainText(/5\.9 KB of 10 MB used/);
    await expect(card.getByTestId('storage-used-scope')).toHaveText(
      'Counts everything in the storage: file shares and the files of its mounts',
    );
    const other = page.getByTestId('storage-card').filter({ hasText: unmounted });
    await expect(other.getByTestId('storage-used-scope')).toHaveText(
      'Counts the file shares stored here (no mount uses it)',
    );
  });

  for (const lang of ['en', 'zh-CN'] as const) {
    test(`deleting a config in use says what uses it (${lang})`, async ({ page, token }) => {
      await seedStorage(page, { admin_token: token, language: lang });
      await page.goto('/admin/storage-config');
      const card = page.getByTestId('storage-card').filter({ hasText: used });
      await card.getByRole('button', { name: `${lang === 'en' ? 'More actions' : '更多操作'}: ${used}` }).click();
      await page.getByRole('menuitem', { name: lang === 'en' ? 'Delete' : '删除' }).click();
      await page
        .getByRole('alertdialog')
        .getByRole('button', { name: lang === 'en' ? 'Delete' : '删除' })
        .click();
      const expected =
        lang === 'en'
          ? `“${used}” is used by 1 file share and 1 mount (${mountPath}): remove them first, then delete it`
          : `“${used}”正被 1 个文件分享和 1 个挂载（${mountPath}）使用：请先移除它们，再删除此存储`;
      const toast = page.getByText(expected, { exact: true });
      await expect(toast).toBeVisible();
      // One message: no English server sentence beside it.
      await expect(page.getByText(/this storage config is used by/)).toHaveCount(0);
    });
  }
});
