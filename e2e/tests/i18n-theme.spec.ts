import { expect, test } from '../support/fixtures';

test.describe('language', () => {
  test.describe('Chinese browser', () => {
    test.use({ locale: 'zh-CN' });
    test('defaults to Chinese', async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
      await expect(page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '首页' })).toBeVisible();
      await expect(page).toHaveTitle('分享文本 - Clipnest');
    });
  });

  test.describe('English browser', () => {
    test.use({ locale: 'en-GB' });
    test('defaults to English', async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(
        page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Home' }),
      ).toBeVisible();
      await expect(page).toHaveTitle('Share text - Clipnest');
    });
  });

  test.describe('other browser languages', () => {
    test.use({ locale: 'fr-FR' });
    test('fall back to English', async ({ page }) => {
      await page.goto('/upload');
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page).toHaveTitle('Upload files - Clipnest');
    });
  });

  test.describe('switching', () => {
    test.use({ locale: 'zh-CN' });
    test('the choice persists across reloads', async ({ page }) => {
      await page.goto('/');
      await page.getByRole('button', { name: '语言' }).click();
      await page.getByRole('menuitemradio', { name: 'English' }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page.getByRole('link', { name: 'Upload', exact: true }).first()).toBeVisible();
      expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en');

      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page).toHaveTitle('Share text - Clipnest');

      await page.getByRole('button', { name: 'Language' }).click();
      await page.getByRole('menuitemradio', { name: '简体中文' }).click();
      await expect(page).toHaveTitle('分享文本 - Clipnest');
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    });

    test('works from the mobile menu', async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 800 });
      await page.goto('/');
      await page.getByRole('button', { name: '打开菜单' }).click();
      await page.getByRole('button', { name: 'English' }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    });
  });
});

test.describe('theme', () => {
  test('cycles auto → light → dark → auto and persists', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    const toggle = page.getByTestId('theme-toggle');
    const html = page.locator('html');

    await expect(toggle).toHaveAttribute('data-theme-mode', 'auto');
    await expect(html).not.toHaveClass(/dark/);

    await toggle.click();
    await expect(toggle).toHaveAttribute('data-theme-mode', 'light');
    await expect(html).not.toHaveClass(/dark/);

    await toggle.click();
    await expect(toggle).toHaveAttribute('data-theme-mode', 'dark');
    await expect(html).toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem('themeMode'))).toBe('dark');

    await page.reload();
    await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-theme-mode', 'dark');
    await expect(html).toHaveClass(/dark/);

    await page.getByTestId('theme-toggle').click();
    await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-theme-mode', 'auto');
    expect(await page.evaluate(() => localStorage.getItem('themeMode'))).toBe('auto');
    await page.reload();
    await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-theme-mode', 'auto');
  });

  test('auto follows the system colour scheme', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    await expect(page.locator('html')).toHaveClass(/dark/);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).not.toHaveClass(/dark/);
  });
});

test.describe('routes', () => {
  test('unknown paths redirect to /', async ({ page }) => {
    await page.goto('/definitely/not/here');
    await expect(page).toHaveURL(/\/$/);
    await expect(page).toHaveTitle('Share text - Clipnest');
    await page.goto('/admin/not-a-page');
    await expect(page).toHaveURL(/\/$/);
  });

  test('every spec route renders', async ({ page }) => {
    const titles: [string, string][] = [
      ['/upload', 'Upload files - Clipnest'],
      ['/paste/abc123', 'View paste - Clipnest'],
      ['/file/xyz', 'View file - Clipnest'],
      ['/mount-explorer', 'Mount Explorer - Clipnest'],
      ['/mount-explorer/s3/photos/2024', 'Mount Explorer - Clipnest'],
      ['/admin', 'Log in - Clipnest'],
    ];
    for (const [path, title] of titles) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}$`));
      await expect(page).toHaveTitle(title);
    }
  });

  test('footer shows the site footer but not on admin pages', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('contentinfo')).toContainText('Clipnest');
    await page.goto('/admin');
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
  });
});
