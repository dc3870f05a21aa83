// The progressive web app (issue 22): offline reading, the offline queue, the fallback page, install and
// update prompts. Service workers are allowed here (the rest of the suite blocks them).
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { adminToken, call } from '../support/api';
import { test as base, expect } from '../support/fixtures';
import { deleteAllMounts, localStorage as localConfig, mount, writeTree } from '../support/mounts';
import { createPaste } from '../support/pastes';
import { afterPendingTasks } from '../support/settle';

const test = base.extend({});
test.use({ serviceWorkers: 'allow' });

/** Waits until a service worker controls the page (the first one claims it once activated). */
async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 20_000 });
}

/** Reads one key of an IndexedDB store of the offline database (null when missing). */
function idbGet(page: Page, store: string, key: string): Promise<unknown> {
  return page.evaluate(
    ([s, k]) =>
      new Promise((resolve) => {
        const open = indexedDB.open('clipnest-offline');
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(s!)) return resolve(null);
          const req = db.transaction(s!).objectStore(s!).get(k!);
          req.onsuccess = () => resolve(req.result ?? null);
          req.onerror = () => resolve(null);
        };
        open.onerror = () => resolve(null);
      }),
    [store, key],
  );
}

async function storeCount(page: Page, store: string): Promise<number> {
  return page.evaluate(
    (s) =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('clipnest-offline');
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(s)) return resolve(0);
          const req = db.transaction(s).objectStore(s).count();
          req.onsuccess = () => resolve(req.result);
        };
      }),
    store,
  );
}

async function signedIn(page: Page, token: string): Promise<void> {
  await page.addInitScript((t) => {
    if (!sessionStorage.getItem('__seeded')) {
      sessionStorage.setItem('__seeded', '1');
      localStorage.setItem('admin_token', t);
    }
  }, token);
}

async function goOffline(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(true);
  await page.waitForFunction(() => !navigator.onLine);
}

/** Signed in on Home with the worker in control, then offline: writes a paste with a custom slug. */
async function writePasteOffline(
  page: Page,
  context: BrowserContext,
  token: string,
  paste: { slug: string; content: string; password?: string },
): Promise<void> {
  await signedIn(page, token);
  await page.goto('/');
  await controlled(page);
  await goOffline(context, page);
  await page.getByLabel('Paste content').fill(paste.content);
  await page.getByLabel('Custom link suffix').fill(paste.slug);
  if (paste.password) await page.getByRole('textbox', { name: /^Password/ }).fill(paste.password);
  await page.getByRole('button', { name: 'Create link' }).click();
}

test('a paste opened online opens offline, with its rendering and a note saying it is the saved copy', async ({
  page,
  context,
  token,
}) => {
  const created = await createPaste(token, {
    content: '# Offline title\n\n- kept **bold**',
    slug: `pwa-read-${Date.now()}`,
  });
  await page.goto('/');
  await controlled(page);
  await page.goto(`/paste/${created.slug}`);
  await expect(page.getByRole('heading', { name: 'Offline title' })).toBeVisible();
  await expect.poll(() => idbGet(page, 'pastes', created.slug)).not.toBeNull();
  const entry = (await idbGet(page, 'pastes', created.slug)) as { cachedAt: number };
  expect(entry.cachedAt).toBeGreaterThan(Date.now() - 60_000);

  await goOffline(context, page);
  await page.goto(`/paste/${created.slug}`);
  await expect(page.getByRole('heading', { name: 'Offline title' })).toBeVisible();
  await expect(page.locator('strong', { hasText: 'bold' })).toBeVisible();
  await expect(page.getByTestId('offline-copy')).toBeVisible();
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
  await context.setOffline(false);
});

test('a route never opened shows the offline fallback page with home, back and retry', async ({ page, context }) => {
  await page.goto('/');
  await controlled(page);
  await goOffline(context, page);
  await page.goto('/upload');
  const fallback = page.getByTestId('offline-fallback');
  await expect(fallback).toBeVisible();
  await expect(fallback.getByRole('heading', { name: 'Not available offline' })).toBeVisible();
  for (const name of ['Back to home', 'Go back', 'Retry'])
    await expect(fallback.getByRole('button', { name })).toBeVisible();
  await context.setOffline(false);
  await fallback.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('offline-fallback')).toHaveCount(0);
});

test('a paste written offline waits in the queue, then is shared when the network returns', async ({
  page,
  context,
  token,
}) => {
  const slug = `pwa-queued-${Date.now()}`;
  await writePasteOffline(page, context, token, { slug, content: 'written on a train' });
  await expect(page.getByText('You are offline: the paste is saved on this device')).toBeVisible();
  await expect(page.getByTestId('offline-pending')).toHaveText('1');
  // Nothing reached the server yet.
  expect((await call('GET', `/paste/${slug}`)).status).toBe(404);

  await context.setOffline(false);
  await expect(page.getByText('Your offline paste is now shared')).toBeVisible();
  await expect(page.getByTestId('offline-indicator')).toHaveCount(0);
  const shared = await call<{ content: string }>('GET', `/paste/${slug}`);
  expect(shared.status).toBe(200);
  expect(shared.envelope.data?.content).toBe('written on a train');
  expect(await storeCount(page, 'offlineQueue')).toBe(0);
});

test('a queued paste whose slug was taken meanwhile is shown as a conflict, not lost', async ({
  page,
  context,
  token,
}) => {
  const slug = `pwa-conflict-${Date.now()}`;
  await writePasteOffline(page, context, token, {
    slug,
    content: 'mine, written offline',
    password: 'queued-secret-123',
  });
  await expect(page.getByTestId('offline-pending')).toHaveText('1');
  // The queued password is sealed at rest, never stored as plain text.
  const raw = JSON.stringify(
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          const open = indexedDB.open('clipnest-offline');
          open.onsuccess = () => {
            const req = open.result.transaction('offlineQueue').objectStore('offlineQueue').getAll();
            req.onsuccess = () => resolve(req.result);
          };
        }),
    ),
  );
  expect(raw).not.toContain('queued-secret-123');
  expect(raw).not.toContain(token);

  await createPaste(token, { content: 'someone else was faster', slug });
  await context.setOffline(false);
  await expect(page.getByText(/An offline paste could not be shared/)).toBeVisible();
  await expect(page.getByTestId('offline-pending')).toHaveText('1');
  await page.getByTestId('offline-indicator').click();
  const queue = page.getByTestId('offline-queue');
  await expect(queue.getByText('Conflict')).toBeVisible();
  await queue.getByRole('button', { name: 'Share with a generated link' }).click();
  await expect(page.getByText('Your offline paste is now shared')).toBeVisible();
  await expect.poll(() => storeCount(page, 'offlineQueue')).toBe(0);
});

test('an explorer folder opened online lists offline; logout removes it from the offline database', async ({
  page,
  context,
  token,
}) => {
  await deleteAllMounts(token);
  const local = await localConfig(token, 'pwa');
  writeTree(local.root, { 'trip/notes.txt': 'n', 'trip/photo.jpg': 'p' });
  await mount(token, 'Trip', '/trip', local.config.id);
  await signedIn(page, token);
  await page.goto('/');
  await controlled(page);
  await page.goto('/mount-explorer/trip/trip');
  const entry = (name: string) => page.locator(`[data-testid="fs-entry"][data-name="${name}"]`);
  await expect(entry('notes.txt')).toBeVisible();
  await expect.poll(() => storeCount(page, 'directories')).toBeGreaterThan(0);

  await goOffline(context, page);
  await page.goto('/mount-explorer/trip/trip');
  await expect(entry('notes.txt')).toBeVisible();
  await expect(entry('photo.jpg')).toBeVisible();
  await context.setOffline(false);

  // Logging out clears what the session listed; Cache Storage never held API answers.
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Log out' }).first().click();
  await expect.poll(() => storeCount(page, 'directories')).toBe(0);
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
  expect(cached.filter((u) => u.startsWith('/api/'))).toEqual([]);
  await deleteAllMounts(await adminToken());
});

test('the install prompt shows when installable and stays hidden for 7 days after "not now"', async ({
  browserName,
}, testInfo) => {
  expect(browserName).toBe('chromium');
  // Installability is only reported outside incognito: a persistent profile, as a user's browser has.
  const profile = mkdtempSync(path.join(os.tmpdir(), 'clipnest-pwa-'));
  const options = testInfo.project.use;
  const context = await chromium.launchPersistentContext(profile, {
    ...(options.launchOptions ?? {}),
    baseURL: options.baseURL,
    serviceWorkers: 'allow',
    locale: 'en-US',
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await controlled(page);
    // Chromium's own installability check passes: manifest, icons, worker.
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);

    const fireInstallable = () =>
      page.evaluate(() => {
        const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & Record<string, unknown>;
        event.prompt = () => Promise.resolve();
        event.userChoice = Promise.resolve({ outcome: 'dismissed' });
        window.dispatchEvent(event);
      });
    await fireInstallable();
    const prompt = page.getByTestId('install-prompt');
    await expect(prompt).toBeVisible({ timeout: 8_000 });
    await prompt.getByRole('button', { name: 'Not now' }).first().click();
    await expect(prompt).toHaveCount(0);
    const dismissedAt = Number(await page.evaluate(() => localStorage.getItem('pwa-install-dismissed')));
    expect(Date.now() - dismissedAt).toBeLessThan(60_000);

    // The prompt polls its state every 5 s (INSTALL_POLL_MS): the page's clock is moved past one poll.
    await page.clock.install();
    await page.reload();
    await fireInstallable();
    await page.clock.runFor(5_500);
    await afterPendingTasks(page);
    await expect(prompt).toHaveCount(0);

    // Eight days later it may ask again.
    await page.evaluate(() => localStorage.setItem('pwa-install-dismissed', String(Date.now() - 8 * 86_400_000)));
    await page.reload();
    await fireInstallable();
    await expect(prompt).toBeVisible({ timeout: 8_000 });
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('a new build shows the update prompt; accepting it reloads into the new version', async ({ page }) => {
  await page.goto('/');
  await controlled(page);
  // "Deploy" a new build: the worker script changes (the server reads web/dist per request).
  const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');
  const sw = path.join(dist, 'sw.js');
  const original = readFileSync(sw);
  const compressed = ['.br', '.gz'].filter((ext) => existsSync(sw + ext));
  for (const ext of compressed) renameSync(sw + ext, `${sw}${ext}.e2e-keep`);
  try {
    writeFileSync(
      sw,
      `${original.toString('utf8')}\nself.addEventListener('message', (e) => { if (e.data && e.data.type === 'E2E_VERSION') e.ports[0].postMessage('next'); });\n`,
    );
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
    const toast = page.getByText('A new version of Clipnest is available');
    await expect(toast).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.waitForEvent('load', { timeout: 10_000 });
    await controlled(page);
    const version = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = (e) => resolve(e.data);
          navigator.serviceWorker.controller!.postMessage({ type: 'E2E_VERSION' }, [channel.port2]);
          setTimeout(() => resolve('old'), 5000);
        }),
    );
    expect(version).toBe('next');
  } finally {
    writeFileSync(sw, original);
    for (const ext of compressed) renameSync(`${sw}${ext}.e2e-keep`, sw + ext);
  }
});

test('a settings change saved offline is queued and applied when the network returns', async ({
  page,
  context,
  token,
}) => {
  await signedIn(page, token);
  await page.goto('/');
  await controlled(page);
  await page.goto('/admin/settings/global');
  const lifetime = page.getByLabel('Signature lifetime');
  await expect(lifetime).toBeVisible();
  await goOffline(context, page);
  await lifetime.fill('777');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('You are offline: the change is saved on this device')).toBeVisible();
  await expect(page.getByTestId('offline-pending')).toHaveText('1');
  await context.setOffline(false);
  await expect.poll(() => storeCount(page, 'offlineQueue')).toBe(0);
  const settings = await call<{ key: string; value: unknown }[]>('GET', '/admin/settings?group=1', { token });
  expect(settings.envelope.data?.find((s) => s.key === 'proxy_sign_expires')?.value).toBe(777);
  await call('PUT', '/admin/settings/group/1', { token, body: { proxy_sign_expires: 0 } });
});
