import { createHash, randomBytes } from 'node:crypto';

/**
 * The Content-Security-Policy of the app shell (index.html).
 *
 * - Scripts: only files of our own origin, the inline scripts of the built index.html by their SHA-256
 *   (the theme/language boot script runs before first paint) and a per-response nonce. No
 *   `'unsafe-inline'`, no `'unsafe-eval'`: markup that slips through a renderer cannot run script.
 * - The nonce is written into `<meta name="clipnest-csp-nonce">`; the web app sets it on the `<script>`
 *   elements of the admin's custom head/body (Admin → Settings → Site) and on nothing else. That is the
 *   documented trade-off (docs/security.md): the admin's code is trusted and runs, inline event
 *   handlers (`onclick=`) in it do not, and scripts it injects itself need the nonce too
 *   (`document.querySelector('meta[name=clipnest-csp-nonce]').content`).
 * - Styles stay `'unsafe-inline'` (KaTeX and Mermaid write style attributes and `<style>` into SVG);
 *   images, media and fetches may reach other origins (presigned S3 URLs, direct uploads).
 */
export interface AppShell {
  html: string;
  csp: string;
}

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

/** The `'sha256-…'` sources of every inline script of the page. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    hashes.push(
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '', 'utf8')
        .digest('base64')}'`,
    );
  }
  return hashes;
}

export function appShellCsp(hashes: string[], nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${[...hashes, `'nonce-${nonce}'`].join(' ')}`,
    "style-src 'self' 'unsafe-inline' https:",
    "img-src 'self' data: blob: http: https:",
    "media-src 'self' blob: http: https:",
    "font-src 'self' data: https:",
    "connect-src 'self' http: https:",
    "frame-src 'self' blob: http: https:",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** Markup a page adds to the shell's `<head>` (link previews: http/linkPreview.ts). */
export interface ShellHead {
  /** Written before `</head>`; escaped by whoever built it. */
  markup: string;
  /** It carries its own `<meta name="description">`: the shell's is left out. */
  replacesDescription: boolean;
  /** What the page's server-rendered first paint shows (http/sharePrepaint.ts renders it into `root`). */
  prepaint?: { siteTitle?: string; paste?: { slug: string; remark: string; content: string } };
  /**
   * Markup written into the shell's empty `<div id="root"></div>` (http/sharePrepaint.ts), escaped by whoever built
   * it; the app's first render replaces it. Left out when the shell has no such element.
   */
  root?: string;
}

/** The first match of `pattern` (global) that lies outside every range of `skip`. */
function firstOutside(html: string, pattern: RegExp, skip: [number, number][]): RegExpExecArray | undefined {
  for (const match of html.matchAll(pattern)) {
    if (!skip.some(([start, end]) => match.index >= start && match.index < end)) return match as RegExpExecArray;
  }
  return undefined;
}

/**
 * Builds a renderer of index.html: each call answers the page with a fresh nonce and its policy, and `head`'s markup
 * before `</head>` when given. The inline scripts are served byte for byte whatever is added, so their hashes hold.
 */
export function appShellRenderer(indexHtml: string): (head?: ShellHead) => AppShell {
  const hashes = inlineScriptHashes(indexHtml);
  const scripts = [...indexHtml.matchAll(INLINE_SCRIPT)].map((m): [number, number] => [m.index, m.index + m[0].length]);
  const headOpen = /<head[^>]*>/i.exec(indexHtml);
  const afterOpen = headOpen ? headOpen.index + headOpen[0].length : 0;
  const headClose = firstOutside(indexHtml, /<\/head\s*>/gi, scripts);
  // Where added markup goes: before </head>, else (no head end found) right after the nonce.
  const insertAt = headClose && headClose.index >= afterOpen ? headClose.index : afterOpen;
  const description = firstOutside(
    indexHtml,
    /<meta\s+name=["']?description["']?(?:\s[^>]*)?>[ \t]*\r?\n?[ \t]*/gi,
    scripts,
  );
  const ownDescription =
    description && description.index >= afterOpen && description.index + description[0].length <= insertAt
      ? ([description.index, description.index + description[0].length] as const)
      : undefined;
  const rootAt = firstOutside(indexHtml, /<div id="root"><\/div>/g, scripts);
  const rootInsertAt = rootAt && rootAt.index > insertAt ? rootAt.index + '<div id="root">'.length : undefined;
  return (head) => {
    const nonce = randomBytes(18).toString('base64');
    const meta = `<meta name="clipnest-csp-nonce" content="${nonce}" />`;
    const opening = headOpen ? `${indexHtml.slice(0, afterOpen)}\n    ${meta}` : meta;
    if (!head) return { html: opening + indexHtml.slice(afterOpen), csp: appShellCsp(hashes, nonce) };
    const cut = head.replacesDescription ? ownDescription : undefined;
    const middle = cut
      ? indexHtml.slice(afterOpen, cut[0]) + indexHtml.slice(cut[1], insertAt)
      : indexHtml.slice(afterOpen, insertAt);
    const body =
      head.root && rootInsertAt !== undefined
        ? indexHtml.slice(insertAt, rootInsertAt) + head.root + indexHtml.slice(rootInsertAt)
        : indexHtml.slice(insertAt);
    const html = opening + middle + head.markup + body;
    return { html, csp: appShellCsp(hashes, nonce) };
  };
}
