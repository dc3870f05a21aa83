// CPU time of processes from /proc (Linux), to show what a server spends during a benchmark.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

function statFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** utime + stime of a process, in seconds. */
export function cpuSeconds(pid) {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** Stops a child process (SIGTERM, then waits for it) and removes its data directory. */
export async function stopChild(child, dataDir) {
  if (child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
}
