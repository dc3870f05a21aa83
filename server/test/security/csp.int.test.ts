import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/harness.js';
import { startShellServer } from '../support/webShell.js';

const BOOT = "document.documentElement.lang = 'en';";
const INDEX = `<!doctype html><html><head><title>Clipnest</title><script>${BOOT}</script></head><body><div id="root"></div><script type="module" src="/assets/app-abc.js"></script></body></html>`;

/** The app shell's Content-Security-Policy: no inline script but its own (by hash) and the admin's (by nonce). */
describe('app shell Content-Security-Policy', () => {
  let server: TestServer;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ server, close } = await startShellServer('sqlite', INDEX, 'csp'));
  });
  afterAll(async () => {
    await close?.();
  });

  function directives(csp: string): Map<string, string[]> {
    return new Map(
      csp.split(';').map((part) => {
        const [name = '', ...values] = part.trim().split(/\s+/);
        return [name, values];
      }),
    );
  }

  it('every app route and /index.html answer a policy that forbids inline script', async () => {
    const hash = `'sha256-${createHash('sha256').update(BOOT).digest('base64')}'`;
    const nonces = new Set<string>();
    for (const route of ['/', '/index.html', '/admin/settings/site', '/paste/abc', '/%2e%2e/index.html']) {
      const res = await fetch(server.url + route);
      expect(res.status, route).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      const d = directives(csp);
      const script = d.get('script-src') ?? [];
      expect(script, route).toContain("'self'");
      expect(script, route).toContain(hash);
      expect(script.join(' '), route).not.toMatch(/unsafe-inline|unsafe-eval|\*|data:|https?:/);
      expect(d.get('object-src'), route).toEqual(["'none'"]);
      expect(d.get('base-uri'), route).toEqual(["'self'"]);
      expect(d.get('frame-ancestors'), route).toEqual(["'self'"]);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const html = await res.text();
      const nonce = /<meta name="clipnest-csp-nonce" content="([^"]+)"/.exec(html)?.[1] ?? '';
      expect(nonce.length, route).toBeGreaterThanOrEqual(24);
      expect(script, route).toContain(`'nonce-${nonce}'`);
      nonces.add(nonce);
      // The boot script is served byte for byte, so its hash matches.
      expect(html).toContain(`<script>${BOOT}</script>`);
    }
    expect(nonces.size).toBe(5); // a fresh nonce per response
  });

  it('static assets are files, never the shell', async () => {
    const res = await fetch(`${server.url}/assets/app-abc.js`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('console.log(1)');
  });
});
