import { call } from '../support/api';
import { uploadViaApi } from '../support/files';
import { expect, test } from '../support/fixtures';
import { createPaste, deleteAllPastes } from '../support/pastes';

/** Issue 35 point 14: the admin opening its limited, protected shares in the web app uses up no view. */
test.describe('owners see their own shares uncounted', () => {
  test('a 2-view paste with a password, opened three times by the admin, is still whole', async ({
    adminPage: page,
    token,
  }) => {
    await deleteAllPastes(token);
    const paste = await createPaste(token, { content: 'owner look', max_views: 2, password: 'pw-9876' });
    for (let i = 0; i < 3; i++) {
      await page.goto(`/paste/${paste.slug}`);
      await expect(page.getByText('owner look')).toBeVisible();
      await expect(page.getByTestId('remaining-views')).toHaveText('Views left: 2');
    }
    await expect(page.getByTestId('owner-note')).toContainText('your visits are not counted');
    // A visitor still needs the password, and is counted.
    const visitor = await call<{ views: number }>('POST', `/paste/${paste.slug}`, { body: { password: 'pw-9876' } });
    expect(visitor.envelope.data?.views).toBe(1);
  });

  test('a 1-view file opened twice by the admin is still there for its visitor', async ({ adminPage: page, token }) => {
    const file = await uploadViaApi(token, 'once.txt', 'one visitor', 'text/plain', { max_views: 1 });
    for (let i = 0; i < 2; i++) {
      await page.goto(`/file/${file.slug}`);
      await expect(page.getByTestId('file-details')).toBeVisible();
    }
    await expect(page.getByTestId('owner-note')).toContainText('your visits are not counted');
    const visitor = await call<{ views: number }>('GET', `/public/files/${file.slug}`);
    expect(visitor.status).toBe(200);
    expect((await call('GET', `/public/files/${file.slug}`)).status).toBe(410);
  });
});
