import type { Locator, Page } from '@playwright/test';

/**
 * Screenshots, and the dark-theme runs of tests whose checks do not change with the theme, are for people to look
 * at. On CI nobody looks, and its 2-core machine pays for each (a browser test there takes 2–3 times as long as on
 * a quiet machine); there they run only with CLIPNEST_SHOTS=1. Tests whose checks do change with the theme (axe's
 * contrast rules) keep both themes everywhere.
 */
const lookingAt = process.env.CLIPNEST_SHOTS === '1' || !process.env.CI;

/** The themes a look-only matrix runs in. */
export const lookThemes: readonly ('light' | 'dark')[] = lookingAt ? ['light', 'dark'] : ['light'];

/** A screenshot to look at: written to `path` unless nobody will look at it. */
export async function shot(target: Page | Locator, path: string, fullPage = false): Promise<void> {
  if (!lookingAt) return;
  await ('goto' in target ? target.screenshot({ path, fullPage }) : target.screenshot({ path }));
}
