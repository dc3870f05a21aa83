// Opt-in scenario (not in CI: 2 GiB on disk twice, a few minutes of Chromium), the "Done when" of
// issue 6: an admin uploads a 2 GiB file from the browser to an S3 config (s3rver with open CORS),
// the tab is closed at about half way, a new tab is opened, the upload is resumed from the upload
// page and finishes. Checks (parts counted as s3rver stores them): no part stored before the kill
// is sent again, and the share has the source's size and SHA-256. Writes the "resume-2gb" section
// of docs/benchmarks.md.
//   npm run build && npm run bench -w bench -- resume-2gb
// Needs /usr/bin/chromium; CLIPNEST_RESUME_BYTES changes the size (e.g. 200 MiB for a quick try).
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { addS3Config, api } from './lib/api.mjs';
import { machineLine, writeSection } from './lib/report.mjs';
import { startS3rver } from './lib/s3rver.mjs';
import { BENCH_ADMIN, repoRoot, startServer } from './lib/server.mjs';

const MiB = 1024 * 1024;
const SIZE = Number(process.env.CLIPNEST_RESUME_BYTES ?? 2048 * MiB);
const KILL_AT = 0.5;
const BUCKET = 'resume';
const FILE_NAME = 'resume-2gb.bin';
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

if (!existsSync(path.join(repoRoot, 'web', 'dist', 'index.html'))) {
  throw new Error('web/dist is missing: run `npm run build` first');
}
// Playwright comes with the e2e workspace.
const { chromium } = createRequire(path.join(repoRoot, 'e2e', 'package.json'))('@playwright/test');

const work = mkdtempSync(path.join(os.tmpdir(), 'clipnest-resume-2gb-'));
const cleanups = [];

/** Random bytes streamed to disk one MiB at a time (never all in memory); answers the SHA-256. */
function makeRandomFile(file) {
  const hash = createHash('sha256');
  const fd = openSync(file, 'w');
  try {
    for (let written = 0; written < SIZE; written += MiB) {
      const chunk = randomBytes(Math.min(MiB, SIZE - written));
      hash.update(chunk);
      writeSync(fd, chunk);
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** Size and SHA-256 of a download, streamed. */
async function hashDownload(url, token) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`download ${res.status}`);
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of res.body) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}

const partOf = (url) => {
  const value = new URL(url).searchParams.get('partNumber');
  return value ? Number(value) : null;
};

const seconds = (from) => (performance.now() - from) / 1000;

/** Polls `check` until it answers true; throws after `limitSeconds`. */
async function until(check, limitSeconds, what, everyMs = 250) {
  const from = performance.now();
  while (!(await check())) {
    if (seconds(from) > limitSeconds) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

try {
  const source = path.join(work, FILE_NAME);
  let t = performance.now();
  const sourceSha = makeRandomFile(source);
  console.log(`source: ${SIZE} bytes of random data in ${seconds(t).toFixed(1)} s, sha256 ${sourceSha}`);

  // Parts as s3rver stores them (a PUT cut off by the closing tab stores nothing): the truth for
  // "sent before the kill" and "sent again", without the lag of the browser's network events.
  let phase = 'before';
  const stored = { before: new Map(), after: new Map() };
  const onLog = (line) => {
    const match = /Stored part (\d+) of /.exec(line);
    if (!match) return;
    const n = Number(match[1]);
    stored[phase].set(n, (stored[phase].get(n) ?? 0) + 1);
  };
  const s3 = await startS3rver({ dir: path.join(work, 's3rver'), bucket: BUCKET, onLog });
  cleanups.push(s3.stop);
  const server = await startServer();
  cleanups.push(server.stop);
  const token = await server.login();
  await api(server, token, 'PUT', '/api/admin/settings/group/1', { max_upload_size: 3, max_upload_size_unit: 'GB' });
  const config = await addS3Config(server, token, { name: 'S3 emulator', endpoint: s3.endpoint, bucket: BUCKET });
  await api(server, token, 'PUT', `/api/s3-configs/${config.id}/set-default`);

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  cleanups.push(() => browser.close());
  // One browser profile for both tabs: the upload state lives in its IndexedDB.
  const context = await browser.newContext({ baseURL: server.url, locale: 'en-US', serviceWorkers: 'block' });

  // ---- first tab: log in, upload, close the tab at about half way ----
  const first = await context.newPage();
  // What the first tab saw (Playwright's events can lag: read after the tab is gone and things settled).
  const answeredInTab = new Set();
  const reportedByTab = new Set();
  first.on('requestfinished', async (request) => {
    const n = request.method() === 'PUT' ? partOf(request.url()) : null;
    if (n !== null && (await request.response().catch(() => null))?.status() === 200) answeredInTab.add(n);
  });
  first.on('request', (request) => {
    if (!request.url().endsWith('/api/upload/multipart/sign-parts')) return;
    for (const p of request.postDataJSON()?.completed ?? []) reportedByTab.add(p.PartNumber);
  });
  let fileId;
  first.on('response', async (response) => {
    if (response.url().endsWith('/api/upload/multipart/init') && response.ok()) {
      fileId = (await response.json()).data.file_id;
    }
  });
  await first.goto('/admin');
  await first.getByLabel('Username').fill(BENCH_ADMIN.username);
  await first.getByRole('textbox', { name: 'Password', exact: true }).fill(BENCH_ADMIN.password);
  await first.getByRole('button', { name: 'Log in' }).click();
  await first.waitForFunction(() => localStorage.getItem('admin_token'));
  await first.goto('/upload');
  // The default config is preselected once the list has loaded.
  const storage = first.getByLabel('Storage');
  await until(async () => (await storage.inputValue().catch(() => '')) === config.id, 30, 'the S3 config preselected');
  await first.getByTestId('upload-input').setInputFiles(source);
  t = performance.now();
  await first.getByRole('button', { name: 'Upload 1 file' }).click();
  const partCount = Math.ceil(SIZE / (5 * MiB));
  // The tab is killed when its progress bar shows half (what a user sees; the parts the bucket has
  // stored are counted from s3rver's log, independently of the page).
  const bar = first.getByTestId('upload-item').filter({ hasText: FILE_NAME }).getByRole('progressbar');
  const progress = async () => Number((await bar.getAttribute('aria-valuenow').catch(() => null)) ?? 0);
  await until(async () => (await progress()) >= KILL_AT * 100, 1800, 'half of the upload', 50);
  await first.close();
  const firstSeconds = seconds(t);
  await new Promise((r) => setTimeout(r, 1000)); // s3rver's last log lines of the first tab
  phase = 'after';
  const storedBefore = new Set(stored.before.keys());
  // What the server will offer to resume (its own record: s3rver has no ListParts).
  const status = await api(server, token, 'GET', `/api/upload/multipart/parts?file_id=${fileId}`);
  const recordedAtKill = new Set(status.parts.map((p) => p.PartNumber));
  const unreported = [...storedBefore].filter((n) => !recordedAtKill.has(n));
  console.log(
    `tab closed after ${firstSeconds.toFixed(1)} s: ${storedBefore.size} parts stored, server recorded ${recordedAtKill.size}`,
  );

  // ---- second tab: the page offers the unfinished upload; pick the file again ----
  const second = await context.newPage();
  const apiCalls = [];
  let putsAfter = 0;
  second.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/upload/multipart')) apiCalls.push(`${request.method()} ${url.pathname}`);
    if (request.method() === 'PUT' && request.url().startsWith(s3.endpoint)) putsAfter += 1;
  });
  await second.goto('/upload');
  const offer = second.getByTestId('resume-item').filter({ hasText: FILE_NAME });
  await offer.waitFor();
  t = performance.now();
  await offer.getByTestId('resume-input').setInputFiles(source);
  const item = second.getByTestId('upload-item').filter({ hasText: FILE_NAME });
  await until(
    async () => {
      const stage = await item.getAttribute('data-stage');
      if (stage === 'failed' || stage === 'cancelled') throw new Error(`upload ${stage}: ${await item.textContent()}`);
      return stage === 'completed';
    },
    1800,
    'the resumed upload completed',
  );
  const secondSeconds = seconds(t);
  const link = await item.getByTestId('upload-link').getAttribute('href');

  // ---- checks ----
  // Resume sends only what the server has not recorded: a recorded part sent again is a bug. A part
  // the bucket stored whose answer or report had not made it back when the tab died is sent again
  // (the server cannot know it: s3rver has no ListParts); it is counted, not hidden.
  const resent = [...storedBefore].filter((n) => stored.after.has(n)).sort((a, b) => a - b);
  const recordedResent = resent.filter((n) => recordedAtKill.has(n));
  const storedTwice = [...stored.before, ...stored.after].filter(([, count]) => count > 1).map(([n]) => n);
  const allParts = new Set([...storedBefore, ...stored.after.keys()]);
  if (apiCalls.some((c) => c.endsWith('/multipart/init'))) throw new Error('the second tab started a new upload');
  if (allParts.size !== partCount) throw new Error(`${allParts.size} of ${partCount} parts reached the bucket`);
  const slug = decodeURIComponent(new URL(link).pathname.split('/').pop());
  const files = await api(server, token, 'GET', '/api/files?limit=10&sort=created_at&order=desc');
  const share = files.items.find((f) => f.slug === slug);
  if (!share) throw new Error(`share ${slug} not found`);
  t = performance.now();
  const download = await hashDownload(new URL(share.download_url, server.url).href, token);
  const verifySeconds = seconds(t);
  const ok = download.size === SIZE && download.sha256 === sourceSha && recordedResent.length === 0;
  const total = firstSeconds + secondSeconds;
  const mib = SIZE / MiB;

  const markdown = `## resume-2gb — ${(SIZE / 1024 / MiB).toFixed(SIZE % (1024 * MiB) ? 2 : 0)} GiB browser upload, tab closed half way, resumed in a new tab

${machineLine()}; Chromium (Debian) via Playwright, s3rver 3.7 with CORS as the default S3 config, max upload size 3 GB.
\`npm run build && npm run bench -w bench -- resume-2gb\` (opt-in, not in CI).

| step | result |
| --- | --- |
| source | ${mib.toFixed(0)} MiB of random bytes, ${partCount} parts of 5 MiB |
| first tab | progress bar at 50 % after ${firstSeconds.toFixed(1)} s: tab closed with ${storedBefore.size} parts stored; the server had recorded ${recordedAtKill.size} of them${unreported.length ? `; of the ${unreported.length} others the tab had ${unreported.filter((n) => answeredInTab.has(n)).length} answers and had started ${unreported.filter((n) => reportedByTab.has(n)).length} reports` : ''} |
| second tab | resume offered from IndexedDB, file picked again; ${partCount - recordedAtKill.size} parts missing, ${stored.after.size} stored with ${putsAfter} PUTs in ${secondSeconds.toFixed(1)} s, no new init |
| parts on the server's record at the kill and sent again | **${recordedResent.length}** |
| parts stored by the bucket before the kill and sent again | ${resent.length}${resent.length ? ` (${resent.join(', ')}: not on the server's record; s3rver has no ListParts to find them — on backends with ListParts the server counts them, see docs/api/uploads.md)` : ''} |
| parts stored more than once in a tab | ${storedTwice.length} |
| stored share | ${download.size} bytes, SHA-256 ${download.sha256 === sourceSha ? '**equal** to the source' : '**differs**'} (checked by downloading it in ${verifySeconds.toFixed(1)} s) |
| upload time (both tabs) | ${total.toFixed(1)} s, ${(mib / total).toFixed(1)} MiB/s |

Result: **${ok ? 'passed' : 'FAILED'}** (size and SHA-256 equal, no part on the server's record sent again, no new upload).${
    resent.length
      ? ` The tab is closed as soon as the bar passes 50 %, which is when a part's body has just gone out: the bucket
stores that part, but the tab dies before its answer (the ETag) arrives or before its report reaches the server, so
the server cannot know it and it is sent again.`
      : ''
  }
`;
  console.log(markdown);
  writeSection('resume-2gb', markdown);
  if (!ok) process.exitCode = 1;
} finally {
  for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}
