import { describe, expect, it } from 'vitest';
import { vitestFailureDigest } from './failure-digest.mjs';

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
