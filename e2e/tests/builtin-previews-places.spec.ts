// The built-in previews (issue 42, point 5) everywhere a file is previewed: the explorer's preview dialog,
// a folder share page and a bundle share page, each for CSV (the sortable virtualised table), .xlsx (tabs,
// the second sheet read when its tab opens), .docx (sandboxed frame) and .pptx. Every request is recorded
// and any that leaves 127.0.0.1 fails the test. A long .docx and a long sheet show their start with a
// "download to see all" line. CLIPNEST_SHOTS=1 adds the screenshots (zh-CN/en, light/dark, 390/1280 px).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { ApiEnvelope, ShareView } from '@clipnest/contract';
import { adminToken, call } from '../support/api';
import { BASE_URL } from '../support/env';
import { expect, seedStorage, test } from '../support/fixtures';
import { watchForeign } from '../support/foreignRequests';
import { localStorage, mount } from '../support/mounts';
import { makeDocx, makePptx, makeXlsx } from '../support/officeSamples';

const out = process.env.PREVIEW_SHOTS_DIR ?? '/tmp/preview-places-shots';
const run = Date.now().toString(36);
const mountPath = `/places${run}`;

const csv = ['city,population', ...Array.from({ length: 20_000 }, (_, i) => `city-${i},${(i * 7919) % 100_000}`)].join(
  '\n',
);
const longRows = Array.from({ length: 1500 }, (_, i) => [i + 1, `row ${i + 1}`]);

async function samples(): Promise<Record<string, Buffer>> {
  return {
    'cities.csv': Buffer.from(csv),
    'budget.xlsx': makeXlsx({
      Budget: [
        ['Item', 'Cost'],
        ['Rent', 1200],
        ['Travel', 45],
      ],
      Notes: [['Remember the deposit']],
    }),
    'plan.docx': await makeDocx('Places plan', ['A paragraph of the plan.', '第二段：中文内容。']),
    'kickoff.pptx': await makePptx([
      { title: 'Kickoff', body: 'Welcome to the project' },
      { title: 'Roadmap', body: 'Ship the previews' },
    ]),
    'long.docx': await makeDocx(
      'Long document',
      Array.from({ length: 400 }, (_, i) => `Paragraph ${i + 1}`),
    ),
    'long.xlsx': makeXlsx({ Rows: [['n', 'label'], ...longRows], Later: [['read on tab click']] }),
  };
}

/** Checks each previewer on the page `open(name)` leaves showing the file `name`. */
async function checkAll(page: Page, open: (name: string) => Promise<Locator | Page>) {
  await open('cities.csv');
  await expect(page.getByTestId('sheet-table')).toContainText('city-0', { timeout: 60_000 });
  expect(await page.getByTestId('sheet-row').count()).toBeLessThan(100);
  await page.getByRole('button', { name: 'population' }).click();
  await page.getByRole('button', { name: 'population' }).click();
  await expect(page.getByTestId('sheet-row').first()).toContainText('99');

  await open('budget.xlsx');
  await expect(page.getByTestId('sheet-tab')).toHaveText(['Budget', 'Notes'], { timeout: 30_000 });
  await expect(page.getByTestId('sheet-table')).toContainText('Rent');
  await page.getByTestId('sheet-tab').nth(1).click();
  // Read in the worker when its tab opens.
  await expect(page.getByTestId('sheet-table')).toContainText('Remember the deposit', { timeout: 30_000 });

  await open('plan.docx');
  const frame = page.locator('[data-testid="docx-view"] iframe');
  await expect(page.frameLocator('[data-testid="docx-view"] iframe').getByText('Places plan')).toBeVisible({
    timeout: 30_000,
  });
  // Neither scripts nor our origin inside the document's frame.
  await expect(frame).toHaveAttribute('sandbox', '');

  await open('kickoff.pptx');
  await expect(page.getByTestId('pptx-slide')).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByTestId('pptx-slide').nth(1)).toContainText('Ship the previews');

  await open('long.docx');
  // The heading, 400 paragraphs and the links' paragraph: 402 blocks, the first 300 laid out.
  await expect(page.getByTestId('docx-truncated')).toContainText('300 of 402', { timeout: 30_000 });
  await expect(page.frameLocator('[data-testid="docx-view"] iframe').getByText('Long document')).toBeVisible();

  await open('long.xlsx');
  await expect(page.getByTestId('sheet-truncated')).toContainText('1,000', { timeout: 30_000 });
  await page.getByTestId('sheet-tab').nth(1).click();
  await expect(page.getByTestId('sheet-table')).toContainText('read on tab click', { timeout: 30_000 });
}

test.describe('built-in previews in the explorer and on folder and bundle shares', () => {
  test.describe.configure({ timeout: 180_000 });
  let folderSlug = '';
  let bundleSlug = '';

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const token = await adminToken();
    await call('PUT', '/admin/settings/group/2', { token, body: { preview_office_provider: 'builtin' } });
    const files = await samples();
    const { config, root } = await localStorage(token, `places${run}`);
    const folder = path.join(root, 'Office');
    mkdirSync(folder, { recursive: true });
    for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(folder, name), bytes);
    await mount(token, `places${run}`, mountPath, config.id);
    const share = await call<ShareView>('POST', '/shares', { token, body: { path: `${mountPath}/Office` } });
    expect(share.status).toBe(201);
    folderSlug = share.envelope.data!.slug;

    const form = new FormData();
    form.append('bundle', 'true');
    for (const [name, bytes] of Object.entries(files)) form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${BASE_URL}/api/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    const envelope = (await res.json()) as ApiEnvelope<ShareView>;
    expect(res.status).toBe(201);
    bundleSlug = envelope.data!.slug;
  });

  test('the explorer previews each as the share page does; a CSV switches to its text editor', async ({
    adminPage: page,
  }) => {
    const foreign = watchForeign(page);
    await checkAll(page, async (name) => {
      await page.goto(
        `/mount-explorer${mountPath}/Office?preview=${encodeURIComponent(`${mountPath}/Office/${name}`)}`,
      );
      return page;
    });
    await page.goto(
      `/mount-explorer${mountPath}/Office?preview=${encodeURIComponent(`${mountPath}/Office/cities.csv`)}`,
    );
    await expect(page.getByTestId('sheet-table')).toContainText('city-0', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Text', exact: true }).click();
    await expect(page.getByTestId('fs-editor')).toHaveValue(/^city,population\ncity-0,0/);
    expect(foreign).toEqual([]);
  });

  for (const [place, slug] of [
    ['folder', () => folderSlug],
    ['bundle', () => bundleSlug],
  ] as const) {
    test(`a ${place} share page previews each file`, async ({ page }) => {
      await seedStorage(page, { language: 'en' });
      const foreign = watchForeign(page);
      await checkAll(page, async (name) => {
        await page.goto(`/s/${slug()}`);
        await page.getByRole('button', { name: new RegExp(name.replace('.', '\\.')) }).click();
        return page;
      });
      expect(foreign).toEqual([]);
    });
  }

  test('screenshots: the explorer previews and the shortened big files', async ({ page, token }) => {
    test.skip(process.env.CLIPNEST_SHOTS !== '1', 'screenshots: CLIPNEST_SHOTS=1 takes them');
    test.setTimeout(600_000);
    mkdirSync(out, { recursive: true });
    for (const lang of ['en', 'zh-CN'] as const) {
      for (const width of [390, 1280] as const) {
        for (const theme of ['light', 'dark'] as const) {
          const context = await page
            .context()
            .browser()!
            .newContext({
              viewport: { width, height: width < 600 ? 844 : 900 },
            });
          const shotPage = await context.newPage();
          await seedStorage(shotPage, { admin_token: token, themeMode: theme, language: lang });
          const suffix = `${lang}-${theme}-${width}`;
          const preview = (name: string) =>
            shotPage.goto(
              `/mount-explorer${mountPath}/Office?preview=${encodeURIComponent(`${mountPath}/Office/${name}`)}`,
            );
          await preview('cities.csv');
          await expect(shotPage.getByTestId('sheet-table')).toContainText('city-0', { timeout: 30_000 });
          await shotPage.screenshot({ path: path.join(out, `explorer-csv-${suffix}.png`) });
          await preview('budget.xlsx');
          await expect(shotPage.getByTestId('sheet-table')).toContainText('Rent', { timeout: 30_000 });
          await shotPage.screenshot({ path: path.join(out, `explorer-xlsx-${suffix}.png`) });
          await preview('long.docx');
          await expect(shotPage.getByTestId('docx-truncated')).toBeVisible({ timeout: 30_000 });
          await shotPage.screenshot({ path: path.join(out, `explorer-long-docx-${suffix}.png`) });
          await shotPage.goto(`/s/${bundleSlug}`);
          await shotPage.getByRole('button', { name: /long\.xlsx/ }).click();
          await expect(shotPage.getByTestId('sheet-truncated')).toBeVisible({ timeout: 30_000 });
          await shotPage.screenshot({ path: path.join(out, `bundle-long-xlsx-${suffix}.png`), fullPage: true });
          await context.close();
        }
      }
    }
  });
});
