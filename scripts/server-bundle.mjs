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
 * Node flags the bundle runs with: floors under V8's heap limits, for streams. A proxied download moves
 * ~16,000 Buffers per GB; each one is external memory that only a GC gives back.
 * - Young generation (`--min-semi-space-size=8`): when the process has idled, V8 shrinks it to 1 MiB; a
 *   streamed download's 1 MiB chunks then outlive their scavenges, pile up in the old generation and force
 *   a full GC every few chunks (4× slower at 4× the CPU, from ~30 s after start).
 * - Old generation (`--initial-old-space-size=96`, MB): the old generation's limit, which V8 also counts
 *   the chunks' external memory against. With too little room above the live objects, V8 starts marking
 *   again as soon as it finishes: a mark-compact every few dozen MB a stream moves, at up to four times the
 *   CPU per GB. The room must grow with the live heap: 64 MB was enough for 22 MB of live objects and no
 *   longer for 35-44 MB (a streamed local download fell to a quarter of its speed in most processes).
 * - `--expose-gc`: for server/src/lib/restingCollector.ts, which collects once the server is at rest after a burst
 *   of large answers (RSS at rest after big listings ~250 → ~150 MB).
 * docs/benchmarks.md has the measurements.
 */
export const serverNodeFlags = [
  '--enable-source-maps',
  '--min-semi-space-size=8',
  '--initial-old-space-size=96',
  '--expose-gc',
];

/**
 * Environment the bundle runs with. `MALLOC_MMAP_THRESHOLD_` (glibc): allocations of 1 MiB and more get
 * their own mapping, given back to the system when freed. Without it glibc raises that threshold as large
 * blocks are freed, and each 16 MiB scrypt buffer (a password check, on a thread pool thread) then stays
 * in that thread's malloc arena: +30 MB of RSS for good after the first logins. The 1 MiB chunks a local
 * file is read in are mapped and unmapped the same way instead of leaving holes in the heap: ~45 MB less
 * RSS at rest after streamed downloads (it was 8 MiB). docs/benchmarks.md (WebDAV) has the measurements.
 * `MALLOC_TRIM_THRESHOLD_` (1 MiB): fixing the mmap threshold also fixes the trim threshold at 128 KiB, so
 * glibc gave the freed top of the heap back after almost every compressed JSON answer (the encoder's tables
 * are a few hundred KB) and the next one faulted it in again: ~3 page faults and ~60 µs of system time per
 * answer in the paste bench. Up to 1 MiB of free heap now stays for the next request (docs/benchmarks.md,
 * Pastes).
 */
export const serverEnv = {
  MALLOC_MMAP_THRESHOLD_: String(1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(1024 * 1024),
};

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
    // React's server renderer (sharePrepaint.ts) is bundled: its development build goes, as in the web build.
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  return serverBundle;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServerBundle();
}
