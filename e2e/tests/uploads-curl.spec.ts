import { execFileSync } from 'node:child_process';
import { Permission } from '@clipnest/contract';
import { createKey, deleteKey, uniqueName } from '../support/api';
import { BASE_URL } from '../support/env';
import { expect, test } from '../support/fixtures';
import { randomFile, sha256 } from '../support/uploads';

test('a shell user shares a file with one curl line (PUT /api/upload-direct)', async ({ page, token }) => {
  const key = await createKey(token, { name: uniqueName('curl'), permissions: Permission.FILE_SHARE });
  const file = randomFile('from-curl.bin', 256 * 1024);
  try {
    const link = execFileSync(
      'curl',
      [
        '-sS',
        '--fail-with-body',
        '-T',
        file.path,
        '-H',
        `Authorization: ApiKey ${key.key}`,
        `${BASE_URL}/api/upload-direct/from-curl.bin?expires_in=24`,
      ],
      { encoding: 'utf8', timeout: 30_000 },
    ).trim();
    expect(link).toMatch(new RegExp(`^${BASE_URL}/file/[\\w-]+$`));

    // The link opens the share page; its download has the same bytes.
    await page.goto(link);
    await expect(page.getByText('from-curl.bin').first()).toBeVisible();
    const slug = link.split('/').pop()!;
    const response = await fetch(`${BASE_URL}/api/file-download/${slug}`);
    expect(response.status).toBe(200);
    expect(sha256(Buffer.from(await response.arrayBuffer()))).toBe(file.sha256);

    // Without a key the same line is refused with a clear message.
    const refused = execFileSync(
      'curl',
      ['-sS', '-o', '-', '-w', '%{http_code}', '-T', file.path, `${BASE_URL}/api/upload-direct/x.bin`],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(refused).toMatch(/401$/);
  } finally {
    file.cleanup();
    await deleteKey(token, key.id);
  }
});
