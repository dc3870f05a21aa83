// Resident memory and CPU time of the Chromium processes this benchmark started (Linux /proc): the page's
// heap alone misses what a page holds outside it (ArrayBuffers, a Web Worker's heap in the renderer, Blob
// bytes kept by the browser process), and CPU time shows what an upload costs the machine.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

function processes() {
  const list = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      const cpu = (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const rss = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1] ?? 0) * 1024;
      list.push({ pid: Number(entry), ppid, cmdline, rss, cpu });
    } catch {
      // exited meanwhile
    }
  }
  return list;
}

/**
 * Of this process's Chromium descendants: the RSS in bytes of the renderers and of the browser process, and
 * the CPU seconds used so far by all of them (GPU and utility processes included), and the same CPU seconds
 * by kind of process (`browser`, `renderer`, `gpu-process`, a utility process by its service: `NetworkService`).
 */
export function chromiumUsage(root = process.pid) {
  const list = processes();
  const byPid = new Map(list.map((p) => [p.pid, p]));
  const descends = (p) => {
    for (let at = p.ppid, depth = 0; at && depth < 16; at = byPid.get(at)?.ppid, depth++) if (at === root) return true;
    return false;
  };
  let renderer = 0;
  let browser = 0;
  let cpu = 0;
  const cpuByKind = {};
  for (const p of list) {
    if (!p.cmdline.includes('chrom') || !descends(p)) continue;
    cpu += p.cpu;
    const kind =
      /--utility-sub-type=([\w.]+)/.exec(p.cmdline)?.[1]?.replace(/^.*\./, '') ??
      /--type=([\w-]+)/.exec(p.cmdline)?.[1] ??
      'browser';
    cpuByKind[kind] = (cpuByKind[kind] ?? 0) + p.cpu;
    if (p.cmdline.includes('--type=renderer')) renderer += p.rss;
    else if (!p.cmdline.includes('--type=')) browser += p.rss;
  }
  return { renderer, browser, cpu, cpuByKind };
}
