// The explorer over remote storage types (issue 38): a WebDAV mount on Apache mod_dav and an SFTP mount on OpenSSH's
// sshd, both started here on 127.0.0.1 by the server tests' own support modules. The admin browses both, uploads
// into each through the page, and copies across them (a copy task that streams between two remote servers).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startApacheDav, type ApacheDav } from '../../server/test/support/apacheDav';
import { startSshd, type Sshd } from '../../server/test/support/sshd';
import { adminToken, call, uniqueName } from '../support/api';
import { entryRow as row, transferToMount } from '../support/explorer';
import { expect, test } from '../support/fixtures';
import { deleteAllMounts, mount, writeTree } from '../support/mounts';

async function createConfig(token: string, body: Record<string, unknown>): Promise<string> {
  const { status, envelope } = await call<{ id: string }>('POST', '/s3-configs', { token, body });
  if (status >= 300) throw new Error(`storage config ${String(body.storage_type)} → ${status}: ${envelope.message}`);
  return envelope.data!.id;
}

test.describe('explorer over WebDAV and SFTP mounts', () => {
  // Two real servers and copies between them: more than the default on CI's busy cores.
  test.describe.configure({ timeout: 120_000 });
  let dav: ApacheDav;
  let sshd: Sshd;

  test.beforeAll(async () => {
    [dav, sshd] = await Promise.all([startApacheDav(), startSshd()]);
    writeTree(dav.root, { 'docs/hello 世界.txt': 'from the NAS' });
    writeTree(sshd.root, { 'backup/old #1.txt': 'from the server' });
    const token = await adminToken();
    // Tasks other specs finished would be counted with ours.
    await call('DELETE', '/fs/tasks/completed', { token });
    await deleteAllMounts(token);
    const davId = await createConfig(token, {
      storage_type: 'webdav',
      name: uniqueName('nas-webdav'),
      endpoint_url: dav.url,
      username: dav.username,
      password: dav.password,
    });
    const sftpId = await createConfig(token, {
      storage_type: 'sftp',
      name: uniqueName('nas-sftp'),
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
      private_key: sshd.privateKey,
      root_folder: sshd.root,
    });
    await mount(token, 'NAS WebDAV', '/nasdav', davId);
    await mount(token, 'Server SFTP', '/nassftp', sftpId);
  });

  test.afterAll(async () => {
    const token = await adminToken();
    // Finished tasks would show in the task panel of other specs' pages.
    await call('DELETE', '/fs/tasks/completed', { token });
    await deleteAllMounts(token);
    await Promise.all([dav?.stop(), sshd?.stop()]);
  });

  test('browses both, uploads into each and copies across them', async ({ adminPage: page }) => {
    // WebDAV: browse into a folder, upload a file with an awkward name, copy it to the SFTP mount.
    await page.goto('/mount-explorer/nasdav');
    await row(page, 'docs').click();
    await expect(page).toHaveURL(/\/nasdav\/docs$/);
    await expect(row(page, 'hello 世界.txt')).toBeVisible();
    await page
      .getByTestId('fs-file-input')
      .setInputFiles({ name: 'report #1 + 50%.txt', mimeType: 'text/plain', buffer: Buffer.from('quarterly') });
    await expect(page.locator('[data-testid="fs-upload"][data-status="done"]')).toHaveCount(1, { timeout: 30_000 });
    await expect(row(page, 'report #1 + 50%.txt')).toBeVisible();
    expect(readFileSync(path.join(dav.root, 'docs', 'report #1 + 50%.txt'), 'utf8')).toBe('quarterly');

    await transferToMount(page, 'report #1 + 50%.txt', 'nassftp');
    const toSftp = page.getByTestId('fs-task').first();
    await expect(toSftp).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
    expect(readFileSync(path.join(sshd.root, 'report #1 + 50%.txt'), 'utf8')).toBe('quarterly');

    // SFTP: the copy is listed, an upload lands on the server, a folder copies back to WebDAV.
    await page.goto('/mount-explorer/nassftp');
    await expect(row(page, 'report #1 + 50%.txt')).toBeVisible();
    await expect(row(page, 'backup')).toBeVisible();
    await page
      .getByTestId('fs-file-input')
      .setInputFiles({ name: 'notes été.md', mimeType: 'text/markdown', buffer: Buffer.from('# été') });
    await expect(row(page, 'notes été.md')).toBeVisible({ timeout: 30_000 });
    expect(readFileSync(path.join(sshd.root, 'notes été.md'), 'utf8')).toBe('# été');

    await transferToMount(page, 'backup', 'nasdav');
    // The newest task is listed first.
    await expect(page.getByTestId('fs-task').first()).toContainText('backup');
    await expect(page.getByTestId('fs-task').first()).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
    expect(readFileSync(path.join(dav.root, 'backup', 'old #1.txt'), 'utf8')).toBe('from the server');
    await page.goto('/mount-explorer/nasdav/backup');
    await expect(row(page, 'old #1.txt')).toBeVisible();
  });
});
