// Screenshots of the end-to-end encryption screens (#25) in zh-CN, light and dark, 390 px and desktop: Home with
// the encrypted option and its result, the encrypted paste view, its password prompt, missing and wrong key,
// Upload with the encrypted option (and a resumable session), the encrypted file view. For looking at
// (CLIPNEST_SHOTS=1); E2EE_SHOTS_DIR to collect them elsewhere.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect as baseExpect, seedStorage, test } from '../support/fixtures';

const expect = baseExpect.configure({ timeout: 20_000 });
const shots =
  process.env.E2EE_SHOTS_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'e2ee');

const CONTENT = '# 发布计划\n\n- 服务器密码：`correct horse battery staple`\n- 备份在周五晚上进行\n';
const LONG_NAME = '第三季度财务报告-最终版本-请勿外传-包含所有附件和补充说明-2026.md';

for (const theme of ['light', 'dark'] as const) {
  for (const width of [390, 1280] as const) {
    test(`e2ee screens: zh-CN, ${theme}, ${width}px`, async ({ page, token, browser }) => {
      test.setTimeout(180_000);
      const suffix = `zh-CN-${theme}-${width}`;
      const shot = (p: Page, name: string) => p.screenshot({ path: `${shots}/${name}-${suffix}.png`, fullPage: true });
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await seedStorage(page, { themeMode: theme, language: 'zh-CN', admin_token: token });

      // Home: the encrypted option on, then the result with the link.
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
      await page.getByLabel('分享内容').fill(CONTENT);
      await page.getByRole('switch', { name: '端到端加密' }).click();
      await page.getByLabel('备注').fill('上线前的密码');
      await shot(page, 'home-encrypted-option');
      await page.getByRole('button', { name: '创建链接' }).click();
      await expect(page.getByTestId('share-result')).toBeVisible();
      await shot(page, 'home-encrypted-result');
      const link = (await page.getByTestId('share-link').textContent())!.trim();
      const [withoutKey, key] = link.split('#') as [string, string];

      const reader = async (url: string) => {
        const context = await browser.newContext({
          locale: 'zh-CN',
          viewport: { width, height: width < 600 ? 844 : 900 },
          colorScheme: theme,
          serviceWorkers: 'block',
        });
        const p = await context.newPage();
        await seedStorage(p, { themeMode: theme, language: 'zh-CN' });
        await p.goto(url);
        return { page: p, close: () => context.close() };
      };

      const view = await reader(link);
      await expect(view.page.getByTestId('paste-encrypted')).toBeVisible();
      await shot(view.page, 'paste-view');
      await view.close();

      const missing = await reader(withoutKey);
      await expect(missing.page.getByRole('heading', { name: '链接缺少密钥' })).toBeVisible();
      await shot(missing.page, 'paste-missing-key');
      await missing.close();

      const wrong = await reader(`${withoutKey}#${key.startsWith('A') ? 'B' : 'A'}${key.slice(1)}`);
      await expect(wrong.page.getByRole('heading', { name: '无法解密此文本' })).toBeVisible();
      await shot(wrong.page, 'paste-wrong-key');
      await wrong.close();

      // Upload: the encrypted option, a file with a long name, then done with its link.
      const dir = mkdtempSync(path.join(tmpdir(), 'clipnest-e2ee-shots-'));
      const file = path.join(dir, LONG_NAME);
      writeFileSync(file, CONTENT);
      try {
        await page.goto('/upload');
        await page.getByTestId('upload-input').setInputFiles(file);
        await page.getByRole('switch', { name: '端到端加密' }).click();
        await shot(page, 'upload-encrypted-option');
        await page.getByRole('button', { name: '上传 1 个文件' }).click();
        const item = page.getByTestId('upload-item').first();
        await expect(item).toHaveAttribute('data-stage', 'completed', { timeout: 60_000 });
        await shot(page, 'upload-encrypted-done');
        const fileLink = (await item.getByTestId('upload-link').getAttribute('href'))!;

        const fileView = await reader(fileLink);
        await expect(fileView.page.getByTestId('file-encrypted')).toBeVisible();
        await expect(fileView.page.getByRole('heading', { name: '发布计划' })).toBeVisible();
        await shot(fileView.page, 'file-view');
        await fileView.close();

        const fileNoKey = await reader(fileLink.split('#')[0]!);
        await expect(fileNoKey.page.getByRole('heading', { name: '链接缺少密钥' })).toBeVisible();
        await shot(fileNoKey.page, 'file-missing-key');
        await fileNoKey.close();

        const fileWrong = await reader(`${fileLink.split('#')[0]!}#${'A'.repeat(43)}`);
        await expect(fileWrong.page.getByRole('heading', { name: '无法解密此文件' })).toBeVisible();
        await shot(fileWrong.page, 'file-wrong-key');
        await fileWrong.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
}
