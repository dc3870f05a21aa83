// Built-in preview benchmark (issue 42): time from opening a shared file's page to its first page shown,
// for a generated 20 MB .docx (random text paragraphs) and a 20 MB .xlsx (one 200 000-row sheet and a
// small second one), in Debian Chromium. Needs `npm run build` first and /usr/bin/chromium.
// BENCH_PREVIEWS_BEFORE_DIST=<a web/dist built from an earlier commit> measures that build too, same run.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { machineLine, writeSection } from './lib/report.mjs';
import { repoRoot, startServer } from './lib/server.mjs';

const CHROMIUM = '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_PREVIEW_RUNS ?? 3);
const BEFORE_RUNS = Number(process.env.BENCH_PREVIEW_BEFORE_RUNS ?? 1);
/** The published budget for the first page of a 20 MB file, on the machine line below. */
const BUDGET_MS = 8000;
const TARGET_BYTES = 20 * 1024 * 1024;
const e2eRequire = createRequire(path.join(repoRoot, 'e2e', 'package.json'));
const { chromium } = e2eRequire('@playwright/test');
const { Document, Packer, Paragraph, HeadingLevel, TextRun } = e2eRequire('docx');
const { utils, write } = e2eRequire('xlsx');

const after = path.join(repoRoot, 'web', 'dist');
if (!existsSync(path.join(after, 'index.html'))) {
  console.error('web/dist is missing: run `npm run build` first');
  process.exit(1);
}
const builds = [
  ...(process.env.BENCH_PREVIEWS_BEFORE_DIST
    ? [{ label: 'before', dist: process.env.BENCH_PREVIEWS_BEFORE_DIST, runs: BEFORE_RUNS }]
    : []),
  { label: 'this build', dist: after, runs: RUNS },
];

async function largeDocx() {
  const paragraphs = [new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Large document')] })];
  // Random base64 compresses to about three quarters: 3000 characters take some 2250 bytes in the zip.
  for (let size = 0; size < TARGET_BYTES; size += 2250)
    paragraphs.push(new Paragraph({ children: [new TextRun(randomBytes(2250).toString('base64'))] }));
  return Packer.toBuffer(new Document({ sections: [{ children: paragraphs }] }));
}

function largeXlsx() {
  const rows = [['id', 'token', 'value', 'note']];
  for (let i = 1; i <= 200_000; i++)
    rows.push([i, randomBytes(12).toString('hex'), i * 1.5, randomBytes(9).toString('base64')]);
  const book = utils.book_new();
  utils.book_append_sheet(book, utils.aoa_to_sheet(rows), 'Data');
  utils.book_append_sheet(book, utils.aoa_to_sheet([['second'], ['sheet']]), 'Notes');
  return write(book, { type: 'buffer', bookType: 'xlsx', compression: true });
}

async function upload(server, token, name, bytes, type) {
  const form = new FormData();
  form.append('mimetype', type);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${server.url}/api/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`upload ${name}: ${res.status} ${body.message}`);
  return body.data.slug;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

const docx = await largeDocx();
const xlsx = largeXlsx();
const mb = (b) => `${(b.length / 1048576).toFixed(1)} MB`;
console.log(`samples: .docx ${mb(docx)}, .xlsx ${mb(xlsx)}`);

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
const results = [];
try {
  for (const build of builds) {
    const server = await startServer({ env: { WEB_DIST_DIR: build.dist } });
    try {
      const token = await server.login();
      const settings = await fetch(`${server.url}/api/admin/settings/group/2`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ preview_office_provider: 'builtin' }),
      });
      if (!settings.ok) throw new Error(`settings: ${settings.status}`);
      const slugs = {
        docx: await upload(
          server,
          token,
          'large.docx',
          docx,
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        ),
        xlsx: await upload(
          server,
          token,
          'large.xlsx',
          xlsx,
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        ),
      };
      const times = { docx: [], xlsx: [] };
      for (let i = 0; i < build.runs; i++) {
        for (const kind of ['xlsx', 'docx']) {
          const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
          const page = await context.newPage();
          const start = Date.now();
          await page.goto(`${server.url}/file/${slugs[kind]}`);
          if (kind === 'xlsx') {
            await page.getByTestId('sheet-row').first().waitFor({ timeout: 300_000 });
          } else {
            await page
              .frameLocator('[data-testid="docx-view"] iframe')
              .getByText('Large document')
              .waitFor({ timeout: 300_000 });
          }
          times[kind].push(Date.now() - start);
          console.log(`${build.label}: .${kind} run ${i + 1}: ${seconds(times[kind].at(-1))}`);
          await context.close();
        }
      }
      results.push({ label: build.label, docx: median(times.docx), xlsx: median(times.xlsx), runs: build.runs });
    } finally {
      await server.stop();
    }
  }
} finally {
  await browser.close();
}

const verdict = (ms) => (ms <= BUDGET_MS ? 'within' : 'over');
const rows = results.map(
  (r) =>
    `| ${r.label} | ${seconds(r.docx)} | ${seconds(r.xlsx)} | ${r.runs} | ${r.label === 'this build' ? `docx ${verdict(r.docx)}, xlsx ${verdict(r.xlsx)}` : '—'} |`,
);
writeSection(
  'previews',
  `## Built-in previews: first page of a 20 MB .docx and .xlsx

\`npm run bench -w bench -- previews\` (after \`npm run build\`). ${machineLine()}, Debian Chromium (headless,
1280 × 900). From opening the file's share page to the first page shown: the first row of the sheet table, or
the document's heading inside its sandboxed frame (download from the local server, parse, layout). Samples
generated per run: a .docx of ${mb(docx)} (random text paragraphs) and a .xlsx of ${mb(xlsx)} (a 200 000-row sheet
and a small second sheet). Median of the runs. "before" is the preview as it was before issue 42's large-file
work (all of the document laid out, every sheet parsed), built from that commit and passed as
\`BENCH_PREVIEWS_BEFORE_DIST\`.

**Budget: the first page of a 20 MB .docx or .xlsx within ${seconds(BUDGET_MS)}** on this 2-core machine. The
preview lays out the first ${'300'} paragraphs and tables of a document and reads only the first 1 000 rows of
the open sheet (other sheets when their tab is opened), in a worker for sheets; the rest is behind "download".

| build | .docx first page | .xlsx first page | runs | budget (${seconds(BUDGET_MS)}) |
| --- | ---: | ---: | ---: | --- |
${rows.join('\n')}
`,
);
console.log(rows.join('\n'));
