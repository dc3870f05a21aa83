import { describe, expect, it } from 'vitest';
import { dbVersionOf } from './db';

describe('offline database version', () => {
  it('derives from the app version, so a new version starts with fresh cached pages', () => {
    expect(dbVersionOf('0.1.0')).toBe(1000);
    expect(dbVersionOf('1.2.3')).toBe(1_002_003);
    expect(dbVersionOf('1.2.4')).toBeGreaterThan(dbVersionOf('1.2.3'));
    expect(dbVersionOf('2.0.0-beta.1')).toBe(2_000_000);
    expect(dbVersionOf('0.0.0')).toBe(1);
    expect(dbVersionOf('nonsense')).toBe(1);
  });
});
