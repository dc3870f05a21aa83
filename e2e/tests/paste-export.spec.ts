import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect as baseExpect, seedStorage, test } from '../support/fixtures';
import { RICH_MARKDOWN } from '../support/pastes';

// The machine running the suite is shared and busy: give page loads more time than the default.
const expect = baseExpect.configure({ timeout: 15_000 });

/** Records the type of every Blob the page turns into a download URL. */
async function recordBlobTypes(page: Page) {
  await page.addInitScript(() => {
    const original = URL.createObjectURL.bind(URL);
    const types: string[] = [];
    (window as unknown as { __blobTypes: string[] }).__blobTypes = types;
    URL.createObjectURL = (obj: Blob | MediaSource) => {
      if (obj instanceof Blob) types.push(obj.type);
      return original(obj);
    };
  });
}

async function exportAs(page: Page, item: string) {
  await page.getByRole('button', { name: 'Export' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 30_000 }),
    page.getByRole('menuitem', { name: item }).click(),
  ]);
  const bytes = await readFile((await download.path())!);
  return { name: download.suggestedFilename(), bytes };
}

test.describe('exports', () => {
  test.describe.configure({ timeout: 90_000 });

  test('Word and PNG exports download real files of the right type', async ({ page }) => {
    await recordBlobTypes(page);
    await seedStorage(page, { clipnest_paste_draft: JSON.stringify({ type: 'markdown', content: RICH_MARKDOWN }) });
    await page.goto('/');
    await expect(page.getByTestId('markdown-body').locator('.md-diagram img')).toBeVisible({ timeout: 15_000 });

    const word = await exportAs(page, 'Word document (.docx)');
    expect(word.name).toBe('Quarterly numbers.docx');
    expect(word.bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(word.bytes.length).toBeGreaterThan(2000);
    expect(word.bytes.includes(Buffer.from('word/document.xml'))).toBe(true);

    const png = await exportAs(page, 'Image (.png)');
    expect(png.name).toBe('Quarterly numbers.png');
    expect(png.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const width = png.bytes.readUInt32BE(16);
    const height = png.bytes.readUInt32BE(20);
    expect(width).toBeGreaterThanOrEqual(1000);
    expect(height).toBeGreaterThan(400);
    expect(png.bytes.length).toBeGreaterThan(20_000);

    const types = await page.evaluate(() => (window as unknown as { __blobTypes: string[] }).__blobTypes);
    expect(types).toContain('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(types).toContain('image/png');
  });

  test('plain text exports to Word too', async ({ page }) => {
    await seedStorage(page, { clipnest_paste_draft: JSON.stringify({ type: 'text', content: 'hello\nplain world' }) });
    await page.goto('/');
    const word = await exportAs(page, 'Word document (.docx)');
    expect(word.name).toBe('hello.docx');
    expect(word.bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  });
});
