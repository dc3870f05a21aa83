/** Explorer steps shared by the specs. */
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** An entry's row in the explorer's listing. */
export const entryRow = (page: Page, name: string) => page.locator(`[data-testid="fs-entry"][data-name="${name}"]`);

/** "Copy to…" (or "Move to…") on an entry, into the root of another mount (its path segment, e.g. 'cloud'). */
export async function transferToMount(
  page: Page,
  name: string,
  mountSegment: string,
  action: 'copy' | 'move' = 'copy',
) {
  await entryRow(page, name).click({ button: 'right' });
  await page.getByRole('menuitem', { name: action === 'copy' ? 'Copy to…' : 'Move to…' }).click();
  const picker = page.getByRole('dialog');
  while (await picker.getByRole('button', { name: 'Up one folder' }).isVisible())
    await picker.getByRole('button', { name: 'Up one folder' }).click();
  await picker.getByRole('button', { name: mountSegment, exact: true }).click();
  await expect(picker).toContainText(`/${mountSegment}`);
  await picker.getByRole('button', { name: action === 'copy' ? 'Copy here' : 'Move here' }).click();
}
