/** Explorer steps shared by the specs. */
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** An entry's row in the explorer's listing. */
export const entryRow = (page: Page, name: string) => page.locator(`[data-testid="fs-entry"][data-name="${name}"]`);

/** "Copy to…" on an entry, into the root of another mount (its path segment, e.g. 'cloud'). */
export async function copyToMount(page: Page, name: string, mountSegment: string) {
  await entryRow(page, name).click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Copy to…' }).click();
  const picker = page.getByRole('dialog');
  while (await picker.getByRole('button', { name: 'Up one folder' }).isVisible())
    await picker.getByRole('button', { name: 'Up one folder' }).click();
  await picker.getByRole('button', { name: mountSegment, exact: true }).click();
  await expect(picker).toContainText(`/${mountSegment}`);
  await picker.getByRole('button', { name: 'Copy here' }).click();
}
