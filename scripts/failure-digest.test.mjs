import { describe, expect, it } from 'vitest';
import { failedTestNames, playwrightFailureDigest, vitestFailureDigest } from './failure-digest.mjs';

const passing = [
  '',
  ' ✓ server/test/a.int.test.ts (3 tests)',
  '',
  ' Test Files  1 passed (1)',
  '      Tests  3 passed (3)',
];

describe('vitestFailureDigest', () => {
  it('is empty when nothing failed', () => {
    expect(vitestFailureDigest(passing.join('\n'))).toBe('');
  });

  it('keeps the failed tests section up to the totals, without colours', () => {
    const output = [
      ' \u001b[31m×\u001b[39m server/test/a.int.test.ts > uploads > keeps memory flat',
      '',
      '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
      '',
      ' FAIL  integration  server/test/a.int.test.ts > uploads > keeps memory flat',
      'AssertionError: expected 130 to be less than 120',
      '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯',
      '',
      ' \u001b[2mTest Files\u001b[22m  1 failed (1)',
      '      Tests  1 failed (1)',
    ].join('\n');
    const digest = vitestFailureDigest(output);
    expect(digest.split('\n')[0]).toBe('⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯');
    expect(digest).toContain('AssertionError: expected 130 to be less than 120');
    expect(digest).not.toContain('Test Files');
    expect(digest).not.toContain('\u001b[');
  });

  it('keeps unhandled errors, which fail a run whose tests all passed', () => {
    const output = [...passing.slice(0, 2), '⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯', 'Error: socket hang up', ...passing.slice(2)];
    expect(vitestFailureDigest(output.join('\n'))).toBe('⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯\nError: socket hang up');
  });

  it('caps a long section and says how much it left out', () => {
    const output = ['⎯⎯⎯ Failed Tests 9 ⎯⎯⎯', ...Array.from({ length: 20 }, (_, i) => `line ${i}`)].join('\n');
    const digest = vitestFailureDigest(output, 5).split('\n');
    expect(digest).toHaveLength(6);
    expect(digest[5]).toBe('… 16 more lines above in the vitest output');
  });
});

describe('playwrightFailureDigest', () => {
  const failing = [
    'Running 3 tests using 1 worker',
    '  ✓  1 tests/a.spec.ts:3:7 › a › works (1.2s)',
    '  ✘  2 tests/b.spec.ts:9:7 › b › breaks (7.1s)',
    '',
    '  1) tests/b.spec.ts:9:7 › b › breaks ───────',
    '',
    '    \u001b[31mError: expect(locator).toBeVisible() failed\u001b[39m',
    '',
    '  1 failed',
    '    tests/b.spec.ts:9:7 › b › breaks',
    '  2 passed (12.0s)',
  ];

  it('is empty when everything passed', () => {
    expect(playwrightFailureDigest([...failing.slice(0, 2), '', '  1 passed (1.2s)'].join('\n'))).toBe('');
  });

  it('keeps the numbered failures and the totals that name them, without colours', () => {
    const digest = playwrightFailureDigest(failing.join('\n'));
    expect(digest.split('\n')[0]).toBe('  1) tests/b.spec.ts:9:7 › b › breaks ───────');
    expect(digest).toContain('Error: expect(locator).toBeVisible() failed');
    expect(digest).toContain('    tests/b.spec.ts:9:7 › b › breaks\n  2 passed (12.0s)');
    expect(digest).not.toContain('✓');
    expect(digest).not.toContain('\u001b[');
  });

  it('caps long details but keeps the totals', () => {
    const long = [
      ...failing.slice(0, 5),
      ...Array.from({ length: 20 }, (_, i) => `    at line ${i}`),
      ...failing.slice(8),
    ];
    const digest = playwrightFailureDigest(long.join('\n'), 5).split('\n');
    expect(digest[5]).toBe('… 16 more lines above in the Playwright output');
    expect(digest.at(-1)).toBe('  2 passed (12.0s)');
  });
});

describe('failedTestNames', () => {
  it('names each failed browser test once, without its time', () => {
    const output = [
      '  ✓  1 tests/a.spec.ts:3:7 › a › works (1.2s)',
      '  \u001b[31m✘\u001b[39m  2 tests/b.spec.ts:9:7 › b › breaks (1.1m)',
      '  ✘  3 tests/c.spec.ts:4:3 › c › times out (90.0s)',
      '  1) tests/b.spec.ts:9:7 › b › breaks ───────',
      '  2 failed',
      '    tests/b.spec.ts:9:7 › b › breaks',
    ].join('\n');
    expect(failedTestNames(output)).toEqual([
      'tests/b.spec.ts:9:7 › b › breaks',
      'tests/c.spec.ts:4:3 › c › times out',
    ]);
  });

  it('names each failed vitest test once', () => {
    const output = [
      ' × server/test/a.int.test.ts > uploads > keeps memory flat',
      ' FAIL  integration  server/test/a.int.test.ts > uploads > keeps memory flat',
      ' FAIL  unit  server/src/b.test.ts [ server/src/b.test.ts ]',
      ' FAIL  integration  server/test/a.int.test.ts > uploads > keeps memory flat',
    ].join('\n');
    expect(failedTestNames(output)).toEqual([
      'integration server/test/a.int.test.ts > uploads > keeps memory flat',
      'unit server/src/b.test.ts [ server/src/b.test.ts ]',
    ]);
  });

  it('is empty when nothing failed', () => {
    expect(failedTestNames(passing.join('\n'))).toEqual([]);
  });
});
