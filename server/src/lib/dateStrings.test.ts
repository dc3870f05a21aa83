import { describe, expect, it } from 'vitest';
import { httpDateString, isoString } from './dateStrings.js';

describe('dateStrings', () => {
  it('answers what Date itself does, for remembered and new times alike', () => {
    for (let i = 0; i < 5000; i++) {
      const date = new Date(Date.UTC(2026, 10, 29) + (i % 3000) * 1000 + (i % 7));
      expect(isoString(date)).toBe(date.toISOString());
      expect(httpDateString(date)).toBe(date.toUTCString());
    }
  });
});
