import type { Page } from '@playwright/test';
import { BASE_URL } from './env';

/** Every request the page makes to another origin, collected as it goes (data:, blob: and about: are the page's own). */
export function watchForeign(page: Page): string[] {
  const origin = new URL(BASE_URL).origin;
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('about:')) return;
    if (new URL(url).origin !== origin) foreign.push(url);
  });
  return foreign;
}
