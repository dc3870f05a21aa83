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

/** Builds a renderer of index.html: each call answers the page with a fresh nonce and its policy. */
export function appShellRenderer(indexHtml: string): () => AppShell {
  const hashes = inlineScriptHashes(indexHtml);
  return () => {
    const nonce = randomBytes(18).toString('base64');
    const meta = `<meta name="clipnest-csp-nonce" content="${nonce}" />`;
    const html = /<head[^>]*>/i.test(indexHtml)
      ? indexHtml.replace(/<head[^>]*>/i, (head) => `${head}\n    ${meta}`)
      : meta + indexHtml;
    return { html, csp: appShellCsp(hashes, nonce) };
  };
}
