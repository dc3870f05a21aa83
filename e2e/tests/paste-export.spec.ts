import { readFile, writeFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import JSZip from 'jszip';
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

  test('Word export writes formulas as Word equations and diagrams as pictures, each once', async ({ page }, info) => {
    await seedStorage(page, { clipnest_paste_draft: JSON.stringify({ type: 'markdown', content: RICH_MARKDOWN }) });
    await page.goto('/');
    await expect(page.getByTestId('markdown-body').locator('.md-diagram img')).toBeVisible({ timeout: 15_000 });

    const word = await exportAs(page, 'Word document (.docx)');
    await writeFile(info.outputPath('export.docx'), word.bytes);
    const zip = await JSZip.loadAsync(word.bytes);
    const xml = await zip.file('word/document.xml')!.async('string');
    const text = [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');

    // The inline growth formula and the display sum: two equations, one of them a display paragraph.
    expect(xml.match(/<m:oMath>/g)?.length).toBe(2);
    expect(xml.match(/<m:oMathPara>/g)?.length).toBe(1);
    expect(xml.match(/<m:f>/g)?.length).toBe(2);
    // No TeX and no second copy of a formula in the text (it used to read "g=q1q2−q1g = \frac{…}…").
    expect(text).not.toMatch(/\\frac|\\sum|q_2|q2−q1/);
    expect(text).toContain('Growth: ');
    // The diagram is a PNG drawn by the browser, not its source.
    expect(xml.match(/<w:drawing>/g)?.length).toBe(1);
    expect(text).not.toContain('Collect');
    const media = Object.keys(zip.files).filter((name) => /^word\/media\/.+\.png$/.test(name));
    expect(media).toHaveLength(1);
    const png = await zip.file(media[0]!)!.async('nodebuffer');
    expect(png.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
    expect(png.readUInt32BE(16)).toBeGreaterThan(200);
    expect(png.length).toBeGreaterThan(2000);
  });

  test('plain text exports to Word too', async ({ page }) => {
    await seedStorage(page, { clipnest_paste_draft: JSON.stringify({ type: 'text', content: 'hello\nplain world' }) });
    await page.goto('/');
    const word = await exportAs(page, 'Word document (.docx)');
    expect(word.name).toBe('hello.docx');
    expect(word.bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  });
});
