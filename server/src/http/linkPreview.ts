import type { Context } from 'hono';
import type { Logger } from '../lib/logger.js';
import type { LinkPreview, LinkPreviewService } from '../services/linkPreviews/linkPreviewService.js';
import { withoutControls } from '../services/linkPreviews/linkPreviewText.js';
import type { ShellHead } from './appShellCsp.js';
import { requestOrigin } from './clientAddress.js';

/** Longest slug segment looked at (encoded): slugs are 64 characters at most. */
const MAX_SEGMENT = 64 * 12;

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for a double-quoted attribute: controls removed, `& < > " '` escaped. */
export function escapeAttribute(text: string): string {
  return withoutControls(text).replace(/[&<>"']/g, (ch) => ATTRIBUTE_ESCAPES[ch]!);
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * The share page a path names, read as the web router reads it: `/paste/{slug}` or `/file/{slug}`, the first
 * segment in any case, each segment percent-decoded, one trailing slash allowed. undefined for any other path, a
 * slug that does not decode, holds a "/" or control characters, or is too long.
 */
export function sharePagePath(pathname: string): { kind: 'paste' | 'file'; slug: string } | undefined {
  const segments = pathname.split('/');
  if (segments.length === 4 && segments[3] === '') segments.pop();
  if (segments.length !== 3 || segments[0] !== '') return undefined;
  const [, first = '', raw = ''] = segments;
  if (first.length > 15 || raw === '' || raw.length > MAX_SEGMENT) return undefined;
  const kind = decodeSegment(first)?.toLowerCase();
  if (kind !== 'paste' && kind !== 'file') return undefined;
  const slug = decodeSegment(raw);
  // eslint-disable-next-line no-control-regex
  if (!slug || slug.length > 64 || /[/\u0000-\u001f\u007f]/.test(slug)) return undefined;
  return { kind, slug };
}

/** The meta tags of a preview: the site name always, the share's card when the preview has one. */
export function previewHead(preview: LinkPreview, origin: string): ShellHead {
  const tags: [attribute: 'property' | 'name', key: string, value: string][] = [
    ['property', 'og:site_name', preview.siteName],
  ];
  const { share } = preview;
  if (share) {
    tags.push(
      ['property', 'og:type', share.kind === 'paste' ? 'article' : 'website'],
      ['property', 'og:title', share.title],
      ['property', 'og:description', share.description],
      ['property', 'og:url', `${origin}/${share.kind}/${encodeURIComponent(share.slug)}`],
      ['name', 'twitter:card', 'summary'],
      ['name', 'twitter:title', share.title],
      ['name', 'twitter:description', share.description],
      ['name', 'description', share.description],
    );
  }
  const lines = tags.map(
    ([attribute, key, value]) => `<meta ${attribute}="${key}" content="${escapeAttribute(value)}" />`,
  );
  return { markup: `  ${lines.join('\n    ')}\n  `, replacesDescription: share !== undefined };
}

/**
 * The `<head>` additions of a shell request (webApp.ts): link-preview meta for a shared paste or file page (and an
 * open plain-text paste's first paint for its `#root`), nothing
 * for any other path (no lookup either). A failed lookup is logged and the page served plain: never an error page.
 */
export function linkPreviewHead(deps: {
  previews: LinkPreviewService;
  trustProxy: boolean;
  publicUrl?: string;
  logger: Logger;
}): (c: Context) => Promise<ShellHead | undefined> {
  return async (c) => {
    try {
      const url = new URL(c.req.url);
      const page = sharePagePath(url.pathname);
      if (!page) return undefined;
      const origin = requestOrigin(c, deps.trustProxy, deps.publicUrl);
      if (page.kind === 'file') return previewHead(await deps.previews.file(page.slug), origin);
      // An open plain-text paste's page is painted with its text too (sharePrepaint.ts), from the same read.
      const { preview, open } = await deps.previews.pastePage(page.slug);
      const head = previewHead(preview, origin);
      return open ? { ...head, prepaint: { paste: open } } : head;
    } catch (error) {
      deps.logger.error('link preview: the lookup failed; the page is served without it', error);
      return undefined;
    }
  };
}
