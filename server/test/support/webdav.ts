import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';

export const LITMUS_SUITES = ['basic', 'copymove', 'props', 'locks', 'http'] as const;

export interface LitmusSummary {
  suite: string;
  run: number;
  passed: number;
  failed: number;
}

export interface LitmusResult {
  summaries: LitmusSummary[];
  /** Lines naming a failed test or a warning (`WARNING:` / `FAIL`). */
  problems: string[];
  output: string;
}

/** Parses litmus' output: its summary lines and every FAIL / WARNING line. */
export function parseLitmus(output: string): LitmusResult {
  const summaries: LitmusSummary[] = [];
  for (const m of output.matchAll(/<- summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/g)) {
    summaries.push({ suite: m[1] as string, run: Number(m[2]), passed: Number(m[3]), failed: Number(m[4]) });
  }
  const problems = output
    .split('\n')
    .filter((line) => /FAIL|WARNING/.test(line))
    .map((line) => line.trim());
  return { summaries, problems, output };
}

/** Runs Debian litmus (all suites) against a collection URL; litmus writes its logs into a temp dir. */
export async function runLitmus(url: string, user: string, password: string): Promise<LitmusResult> {
  const cwd = mkdtempSync(path.join(tmpdir(), 'litmus-'));
  try {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        '/usr/bin/litmus',
        ['-k', url, user, password],
        { cwd, env: { ...process.env, TESTS: LITMUS_SUITES.join(' ') }, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          if (error && !stdout) reject(error);
          else resolve(`${stdout}${stderr}`);
        },
      );
    });
    return parseLitmus(output);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** Runs litmus against a collection URL and expects every suite to run and pass, with no warning. */
export async function expectLitmusPasses(url: string, user: string, password: string): Promise<void> {
  const result = await runLitmus(url, user, password);
  const scores = result.summaries.map((s) => `${s.suite} ${s.passed}/${s.run}`);
  expect({ scores, problems: result.problems }).toEqual({
    scores: result.summaries.map((s) => `${s.suite} ${s.run}/${s.run}`),
    problems: [],
  });
  expect(result.summaries.map((s) => s.suite)).toEqual([...LITMUS_SUITES]);
}

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** A WebDAV request to a test server with one Authorization (`base` read per call: the server starts later). */
export function davClient(base: () => string, authorization: string) {
  return (method: string, url: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(`${base()}${url}`, { method, headers: { authorization, ...headers }, body });
}
