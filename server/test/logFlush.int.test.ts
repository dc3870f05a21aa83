// Log lines are written asynchronously (buffered, issue 43): every request's access line, with its request id,
// still reaches stdout when the server is stopped with SIGTERM right after answering, and a quiet server's line
// gets there without a stop.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from './support/childServer.js';

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('buffered log lines', () => {
  let dataDir: string;
  let logFile: string;
  let logFd: number;
  let server: ChildServer;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'clipnest-logflush-'));
    logFile = path.join(dataDir, 'server.log');
    logFd = openSync(logFile, 'a');
    server = await startChildServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }, { output: logFd });
  }, 90_000);
  afterAll(async () => {
    await server?.kill();
    if (logFd !== undefined) closeSync(logFd);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('a quiet server writes its line out within a second, unasked', async () => {
    await fetch(`${server.url}/api/health`, { headers: { 'x-request-id': 'quiet-request-1' } });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(lines(logFile).some((line) => line.req_id === 'quiet-request-1')).toBe(true);
  });

  it('SIGTERM right after the last answer: every access line is written, with its request id, then "stopped"', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `flush-test-${i}`);
    for (const id of ids) {
      const res = await fetch(`${server.url}/api/health?token=not-in-the-log`, { headers: { 'x-request-id': id } });
      expect(res.headers.get('x-request-id')).toBe(id);
      await res.arrayBuffer();
    }
    expect(await server.stop()).toBe(0);
    const written = lines(logFile);
    const access = written.filter((line) => line.msg === 'request' && ids.includes(line.req_id as string));
    expect(access.map((line) => line.req_id)).toEqual(ids);
    expect(access[0]).toMatchObject({ level: 'info', method: 'GET', route: '/api/health', path: '/api/health' });
    expect(written.at(-1)?.msg).toBe('stopped');
    expect(readFileSync(logFile, 'utf8')).not.toContain('not-in-the-log');
  }, 60_000);
});
