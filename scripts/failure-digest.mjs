// The part of vitest's output that says what failed, to print again in `npm test`'s summary: the browser
// suite's output comes after it, and a CI log that keeps only its tail would otherwise lose it.

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const SECTION = /⎯{3,} (Failed Tests|Unhandled Errors|Failed Suites)/;
const END = /^\s*Test Files\s/;

/** Lines from vitest's first failure section to its "Test Files" line (at most `maxLines`), colours removed. */
export function vitestFailureDigest(output, maxLines = 200) {
  const lines = output.replace(ANSI, '').split('\n');
  const start = lines.findIndex((line) => SECTION.test(line));
  if (start === -1) return '';
  let end = lines.findIndex((line, i) => i > start && END.test(line));
  if (end === -1) end = lines.length;
  const digest = lines.slice(start, end);
  if (digest.length <= maxLines) return digest.join('\n').trimEnd();
  return [...digest.slice(0, maxLines), `… ${digest.length - maxLines} more lines above in the vitest output`].join(
    '\n',
  );
}

const PW_FIRST_FAILURE = /^\s{2}1\) /;
const PW_TOTALS = /^\s{2}\d+ (failed|flaky|skipped|passed|did not run|interrupted)\b/;

/**
 * What Playwright's list reporter says failed: its numbered failures (at most `maxLines`) and its totals, colours
 * removed. Empty when nothing failed or was flaky.
 */
export function playwrightFailureDigest(output, maxLines = 200) {
  const lines = output.replace(ANSI, '').split('\n');
  const totalsStart = lines.findIndex((line) => PW_TOTALS.test(line));
  const totals = totalsStart === -1 ? [] : lines.slice(totalsStart).filter((line) => line.trim() !== '');
  if (!totals.some((line) => /^\s{2}\d+ (failed|flaky|interrupted)\b/.test(line))) return '';
  const start = lines.findIndex((line) => PW_FIRST_FAILURE.test(line));
  const details = start === -1 ? [] : lines.slice(start, totalsStart === -1 ? lines.length : totalsStart);
  const kept =
    details.length <= maxLines
      ? details
      : [...details.slice(0, maxLines), `… ${details.length - maxLines} more lines above in the Playwright output`];
  return [...kept, ...totals].join('\n').trimEnd();
}

const PW_FAILED_TEST = /^\s+✘\s+\d+\s+(.+?)(?: \(\d[\d.]*(?:ms|s|m|h)\))?$/;
const VITEST_FAILED_TEST = /^\s*FAIL\s+(.+?)\s*$/;

/**
 * The names of the tests that failed in a run of either runner, each once and in order, for the last lines of
 * `npm test` (a CI log cut to its tail keeps those when it loses the digests).
 */
export function failedTestNames(output) {
  const names = new Set();
  for (const line of output.replace(ANSI, '').split('\n')) {
    const match = PW_FAILED_TEST.exec(line) ?? VITEST_FAILED_TEST.exec(line);
    if (match) names.add(match[1].replace(/\s{2,}/g, ' '));
  }
  return [...names];
}
