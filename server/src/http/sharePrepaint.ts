import type { Context } from 'hono';
import { createElement } from 'react';
// The build for web runtimes: no Node builtins (which the server's ESM bundle could not `require`), and
// renderToString is all this needs.
import { renderToString } from 'react-dom/server.browser';
import { PagePrepaint, type PagePrepaintProps } from '../../../web/src/app/layout/PagePrepaint';
import type { ShellHead } from './appShellCsp.js';

/**
 * A public page's first paint, rendered with React's own server renderer from the web app's component
 * and written into the shell's `#root` (appShellCsp.ts); the app's first render replaces it. React escapes every
 * text: a title or paste can add no markup. The frame shows the site title; an open plain-text paste's page shows
 * its text too, and only what LinkPreviewService.pastePage hands out gets here: never a password-protected,
 * end-to-end encrypted, view-limited or expired paste, and reading it counts no view. Markdown is not rendered here
 * (the server has no HTML sanitiser): its page renders on the client as before.
 */
export function renderPrepaint(props: PagePrepaintProps): string {
  return renderToString(createElement(PagePrepaint, props));
}

/**
 * Whether a shell request is for a page the public frame fits: not the admin panel (its own layout) and not
 * `/index.html` (the service worker's precached copy answers every later navigation, whatever its path).
 */
export function takesPrepaint(pathname: string): boolean {
  const first = (pathname.split('/')[1] ?? '').toLowerCase();
  return first !== 'admin' && first !== 'index.html';
}

/** `head` with the first paint its parts describe rendered into `root` (webApp.ts, appShellCsp.ts). */
export function withPrepaint(
  head: (c: Context) => Promise<ShellHead | undefined>,
): (c: Context) => Promise<ShellHead | undefined> {
  return async (c) => {
    const joined = await head(c);
    const siteTitle = joined?.prepaint?.siteTitle;
    if (!joined || siteTitle === undefined || !takesPrepaint(c.req.path)) return joined;
    try {
      return { ...joined, root: renderPrepaint({ siteTitle, paste: joined.prepaint?.paste }) };
    } catch {
      // Never an error page: the page is served as before, the app paints it.
      return joined;
    }
  };
}
