// CPU time of processes from /proc (Linux), to show what a server spends during a benchmark.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

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

/** The real node server under a tsx pid: the descendant whose command line runs main.ts. */
export function serverPid(rootPid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(statFields(entry)[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  let found = rootPid;
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.shift();
    for (const child of children.get(pid) ?? []) {
      queue.push(child);
      try {
        if (readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('main.ts')) found = child;
      } catch {
        // gone
      }
    }
  }
  return found;
}
