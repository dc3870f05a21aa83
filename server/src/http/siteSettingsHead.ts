import type { Context } from 'hono';
import { SITE_DEFAULTS } from '@clipnest/contract';
import type { Logger } from '../lib/logger.js';
import type { SettingsService } from '../services/admin/settingsService.js';
import type { ShellHead } from './appShellCsp.js';
import { escapeAttribute } from './linkPreview.js';

/** The `<meta name>` the web app reads its public site settings from (web/src/lib/siteConfig.ts). */
export const SITE_SETTINGS_META = 'clipnest-site-settings';

/**
 * The public site settings (what `GET /api/public/site-settings` answers) written into every page the server
 * renders, so the first render of a cold load waits for no request of its own for the title and footer. A page the
 * service worker serves from its precache has none and asks the API as before. A failed read leaves it out.
 */
export function siteSettingsHead(deps: {
  settings: SettingsService;
  logger: Logger;
}): (c: Context) => Promise<ShellHead | undefined> {
  return async () => {
    try {
      const site = await deps.settings.site();
      return {
        markup: `  <meta name="${SITE_SETTINGS_META}" content="${escapeAttribute(JSON.stringify(site))}" />\n  `,
        replacesDescription: false,
        // The header of the first paint shows the title as the app does (web/src/lib/siteConfig.ts).
        prepaint: { siteTitle: site.site_title.trim() || SITE_DEFAULTS.site_title },
      };
    } catch (error) {
      deps.logger.error('site settings: the read failed; the page is served without them', error);
      return undefined;
    }
  };
}

/** Every head addition of a page, in order; a page replaces the shell's description when any of them does. */
export function joinHeads(
  ...heads: ((c: Context) => Promise<ShellHead | undefined>)[]
): (c: Context) => Promise<ShellHead | undefined> {
  return async (c) => {
    const parts = (await Promise.all(heads.map((head) => head(c)))).filter((part) => part !== undefined);
    if (parts.length === 0) return undefined;
    const prepaint = Object.assign({}, ...parts.map((part) => part.prepaint)) as ShellHead['prepaint'];
    return {
      markup: parts.map((part) => part.markup).join(''),
      replacesDescription: parts.some((part) => part.replacesDescription),
      ...(parts.some((part) => part.prepaint) ? { prepaint } : {}),
    };
  };
}
