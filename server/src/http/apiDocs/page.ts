import { escapeAttribute } from '../linkPreview.js';

/** Where the page and its files live. */
export const API_DOCS_PATH = '/api-docs';

/**
 * The page's Content-Security-Policy: its own files only. Swagger UI needs no eval and no inline script; its
 * style attributes are set through the DOM, which `style-src 'self'` allows. "Try it" calls go to this origin.
 */
export const API_DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

/** The reference page: Swagger UI around /api/openapi.json, titled with the site title. */
export function apiDocsHtml(siteTitle: string, assetVersion: string): string {
  const title = escapeAttribute(siteTitle);
  const v = encodeURIComponent(assetVersion);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta name="robots" content="noindex" />
    <title>${title} · API</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="${API_DOCS_PATH}/swagger-ui.css?v=${v}" />
    <link rel="stylesheet" href="${API_DOCS_PATH}/clipnest-api-docs.css?v=${v}" />
  </head>
  <body>
    <header class="cn-bar">
      <a class="cn-home" href="/">${title}</a>
      <span class="cn-title" data-text="title">API reference</span>
      <span class="cn-auth" id="cn-auth" role="status"></span>
    </header>
    <main id="swagger-ui"></main>
    <script src="${API_DOCS_PATH}/swagger-ui-bundle.js?v=${v}"></script>
    <script src="${API_DOCS_PATH}/clipnest-api-docs.js?v=${v}"></script>
  </body>
</html>
`;
}
