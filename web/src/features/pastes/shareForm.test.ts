import { describe, expect, it } from 'vitest';
import {
  contentError,
  DEFAULT_SHARE_OPTIONS,
  exportBaseName,
  parseMaxViews,
  slugError,
  toCreateInput,
  validateShareOptions,
} from './shareForm';

describe('share options', () => {
  it('checks the slug like the server does', () => {
    expect(slugError('')).toBeUndefined();
    expect(slugError('my-notes_1')).toBeUndefined();
    expect(slugError('has space')).toBe('slugPattern');
    expect(slugError('中文')).toBe('slugPattern');
    expect(slugError('a'.repeat(51))).toBe('slugTooLong');
    expect(slugError('Admin')).toBe('slugReserved');
    expect(slugError('paste')).toBe('slugReserved');
  });

  it('parses max views: empty is unlimited, negatives and fractions are rejected', () => {
    expect(parseMaxViews('')).toBe(0);
    expect(parseMaxViews(' 2 ')).toBe(2);
    expect(parseMaxViews('-1')).toBeNull();
    expect(parseMaxViews('1.5')).toBeNull();
    expect(parseMaxViews('abc')).toBeNull();
    expect(validateShareOptions({ ...DEFAULT_SHARE_OPTIONS, maxViews: '-3' })).toEqual({ maxViews: 'maxViewsInvalid' });
  });

  it('rejects empty content and content above 10 MB', () => {
    expect(contentError('   \n')).toBe('contentEmpty');
    expect(contentError('# hi')).toBeUndefined();
    expect(contentError('a'.repeat(10 * 1024 * 1024 + 1))).toBe('contentTooLarge');
    // Multi-byte characters count in UTF-8 bytes.
    expect(contentError('中'.repeat(3_500_000))).toBe('contentTooLarge');
  });

  it('builds the create body, leaving out empty fields', () => {
    expect(toCreateInput('x', 'markdown', DEFAULT_SHARE_OPTIONS)).toEqual({
      content: 'x',
      type: 'markdown',
      expires_in: 24,
      max_views: 0,
    });
    expect(
      toCreateInput('x', 'text', {
        remark: ' note ',
        slug: ' s1 ',
        password: 'pw',
        expiry: '0',
        maxViews: '2',
      }),
    ).toEqual({ content: 'x', type: 'text', remark: 'note', slug: 's1', password: 'pw', expires_in: 0, max_views: 2 });
  });

  it('names exports after the first heading', () => {
    expect(exportBaseName('\n# Release notes: v2 \nbody')).toBe('Release notes v2');
    expect(exportBaseName('   ')).toBe('clipnest');
  });
});
