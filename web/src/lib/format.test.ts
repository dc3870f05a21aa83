import { describe, expect, it } from 'vitest';
import i18n from './i18n';
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

  it('writes sizes in English and Chinese exactly as Intl does, without building its formatter', () => {
    for (const lang of ['en', 'zh-CN']) {
      const intl = (digits: number) =>
        new Intl.NumberFormat(lang, { maximumFractionDigits: digits, minimumFractionDigits: 0 });
      const [whole, oneDecimal] = [intl(0), intl(1)];
      for (let bytes = 1024; bytes < 1024 * 1024; bytes += 1021) {
        const value = bytes / 1024;
        expect(formatBytes(bytes, lang)).toBe(`${(value >= 100 ? whole : oneDecimal).format(value)} KB`);
      }
      for (const value of [
        1.05, 1.45, 1.15, 2.675, 9.95, 99.9, 99.94, 99.95, 99.96, 100, 999.4, 999.5, 1023.4, 1023.95,
      ]) {
        expect(formatBytes(value * 1024, lang)).toBe(`${(value >= 100 ? whole : oneDecimal).format(value)} KB`);
      }
    }
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

  it('writes relative times from the app texts exactly as Intl.RelativeTimeFormat would, in both languages', async () => {
    const offsets = [0, 1, 2, 3, 45, 59, 60, 61, 90, 3599, 3600, 7200, 86_399, 86_400, 2 * 86_400, 3 * 86_400];
    const more = [6 * 86_400, 7 * 86_400, 14 * 86_400, 30 * 86_400, 61 * 86_400, 365 * 86_400, 800 * 86_400];
    for (const lang of ['en', 'zh-CN'] as const) {
      await i18n.changeLanguage(lang);
      const intl = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
      for (const offset of [...offsets, ...more].flatMap((o) => [o, -o])) {
        const iso = new Date(now + offset * 1000).toISOString();
        const units: [Intl.RelativeTimeFormatUnit, number][] = [
          ['year', 365 * 86_400],
          ['month', 30 * 86_400],
          ['week', 7 * 86_400],
          ['day', 86_400],
          ['hour', 3600],
          ['minute', 60],
        ];
        const [unit, size] = units.find(([, s]) => Math.abs(offset) >= s) ?? ['second', 1];
        expect(formatRelative(iso, lang, now), `${lang} ${offset}`).toBe(intl.format(Math.round(offset / size), unit));
      }
    }
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
