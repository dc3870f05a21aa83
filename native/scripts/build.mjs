// npm install hook: compiles the sendfile addon with node-gyp on Linux. It is optional: when there is no compiler
// (or another OS), install still succeeds; the server then streams local downloads through JavaScript.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

function nodeGyp() {
  if (process.env.npm_config_node_gyp) return process.env.npm_config_node_gyp;
  try {
    return createRequire(import.meta.url).resolve('node-gyp/bin/node-gyp.js');
  } catch {
    return path.join(
      path.dirname(process.execPath),
      '..',
      'lib',
      'node_modules',
      'npm',
      'node_modules',
      'node-gyp',
      'bin',
      'node-gyp.js',
    );
  }
}

if (process.platform !== 'linux') {
  console.log('[@clipnest/native] not Linux: no sendfile addon; downloads are streamed');
  process.exit(0);
}
// Node's own headers when they are installed beside it (Debian's nodejs, official tarballs): no download.
const prefix = path.dirname(path.dirname(process.execPath));
const localHeaders =
  !process.env.npm_config_nodedir && existsSync(path.join(prefix, 'include', 'node', 'node_api.h'))
    ? [`--nodedir=${prefix}`]
    : [];
const result = spawnSync(process.execPath, [nodeGyp(), 'rebuild', ...localHeaders], { cwd: here, stdio: 'inherit' });
if (result.status !== 0) {
  console.warn(
    '[@clipnest/native] the sendfile addon did not build (needs python3, make and a C compiler); ' +
      'Clipnest works without it: it streams downloads',
  );
}
