import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { adminToken, call, createKey, Perm, uniqueName } from '../support/api';
import { entryRow as row } from '../support/explorer';
import { expect, seedStorage, test } from '../support/fixtures';
import { deleteAllMounts, localStorage, mount, writeTree } from '../support/mounts';
import { afterPendingTasks } from '../support/settle';

/** Issue 35 point 17: the explorer's rough edges. */
const check = (page: Page, name: string) => row(page, name).getByTestId('fs-check');
const selected = (page: Page) => page.locator('[data-testid="fs-entry"][aria-selected="true"]');

test.describe('explorer rough edges (issue 35)', () => {
  let localRoot: string;
  let secondRoot: string;

  test.beforeAll(async () => {
    const token = await adminToken();
    await deleteAllMounts(token);
    const local = await localStorage(token, uniqueName('explorer35'));
    localRoot = local.root;
    writeTree(localRoot, {
      'alpha/inner/deep.txt': 'deep',
      'alpha/one.txt': 'one',
      'beta/two.txt': 'two',
      'gamma.txt': 'gamma',
      'team/inside.txt': 'inside',
      'other/outside.txt': 'outside',
      'src35/x.txt': 'new x',
      'src35/y.txt': 'new y',
      'dst35/x.txt': 'old x',
      'dst35/y.txt': 'old y',
      'cross/mv.txt': 'moved across',
      'docs35/report.docx': 'PK not really a docx',
    });
    const solid = (width: number, height: number) =>
      sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } }).png();
    mkdirSync(path.join(localRoot, 'pics35'), { recursive: true });
    await solid(900, 2400).toFile(path.join(localRoot, 'pics35/tall.png'));
    await solid(3000, 1600).toFile(path.join(localRoot, 'pics35/wide.png'));
    await mount(token, 'Local', '/local', local.config.id);
    const second = await localStorage(token, uniqueName('explorer35-b'));
    secondRoot = second.root;
    await mount(token, 'Second', '/second', second.config.id);
  });

  test('(a) a single click opens a folder; checkboxes, Ctrl- and Shift-click select', async ({ adminPage: page }) => {
    await page.goto('/mount-explorer/local');
    await expect(row(page, 'alpha')).toBeVisible();
    // Checkboxes select without opening, several at once.
    await check(page, 'alpha').click();
    await check(page, 'beta').click();
    await expect(page).toHaveURL(/\/mount-explorer\/local$/);
    await expect(selected(page)).toHaveCount(2);
    await expect(page.getByText('2 selected')).toBeVisible();
    await check(page, 'beta').click();
    await expect(selected(page)).toHaveCount(1);
    await page.keyboard.press('Escape');
    // Ctrl-click and Shift-click select folders too.
    await row(page, 'alpha').click({ modifiers: ['ControlOrMeta'] });
    await row(page, 'beta').click({ modifiers: ['Shift'] });
    await row(page, 'gamma.txt').click({ modifiers: ['ControlOrMeta'] });
    await expect(page).toHaveURL(/\/mount-explorer\/local$/);
    // alpha, beta (the range) and gamma.txt.
    await expect(selected(page)).toHaveCount(3);
    await expect(row(page, 'beta')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Escape');
    // A plain click on a file selects it; on a folder it opens it.
    await row(page, 'gamma.txt').click();
    await expect(row(page, 'gamma.txt')).toHaveAttribute('aria-selected', 'true');
    await row(page, 'alpha').click();
    await expect(page).toHaveURL(/\/mount-explorer\/local\/alpha$/);
    await expect(row(page, 'one.txt')).toBeVisible();
    // A double-click (habit) opens one folder, not the one under the pointer after it.
    await row(page, 'inner').dblclick();
    await expect(page).toHaveURL(/\/mount-explorer\/local\/alpha\/inner$/);
    await expect(row(page, 'deep.txt')).toBeVisible();
    await afterPendingTasks(page);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('(a) on a phone a tap opens a folder and the checkbox selects', async ({ browser, token }) => {
    const context = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await seedStorage(page, { admin_token: token });
    await page.goto('/mount-explorer/local');
    await check(page, 'alpha').tap();
    await check(page, 'gamma.txt').tap();
    await expect(selected(page)).toHaveCount(2);
    await expect(page).toHaveURL(/\/mount-explorer\/local$/);
    const box = (await check(page, 'beta').boundingBox())!;
    // A touch target a thumb can hit.
    expect(box.width).toBeGreaterThanOrEqual(40);
    expect(box.height).toBeGreaterThanOrEqual(40);
    await row(page, 'beta').getByText('beta').tap();
    await expect(page).toHaveURL(/\/mount-explorer\/local\/beta$/);
    await expect(row(page, 'two.txt')).toBeVisible();
    await context.close();
  });

  test('(b) Backspace and Alt+ArrowUp go up one folder', async ({ adminPage: page }) => {
    await page.goto('/mount-explorer/local/alpha/inner');
    await expect(row(page, 'deep.txt')).toBeVisible();
    await page.keyboard.press('Backspace');
    await expect(page).toHaveURL(/\/mount-explorer\/local\/alpha$/);
    await expect(row(page, 'one.txt')).toBeVisible();
    await page.keyboard.press('Alt+ArrowUp');
    await expect(page).toHaveURL(/\/mount-explorer\/local$/);
    await expect(row(page, 'alpha')).toBeVisible();
    // Typing in the filter box is not a way up.
    await page.getByRole('searchbox', { name: 'Filter by name' }).fill('x');
    await page.keyboard.press('Backspace');
    await expect(page).toHaveURL(/\/mount-explorer\/local$/);
  });

  test('(c) a key sent back from outside its base path is told why', async ({ page, token }) => {
    const key = await createKey(token, {
      name: uniqueName('team35'),
      permissions: Perm.MOUNT_VIEW,
      basic_path: '/local/team',
    });
    await seedStorage(page, {
      api_key: key.key,
      api_key_permissions: String(key.permissions),
      api_key_info: JSON.stringify({
        id: key.id,
        name: key.name,
        basic_path: '/local/team',
        is_guest: 0,
        role: 'GENERAL',
        expires_at: null,
      }),
    });
    await page.goto('/mount-explorer/local/other');
    await expect(page).toHaveURL(/\/mount-explorer\/local\/team$/);
    const notice = page.getByTestId('fs-denied');
    await expect(notice).toContainText('No permission for /local/other');
    await expect(notice).toContainText('/local/team');
    await expect(row(page, 'inside.txt')).toBeVisible();
    // The breadcrumb above the base path says so too; going up from the base path is refused the same way.
    await page.getByTestId('fs-breadcrumbs').getByRole('link', { name: 'All mounts' }).click();
    await expect(page).toHaveURL(/\/mount-explorer\/local\/team$/);
    await expect(notice).toContainText('No permission for /');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice).toHaveCount(0);
    await page.keyboard.press('Backspace');
    await expect(notice).toContainText('No permission for /local');
  });

  test('(d) copy or move onto a taken name asks: keep both, replace, skip, for all', async ({ adminPage: page }) => {
    const file = (rel: string) => path.join(localRoot, rel);
    const read = (rel: string) => (existsSync(file(rel)) ? readFileSync(file(rel), 'utf8') : null);
    const pickDst = async (button: string) => {
      const picker = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: button }) });
      await picker.getByRole('button', { name: 'Up one folder' }).click();
      await picker.getByRole('button', { name: 'dst35', exact: true }).click();
      await expect(picker).toContainText('/local/dst35');
      await picker.getByRole('button', { name: button }).click();
    };
    const question = (name: string) => page.getByRole('dialog', { name: `“${name}” already exists` });

    // Both names are taken: one answer for both, keep both.
    await page.goto('/mount-explorer/local/src35');
    await check(page, 'x.txt').click();
    await check(page, 'y.txt').click();
    await page.getByRole('button', { name: 'Copy to…' }).click();
    await pickDst('Copy here');
    await expect(question('x.txt')).toContainText('/local/dst35');
    await question('x.txt').getByText('Do the same for the other conflict').click();
    await question('x.txt').getByRole('button', { name: 'Keep both' }).click();
    await expect(question('y.txt')).toHaveCount(0);
    await expect.poll(() => read('dst35/x (1).txt')).toBe('new x');
    await expect.poll(() => read('dst35/y (1).txt')).toBe('new y');
    expect(read('dst35/x.txt')).toBe('old x');
    expect(read('dst35/y.txt')).toBe('old y');

    // Move within the mount onto a taken name: replace.
    await row(page, 'x.txt').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Move to…' }).click();
    await pickDst('Move here');
    await question('x.txt').getByRole('button', { name: 'Replace' }).click();
    await expect(row(page, 'x.txt')).toHaveCount(0);
    expect(read('dst35/x.txt')).toBe('new x');
    expect(read('src35/x.txt')).toBe(null);

    // Skip leaves the target alone and starts nothing.
    await row(page, 'y.txt').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Copy to…' }).click();
    await pickDst('Copy here');
    await question('y.txt').getByRole('button', { name: 'Skip' }).click();
    await expect(page.getByText('Nothing to do: every item was skipped')).toBeVisible();
    expect(read('dst35/y.txt')).toBe('old y');
  });

  test('(e) "Copy direct link" copies it; a move across mounts is titled Move', async ({ adminPage: page }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/mount-explorer/local');
    await row(page, 'gamma.txt').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Copy direct link' }).click();
    await expect(page.getByText('Direct link to “gamma.txt” copied')).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^https?:\/\//);
    expect(await (await page.request.get(copied)).text()).toBe('gamma');

    await page.goto('/mount-explorer/local/cross');
    await row(page, 'mv.txt').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Move to…' }).click();
    const picker = page.getByRole('dialog');
    await picker.getByRole('button', { name: 'Up one folder' }).click();
    await picker.getByRole('button', { name: 'Up one folder' }).click();
    await picker.getByRole('button', { name: 'second', exact: true }).click();
    await picker.getByRole('button', { name: 'Move here' }).click();
    await expect(page.getByText('Moving 1 item: see the task list')).toBeVisible();
    await expect(page.getByTestId('fs-task-title').filter({ hasText: 'mv.txt' })).toHaveText('Move mv.txt to /second');
    await expect.poll(() => existsSync(path.join(localRoot, 'cross/mv.txt'))).toBe(false);
    expect(readFileSync(path.join(secondRoot, 'mv.txt'), 'utf8')).toBe('moved across');
  });

  test('(f) the image preview fits the dialog, whole, without scrolling', async ({ adminPage: page }) => {
    for (const size of [
      { width: 1280, height: 720 },
      { width: 390, height: 844 },
      { width: 1280, height: 500 },
    ]) {
      await page.setViewportSize(size);
      for (const name of ['tall.png', 'wide.png']) {
        await page.goto(`/mount-explorer/local/pics35?preview=${encodeURIComponent(`/local/pics35/${name}`)}`);
        const image = page.getByTestId('image-preview');
        await expect(image).toBeVisible();
        await expect
          .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
          .toBeTruthy();
        const fit = await page.getByRole('dialog').evaluate((dialog) => {
          const img = dialog.querySelector('img')!.getBoundingClientRect();
          const box = dialog.getBoundingClientRect();
          const scrollers = [...dialog.querySelectorAll<HTMLElement>('*')].filter(
            (el) => el.scrollHeight > el.clientHeight + 1 && getComputedStyle(el).overflowY !== 'visible',
          );
          return {
            inside: img.top >= box.top && img.bottom <= box.bottom && img.left >= box.left && img.right <= box.right,
            onScreen: img.bottom <= innerHeight && img.top >= 0,
            scrollers: scrollers.length,
          };
        });
        expect(fit, `${name} at ${size.width}×${size.height}`).toEqual({ inside: true, onScreen: true, scrollers: 0 });
      }
    }
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  test('(g) sharing from the explorer offers password, expiry and max views', async ({ adminPage: page }) => {
    await page.goto('/mount-explorer/local');
    await row(page, 'gamma.txt').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Share' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share “gamma.txt”' });
    await dialog.getByRole('radio', { name: '1 day' }).click();
    await dialog.getByRole('textbox', { name: /^Password/ }).fill('s3cret-35');
    await dialog.getByLabel('Max views').fill('x');
    await expect(dialog.getByText('Enter a whole number (0 for unlimited)')).toBeVisible();
    await dialog.getByLabel('Max views').fill('3');
    const created = page.waitForResponse((r) => r.url().includes('/api/fs/create-share'));
    await dialog.getByRole('button', { name: 'Create share link' }).click();
    const response = await created;
    expect(response.request().postDataJSON()).toEqual({
      path: '/local/gamma.txt',
      password: 's3cret-35',
      expires_in: 24,
      max_views: 3,
    });
    const share = (await response.json()).data as {
      slug: string;
      has_password: boolean;
      max_views: number;
      expires_at: string;
    };
    expect(share.has_password).toBe(true);
    expect(share.max_views).toBe(3);
    expect(Date.parse(share.expires_at) - Date.now()).toBeGreaterThan(23 * 3600_000);
    await expect(page.getByTestId('fs-link')).toHaveValue(new RegExp(`/file/${share.slug}$`));
    const info = await page.request.get(`/api/public/files/${share.slug}`);
    expect((await info.json()).data.requires_password).toBe(true);
  });

  test('(i) a .docx previews in the office viewer, as on the file page', async ({ adminPage: page, token }) => {
    // The third-party viewer is an option now (built in is the default).
    await call('PUT', '/admin/settings/group/2', { token, body: { preview_office_provider: 'microsoft' } });
    // The viewer is a third-party page: answered here, so the test does not leave the machine.
    await page.route('https://view.officeapps.live.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<p>office viewer</p>' }),
    );
    await page.goto(`/mount-explorer/local/docs35?preview=${encodeURIComponent('/local/docs35/report.docx')}`);
    const frame = page.getByTestId('fs-office-preview');
    await expect(frame).toBeVisible();
    const src = new URL((await frame.getAttribute('src'))!);
    expect(src.origin + src.pathname).toBe('https://view.officeapps.live.com/op/view.aspx');
    // The viewer fetches the file through the link it was given.
    const file = await page.request.get(src.searchParams.get('src')!);
    expect(await file.text()).toBe('PK not really a docx');
    await expect(page.getByRole('dialog')).toContainText('Shown by Microsoft Office Online');
    await expect(page.getByRole('dialog')).not.toContainText('No preview for this type of file');
    await call('PUT', '/admin/settings/group/2', { token, body: { preview_office_provider: 'builtin' } });
  });
});
