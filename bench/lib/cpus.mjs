// Splits the machine's CPUs between the server (the last one) and the load generator (the rest), so the
// two never take turns on one core: on a 2-core machine a wrk thread preempting the single-threaded server
// shows up as latency that belongs to neither. Without taskset or with one CPU, nothing is pinned.
import { existsSync } from 'node:fs';
import os from 'node:os';

const count = os.availableParallelism();
const canPin = count >= 2 && existsSync('/usr/bin/taskset');

/** taskset CPU list for the server, or undefined when not pinning. */
export const serverCpus = canPin ? String(count - 1) : undefined;
/** taskset CPU list for the client. */
export const clientCpus = canPin ? (count === 2 ? '0' : `0-${count - 2}`) : undefined;
/** Client threads: one per client CPU. */
export const clientThreads = canPin ? count - 1 : Math.max(1, count);

/** [command, args] running `command` on the client CPUs. */
export function onClientCpus(command, args) {
  return clientCpus ? ['taskset', ['-c', clientCpus, command, ...args]] : [command, args];
}

export function pinningLine() {
  return canPin
    ? `server pinned to CPU ${serverCpus}, load generator to CPU ${clientCpus} (taskset)`
    : 'no CPU pinning (taskset missing or one CPU)';
}
