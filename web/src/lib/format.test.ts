import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDateTime,
  formatDuration,
  formatNumber,
  formatRelative,
  formatSpeed,
  isPast,
} from './format';

describe('formatBytes', () => {
  it('steps by 1024 with one decimal under 100 and none above', () => {
    expect(formatBytes(0, 'en')).toBe('0 B');
    expect(formatBytes(1023, 'en')).toBe('1,023 B');
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
    expect(formatBytes(10 * 1024 * 1024, 'en')).toBe('10 MB');
    expect(formatBytes(150.4 * 1024 * 1024, 'en')).toBe('150 MB');
    expect(formatBytes(2 * 1024 ** 3, 'en')).toBe('2 GB');
    expect(formatBytes(3 * 1024 ** 5, 'en')).toBe('3 PB');
  });

  it('uses the language’s decimal mark', () => {
    expect(formatBytes(1536, 'de')).toBe('1,5 KB');
  });

  it('answers a dash for sizes that are not sizes', () => {
    expect(formatBytes(-1, 'en')).toBe('—');
    expect(formatBytes(Number.NaN, 'en')).toBe('—');
    expect(formatBytes(Number.POSITIVE_INFINITY, 'en')).toBe('—');
  });
});

describe('formatSpeed / formatNumber', () => {
  it('adds /s to a size', () => {
    expect(formatSpeed(3.2 * 1024 * 1024, 'en')).toBe('3.2 MB/s');
  });

  it('groups digits', () => {
    expect(formatNumber(2147483648, 'en')).toBe('2,147,483,648');
  });
});

describe('formatDuration', () => {
  it('writes minutes:seconds, and hours past an hour', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(12.4)).toBe('0:12');
    expect(formatDuration(247)).toBe('4:07');
    expect(formatDuration(3909)).toBe('1:05:09');
    expect(formatDuration(-5)).toBe('0:00');
  });
});

describe('dates', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');

  it('says how far away a time is', () => {
    expect(formatRelative('2025-06-04T12:00:00Z', 'en', now)).toBe('in 3 days');
    expect(formatRelative('2025-06-01T11:55:00Z', 'en', now)).toBe('5 minutes ago');
    expect(formatRelative('2025-06-01T12:00:00Z', 'en', now)).toBe('now');
  });

  it('gives back what it cannot read', () => {
    expect(formatRelative('soon', 'en', now)).toBe('soon');
    expect(formatDateTime('not a date', 'en')).toBe('not a date');
  });

  it('knows whether a time has passed', () => {
    expect(isPast(null, now)).toBe(false);
    expect(isPast('2025-06-01T12:00:00Z', now)).toBe(true);
    expect(isPast('2025-06-01T12:00:01Z', now)).toBe(false);
  });
});
