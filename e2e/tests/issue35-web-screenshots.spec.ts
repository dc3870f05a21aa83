import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { adminToken, call, uniqueName } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';
import { deleteAllMounts, localStorage, mount, writeTree } from '../support/mounts';
import { createPaste, deleteAllPastes } from '../support/pastes';
import { animationsFinished } from '../support/settle';

// The screens issue 35's web points changed (10, 11, 18, 20), for looking at: CLIPNEST_SHOTS=1 runs them.
const out = process.env.ISSUE35_SHOTS_DIR ?? '/tmp/issue35-web-shots';
const themes = ['light', 'dark'] as const;
const languages = ['zh-CN', 'en'] as const;
const widths = [390, 1280] as const;

test.describe('issue 35 web screenshots', () => {
  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    await deleteAllPastes(token);
    await deleteAllMounts(token);
    const local = await localStorage(token, uniqueName('shots-local'));
    writeTree(local.root, { 'notes/todo.txt': 'buy milk\nwrite report\n' });
    await mount(token, 'Local', '/local', local.config.id);
    const used = await createPaste(token, {
      content: 'one look',
      remark: 'Used-up paste',
      max_views: 1,
      expires_in: 1,
    });
    await call('GET', `/paste/${used.slug}`);
    await createPaste(token, { content: 'still open', remark: 'Open paste', max_views: 5 });
    await call('POST', '/paste', {
      token,
      body: {
        content: 'A'.repeat(80),
        type: 'text',
        encryption: {
          v: 1,
          alg: 'AES-256-GCM',
          kind: 'paste',
          kdf: 'none',
          iterations: 0,
          salt: 'A'.repeat(22),
          iv: 'A'.repeat(16),
        },
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
          const shot = (name: string) => page.screenshot({ path: path.join(out, `${name}-${suffix}.png`) });
          const en = lang === 'en';

          // 10: the explorer editor with unsaved edits, then the question on Esc.
          await page.goto('/mount-explorer/local/notes?preview=%2Flocal%2Fnotes%2Ftodo.txt');
          const editor = page.getByTestId('fs-editor');
          await expect(editor).toHaveValue(/buy milk/);
          await editor.fill('buy milk\nwrite report\ncall the bank\n');
          await shot('editor-unsaved');
          await editor.press('Escape');
          await expect(page.getByRole('alertdialog')).toBeVisible();
          await shot('editor-discard');

          // 11: Import over a draft asks first; then the toast (below the header) with Undo.
          await page.goto('/');
          await page.locator('#paste-editor').fill('# My draft\n\nDo not lose me.');
          const file = { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n\nfrom a file') };
          await page.getByTestId('import-file').setInputFiles(file);
          await expect(page.getByRole('alertdialog')).toBeVisible();
          await shot('home-import-ask');
          await page
            .getByRole('alertdialog')
            .getByRole('button', { name: en ? 'Replace' : '替换' })
            .click();
          await expect(page.locator('[data-sonner-toast]').first()).toBeVisible();
          // The toast has slid in and the preview caught up with the imported text.
          await animationsFinished(page);
          await shot('home-import-toast');

          // 18: labels in text management.
          await page.goto('/admin/text-management');
          await expect(page.getByTestId('paste-status').filter({ visible: true }).first()).toBeVisible();
          await shot('text-management-labels');

          // 18: a file over the upload limit is refused at once, in red.
          await call('PUT', '/admin/settings/group/1', {
            token,
            body: { max_upload_size: 1, max_upload_size_unit: 'KB' },
          });
          try {
            await page.goto('/upload');
            await page
              .getByTestId('upload-input')
              .setInputFiles({ name: 'too-big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(4096) });
            await expect(page.locator('[data-sonner-toast][data-type="error"]')).toBeVisible();
            await animationsFinished(page);
            await shot('upload-refused');
          } finally {
            await call('PUT', '/admin/settings/group/1', {
              token,
              body: { max_upload_size: 100, max_upload_size_unit: 'MB' },
            });
          }

          // 20: the environment switcher.
          await page.goto('/?showEnvSwitcher');
          await expect(page.getByTestId('env-switcher')).toBeVisible();
          await shot('env-switcher-button');
          await page.getByTestId('env-switcher').click();
          await page.getByRole('radio', { name: en ? 'Another server' : '其他服务器' }).click();
          // The chips fade their colours (150 ms): shoot the settled state.
          await animationsFinished(page);
          await shot('env-switcher-dialog');
        });
      }
    }
  }
});
