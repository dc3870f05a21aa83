import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { FileView } from '@clipnest/contract';
import { adminToken, call } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';
import { makePdf, makePng, MARKDOWN_SAMPLE, uploadViaApi } from '../support/files';
import { animationsFinished, imagesSettled } from '../support/settle';

const out = process.env.FILES_SHOTS_DIR ?? '/tmp/files-shots';
const themes = ['light', 'dark'] as const;
const languages = ['zh-CN', 'en'] as const;
const widths = [390, 1280] as const;

const CODE = `import { Hono } from 'hono';

/** Answers the health check. */
export function health(app: Hono): void {
  app.get('/health', (c) => c.json({ status: 'ok', uptime: process.uptime() }));
}
`;

test.describe('file share screenshots', () => {
  const files: Record<string, FileView> = {};

  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    files.image = await uploadViaApi(token, 'mountain-sunrise.png', makePng(960, 540), 'image/png', {
      remark: 'Cover image for the spring newsletter',
    });
    files.md = await uploadViaApi(token, 'RELEASE-NOTES.md', MARKDOWN_SAMPLE, 'text/markdown', { expires_in: 168 });
    files.code = await uploadViaApi(token, 'health.ts', CODE, 'text/plain', { max_views: 10 });
    files.pdf = await uploadViaApi(token, 'quarterly-report.pdf', makePdf(), 'application/pdf');
    files.locked = await uploadViaApi(token, 'contract-signed.pdf', makePdf('signed'), 'application/pdf', {
      password: 'pw',
    });
    files.zip = await uploadViaApi(token, 'backup-2026-11.zip', Buffer.alloc(4096, 1), 'application/zip');
    // An S3 config whose endpoint answers nothing: its test shows failed steps.
    await call('POST', '/s3-configs', {
      token,
      body: {
        name: 'Team bucket (R2)',
        provider: 'cloudflare_r2',
        endpoint: 'http://127.0.0.1:9',
        region: 'auto',
        bucket: 'team-share',
        access_key_id: 'AKIAEXAMPLE',
        secret_access_key: 'secret-example-1234',
        path_style: true,
        total_capacity: 10 * 1024 ** 3,
      },
    });
  });

  for (const theme of themes) {
    for (const lang of languages) {
      for (const width of widths) {
        test(`${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          test.setTimeout(120_000);
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          const suffix = `${lang}-${theme}-${width}`;
          const shot = async (name: string, fullPage = true) => {
            if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
            await page.screenshot({ path: path.join(out, `${name}-${suffix}.png`), fullPage });
          };

          await page.goto('/upload');
          await expect(page.getByTestId('recent-uploads')).toBeVisible();
          await shot('upload');
          await page.getByTestId('upload-input').setInputFiles([
            { name: 'holiday-photo.png', mimeType: 'image/png', buffer: makePng(200, 120) },
            { name: 'meeting-notes.md', mimeType: 'text/markdown', buffer: Buffer.from(MARKDOWN_SAMPLE) },
          ]);
          await page.getByRole('button', { name: lang === 'en' ? 'More options' : '更多选项' }).click();
          await shot('upload-queued');
          await page.getByRole('button', { name: lang === 'en' ? 'Upload 2 files' : '上传 2 个文件' }).click();
          await expect(page.locator('[data-testid="upload-item"][data-stage="completed"]')).toHaveCount(2);
          await shot('upload-done');

          for (const key of ['image', 'md', 'code', 'pdf', 'zip'] as const) {
            await page.goto(`/file/${files[key]!.slug}`);
            await expect(page.getByTestId('file-details')).toBeVisible();
            if (key === 'image') await expect(page.getByTestId('image-preview')).toBeVisible();
            if (key === 'md') await expect(page.getByTestId('markdown-preview')).toBeVisible();
            if (key === 'code')
              await expect(page.locator('[data-testid="text-preview"] .hljs-keyword').first()).toBeVisible();
            await imagesSettled(page);
            await animationsFinished(page);
            await shot(`view-${key}`, key !== 'pdf');
          }
          await page.goto(`/file/${files.locked!.slug}`);
          await expect(page.getByTestId('password-prompt')).toBeVisible();
          await shot('view-password');
          await page.goto('/file/does-not-exist');
          await expect(page.getByTestId('file-error')).toBeVisible();
          await shot('view-notfound');

          await page.goto('/admin/file-management');
          await expect(page.getByText('mountain-sunrise.png').filter({ visible: true }).first()).toBeVisible();
          await shot('admin-files');
          if (width === 1280) {
            await page.getByRole('checkbox').nth(1).click();
            await page.getByRole('checkbox').nth(2).click();
            await shot('admin-files-selected', false);
            await page.getByRole('button', { name: lang === 'en' ? 'Delete 2 files' : '删除 2 个文件' }).click();
            await expect(page.getByRole('dialog')).toBeVisible();
            await shot('admin-files-delete', false);
            await page.keyboard.press('Escape');
            await page
              .getByRole('button', { name: new RegExp(lang === 'en' ? 'More actions' : '更多操作') })
              .first()
              .click();
            await page.getByRole('menuitem', { name: lang === 'en' ? 'Edit' : '编辑' }).click();
            await expect(page.getByRole('dialog')).toBeVisible();
            await shot('admin-files-edit', false);
            await page.keyboard.press('Escape');
          }

          await page.goto('/admin/storage-config');
          await expect(page.getByTestId('storage-card').first()).toBeVisible();
          for (const card of await page.getByTestId('storage-card').all()) {
            await card.getByRole('button', { name: lang === 'en' ? 'Test' : '测试', exact: true }).click();
          }
          await expect(page.getByTestId('storage-test-result')).toHaveCount(2, { timeout: 30_000 });
          await shot('admin-storage');
          await page.getByRole('button', { name: lang === 'en' ? 'Add storage' : '添加存储' }).click();
          await expect(page.getByRole('dialog')).toBeVisible();
          await page
            .getByRole('dialog')
            .getByRole('button', { name: lang === 'en' ? 'Create' : '创建' })
            .click();
          await shot('admin-storage-form', false);
        });
      }
    }
  }

  test('no access notice on the upload page', async ({ page }) => {
    await seedStorage(page, { themeMode: 'light', language: 'en' });
    for (const width of widths) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto('/upload');
      await expect(page.getByText('Log in to upload files')).toBeVisible();
      await page.screenshot({ path: path.join(out, `upload-noaccess-en-light-${width}.png`), fullPage: true });
    }
  });
});
