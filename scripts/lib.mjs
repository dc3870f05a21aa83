import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs a command with inherited output; resolves with its exit code. */
export async function run(command, args, options = {}) {
  return (await runChild(command, args, options, false)).code;
}

/**
 * Runs a command whose output is shown as it comes and also kept; resolves with { code, output }. With `tag`, every
 * line shown starts with it (tiers that run side by side), the kept output stays as the command wrote it.
 */
export function runKeepingOutput(command, args, options = {}) {
  return runChild(command, args, options, true);
}

/** Prefixes each whole line written through it with `tag`. */
function tagLines(tag, to) {
  let rest = '';
  return (chunk) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) to.write(`${tag} ${line}\n`);
  };
}

/** `nice`: the child's niceness (nice(1)), for work that may wait while more urgent work beside it runs. */
function runChild(command, args, { tag, nice, ...options }, keep) {
  return new Promise((resolve) => {
    const stdio = keep ? [tag ? 'ignore' : 'inherit', 'pipe', 'pipe'] : 'inherit';
    const [file, argv] = nice ? ['nice', ['-n', String(nice), command, ...args]] : [command, args];
    const child = spawn(file, argv, { cwd: root, stdio, ...options });
    const chunks = [];
    const tee = (from, to) => {
      const show = tag ? tagLines(tag, to) : (chunk) => to.write(chunk);
      from.on('data', (chunk) => {
        chunks.push(chunk);
        show(chunk);
      });
    };
    if (keep) {
      tee(child.stdout, process.stdout);
      tee(child.stderr, process.stderr);
    }
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (error) => {
      console.error(`${tag ?? '[clipnest]'} ${command}: ${error.message}`);
      resolve({ code: 1, output: '' });
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      const done = () => resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString('utf8') });
      if (!keep) return done();
      // The rest of the output is still in the pipes; a leftover grandchild holding them open must not
      // keep us waiting.
      const late = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        done();
      }, 5000);
      child.once('close', () => {
        clearTimeout(late);
        done();
      });
    });
  });
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Builds web/ when its dist is missing or older than its sources (e.g. after a git pull). */
export async function ensureWebBuilt() {
  const web = path.join(root, 'web');
  if (!existsSync(path.join(web, 'index.html'))) return 0;
  const built = path.join(web, 'dist', 'index.html');
  const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((p) => path.join(web, p));
  sources.push(path.join(root, 'contract', 'src'));
  const stale = !existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
  if (!stale) return 0;
  console.log('[clipnest] building the web app (web/dist is missing or out of date)…');
  return run('npm', ['run', 'build', '-w', 'web']);
}
