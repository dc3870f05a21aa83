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
