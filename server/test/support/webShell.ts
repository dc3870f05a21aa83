import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startTestServer, type DbTarget, type TestServer } from './harness.js';

/** The inline script of SHELL_INDEX (its CSP hash must hold whatever the server adds). */
export const SHELL_BOOT = "document.documentElement.lang = 'en';";
export const SHELL_DESCRIPTION = 'Clipnest: self-hosted online clipboard and file sharing';
/** A built index.html as the web app's build writes it, in short. */
export const SHELL_INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="${SHELL_DESCRIPTION}" />
    <title>Clipnest</title>
    <script>${SHELL_BOOT}</script>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/assets/app-abc.js"></script>
  </body>
</html>`;

/**
 * A test server whose built web app is `indexHtml` and one script, `/assets/app-abc.js`: for tests of the pages the
 * server answers with the shell (link previews, first paint, CSP). `close` stops it and removes the files.
 */
export async function startShellServer(
  target: DbTarget,
  indexHtml: string,
  name: string,
): Promise<{ server: TestServer; close: () => Promise<void> }> {
  const dist = path.join(process.env.TMPDIR ?? '/tmp', `clipnest-${name}-dist-${process.pid}-${target}`);
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), indexHtml);
  writeFileSync(path.join(dist, 'assets', 'app-abc.js'), 'console.log(1)');
  const server = await startTestServer(target, { WEB_DIST_DIR: dist });
  return {
    server,
    close: async () => {
      await server.close();
      rmSync(dist, { recursive: true, force: true });
    },
  };
}
