import { describe, expect, it } from 'vitest';
import { nameProblem } from './NameDialog';

describe('file and folder names', () => {
  it('refuses empty, slashes, dot names and over 255 bytes', () => {
    expect(nameProblem(' ')).toBe('empty');
    expect(nameProblem('a/b')).toBe('slash');
    expect(nameProblem('a\\b')).toBe('slash');
    expect(nameProblem('..')).toBe('dots');
    expect(nameProblem('中'.repeat(86))).toBe('long');
    expect(nameProblem('report 2026.txt')).toBeNull();
  });
});
