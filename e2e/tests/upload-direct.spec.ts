// A shell user shares a file with one curl line (PUT /api/upload-direct), and the link works in a browser.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Permission } from '@clipnest/contract';
import { createKey, uniqueName } from '../support/api';
import { BASE_URL } from '../support/env';
import { expect, test } from '../support/fixtures';

test.describe('curl upload', () => {
  test('curl -T with an API key answers a share link that opens and downloads the same bytes', async ({
    page,
    token,
  }) => {
    const key = await createKey(token, { name: uniqueName('curl'), permissions: Permission.FILE_SHARE });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clipnest-curl-'));
    try {
      const file = path.join(dir, 'curl-report.bin');
      const bytes = randomBytes(256 * 1024);
      writeFileSync(file, bytes);
      const link = execFileSync(
        'curl',
        [
          '-sS',
          '--fail-with-body',
          '-T',
          file,
          '-H',
          `Authorization: ApiKey ${key.key}`,
          `${BASE_URL}/api/upload-direct/`,
        ],
        { encoding: 'utf8' },
      ).trim();
      expect(link).toMatch(new RegExp(`^${BASE_URL}/file/[A-Za-z0-9]+$`));

      // Options in the query; JSON on request.
      const json = JSON.parse(
        execFileSync(
          'curl',
          [
            '-sS',
            '-T',
            file,
            '-H',
            `Authorization: ApiKey ${key.key}`,
            '-H',
            'Accept: application/json',
            `${BASE_URL}/api/upload-direct/renamed.bin?max_views=2&expires_in=1`,
          ],
          { encoding: 'utf8' },
        ),
      ) as { code: number; data: { filename: string; max_views: number; url: string } };
      expect(json.code).toBe(201);
      expect(json.data).toMatchObject({ filename: 'renamed.bin', max_views: 2 });

      // Without a key: a clear 401 envelope, nothing stored.
      const denied = execFileSync(
        'curl',
        ['-s', '-o', '-', '-w', '\n%{http_code}', '-T', file, `${BASE_URL}/api/upload-direct/`],
        {
          encoding: 'utf8',
        },
      );
      expect(denied.trim().endsWith('401')).toBe(true);

      await page.goto(link);
      await expect(page.getByText('curl-report.bin').first()).toBeVisible();
      const slug = link.split('/').pop()!;
      const info = await (await page.request.get(`${BASE_URL}/api/public/files/${slug}`)).json();
      const download = await page.request.get(`${BASE_URL}${info.data.download_url}`);
      expect(download.status()).toBe(200);
      const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
      expect(sha(await download.body())).toBe(sha(bytes));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
