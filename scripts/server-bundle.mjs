// Bundles server/src into server/dist/main.mjs (esbuild, ~0.2 s), so `npm start`, the browser tests and the
// benchmarks run plain JavaScript: no TypeScript loader in the serving process (less memory, faster start).
// Packages from node_modules stay external; the workspace's own contract package is bundled in, the native
// one (a compiled addon loaded from its own folder) stays external.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { root } from './lib.mjs';

export const serverBundle = path.join(root, 'server', 'dist', 'main.mjs');

/**
 * Node flags the bundle runs with. A floor under V8's young generation: when the process has been idle,
 * V8 shrinks it to 1 MiB, and a streamed download's 1 MiB chunks then outlive their scavenges, pile up in
 * the old generation and force a full GC every few chunks (a streamed download ran 4× slower, at 4× the
 * CPU, from ~30 s after start; docs/benchmarks.md).
 */
export const serverNodeFlags = ['--enable-source-maps', '--min-semi-space-size=8'];

function dependenciesOf(workspace) {
  const pkg = JSON.parse(readFileSync(path.join(root, workspace, 'package.json'), 'utf8'));
  return Object.keys(pkg.dependencies ?? {});
}

export async function buildServerBundle() {
  const external = [...new Set([...dependenciesOf('server'), ...dependenciesOf('contract')])]
    .filter((name) => !name.startsWith('@clipnest/') || name === '@clipnest/native')
    .flatMap((name) => [name, `${name}/*`]);
  await build({
    entryPoints: [path.join(root, 'server', 'src', 'main.ts')],
    outfile: serverBundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    external,
    logLevel: 'warning',
  });
  return serverBundle;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServerBundle();
}
