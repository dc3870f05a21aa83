/**
 * Conditions to wait for instead of fixed sleeps: a sleep is too short on a busy machine and wasted time on a
 * quiet one.
 */
import type { Locator, Page } from '@playwright/test';

/**
 * Resolves once the page's event loop has gone round twice: whatever a click, a key or a navigation queued before
 * (event handlers, a dialog, a React render, an image's onerror) has run by then. Not animation frames: a document
 * that draws nothing new (a text/plain answer) may never get one.
 */
export async function afterPendingTasks(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(() => setTimeout(resolve, 0), 0)));
}

/**
 * Waits until the running CSS animations and transitions in `target` (a locator: it and its subtree; a page: the
 * whole document) have finished: a toast that slid in, a colour that faded. Endless ones (spinners) are ignored.
 */
export async function animationsFinished(target: Page | Locator): Promise<void> {
  if ('goto' in target) await target.evaluate(finishInPage);
  else await target.evaluate(finishInElement);
}

// Plain functions: Playwright serialises them into the page.
const finishInPage = async () => {
  await Promise.all(
    document
      .getAnimations()
      .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity)
      .map((a) => a.finished.catch(() => undefined)),
  );
};
const finishInElement = async (el: Element) => {
  await Promise.all(
    el
      .getAnimations({ subtree: true })
      .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity)
      .map((a) => a.finished.catch(() => undefined)),
  );
};

/**
 * Waits until every image of the page has loaded or failed (its onload/onerror has had its turn after that).
 * Lazy images below the fold would never start loading, so they are switched to eager first.
 */
export async function imagesSettled(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const img of document.images) if (img.loading === 'lazy') img.loading = 'eager';
  });
  await page.waitForFunction(() => [...document.images].every((img) => img.complete));
  await afterPendingTasks(page);
}
