// What a cold load of each app route costs on the wire, from the browser's own network log.
// Shared by tests/route-budgets.spec.ts (the budget check) and bench/web.bench.mjs (the table in docs/benchmarks.md).
import { readFileSync } from 'node:fs';

/** @typedef {{ raw: number, transferred: number, count: number }} Weight */
/** @typedef {{ name: string, label: string, seed: 'none' | 'paste' | 'file', path?: string, admin?: boolean, target: number, limit?: number }} RouteBudget */
/** @typedef {{ js: Weight, css: Weight, total: Weight, wire: number, requests: number }} RouteWeight */

/** @returns {{ routes: RouteBudget[], pasteTotal: { target: number, limit?: number } }} */
export function loadBudgets() {
  return JSON.parse(readFileSync(new URL('../budgets.json', import.meta.url), 'utf8'));
}

/** A Markdown paste as people share them: headings, a list, a link, a table and a code block. */
export const SAMPLE_MARKDOWN = `# Deploy notes

Steps for the **staging** roll-out, see [the runbook](https://example.com/runbook).

- build the image
- run the migrations
- switch the traffic

| step | owner | done |
|---|---|---|
| build | ci | yes |
| migrate | ops | no |

\`\`\`bash
npm ci && npm run build
NODE_ENV=production node server/dist/main.mjs
\`\`\`
`;

/** A real PNG from the repository (the app icon) for the file share. */
function samplePng() {
  return readFileSync(new URL('../../web/public/pwa-192.png', import.meta.url));
}

/**
 * Creates what the routes show (a Markdown paste, an image file share) with the admin token and answers
 * the path of every route.
 * @param {string} baseUrl
 * @param {string} token
 * @param {RouteBudget[]} routes
 * @returns {Promise<Record<string, string>>}
 */
export async function seedRoutes(baseUrl, token, routes) {
  const auth = { authorization: `Bearer ${token}` };
  const paths = {};
  for (const route of routes) {
    if (route.seed === 'paste') {
      const res = await fetch(`${baseUrl}/api/paste`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ content: SAMPLE_MARKDOWN, type: 'markdown' }),
      });
      if (res.status !== 201) throw new Error(`seeding a paste: ${res.status} ${await res.text()}`);
      paths[route.name] = `/paste/${(await res.json()).data.slug}`;
    } else if (route.seed === 'file') {
      const form = new FormData();
      form.append('file', new Blob([samplePng()], { type: 'image/png' }), 'diagram.png');
      const res = await fetch(`${baseUrl}/api/upload`, { method: 'POST', headers: auth, body: form });
      if (res.status !== 201) throw new Error(`seeding a file: ${res.status} ${await res.text()}`);
      paths[route.name] = `/file/${(await res.json()).data.slug}`;
    } else {
      paths[route.name] = route.path ?? '/';
    }
  }
  return paths;
}

const empty = () => ({ raw: 0, transferred: 0, count: 0 });

/**
 * Loads `url` in a fresh page of `context` (no cache, no service worker) and sums what went over the
 * wire until the network is idle: scripts, stylesheets and everything. `transferred` is the body as it
 * came (compressed), `raw` the decoded body; `wire` adds every response's headers to the bodies.
 * @param {import('@playwright/test').BrowserContext} context
 * @param {string} url
 * @returns {Promise<RouteWeight>}
 */
export async function measureRoute(context, url) {
  const page = await context.newPage();
  const weight = { js: empty(), css: empty(), total: empty(), wire: 0, requests: 0 };
  const pending = [];
  page.on('requestfinished', (request) => {
    pending.push(
      (async () => {
        const response = await request.response();
        if (!response) return;
        const sizes = await request.sizes();
        const body = await response.body().catch(() => Buffer.alloc(0));
        const transferred = sizes.responseBodySize;
        const type = request.resourceType();
        const add = (w) => {
          w.raw += body.byteLength;
          w.transferred += transferred;
          w.count += 1;
        };
        add(weight.total);
        if (type === 'script') add(weight.js);
        if (type === 'stylesheet') add(weight.css);
        weight.wire += sizes.responseBodySize + sizes.responseHeadersSize;
        weight.requests += 1;
      })(),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  // Lazy screens arrive in a chain (shell → screen → data): wait for the page heading, then for quiet again.
  await page
    .locator('h1')
    .first()
    .waitFor({ timeout: 20_000 })
    .catch(() => undefined);
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  await page.close();
  return weight;
}

/** Bytes as KB with one decimal. */
export const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;
