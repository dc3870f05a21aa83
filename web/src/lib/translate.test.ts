import { describe, expect, it } from 'vitest';
import { interpolate, lookup, pluralCategory, translate, type MessageTree } from './translate';

const tree: MessageTree = {
  errors: { http: 'HTTP error {{status}}: {{statusText}}', group: { inner: 'x' } },
  files: { selected_one: '{{count}} file selected', selected_other: '{{count}} files selected' },
  tasks: { left_zero: 'Nothing left', left_one: 'One left', left_other: '{{count}} left' },
  plain: 'Plain',
};

describe('translate', () => {
  it('finds texts by dotted key and answers the key when there is none', () => {
    expect(translate(tree, 'en', 'plain')).toBe('Plain');
    expect(translate(tree, 'en', 'errors.group.inner')).toBe('x');
    expect(translate(tree, 'en', 'errors.missing')).toBe('errors.missing');
    expect(translate(tree, 'en', 'errors.group')).toBe('errors.group');
    expect(translate(undefined, 'en', 'plain')).toBe('plain');
    expect(lookup(tree, 'plain.deeper')).toBeUndefined();
  });

  it('fills placeholders and leaves one without a value visible', () => {
    expect(translate(tree, 'en', 'errors.http', { status: 404, statusText: 'Not Found' })).toBe(
      'HTTP error 404: Not Found',
    );
    expect(interpolate('a {{ b }} {{c}}', { b: 0 })).toBe('a 0 {{c}}');
    expect(interpolate('$& {{v}}', { v: '$1' })).toBe('$& $1');
  });

  it('picks the plural form by the language rules, with _zero for 0 when it exists', () => {
    expect(translate(tree, 'en', 'files.selected', { count: 1 })).toBe('1 file selected');
    expect(translate(tree, 'en', 'files.selected', { count: 3 })).toBe('3 files selected');
    expect(translate(tree, 'en', 'files.selected', { count: 0 })).toBe('0 files selected');
    expect(translate(tree, 'en', 'tasks.left', { count: 0 })).toBe('Nothing left');
    // Chinese has one form ("other") for every count.
    expect(translate(tree, 'zh-CN', 'files.selected', { count: 1 })).toBe('1 files selected');
    expect(translate(tree, 'en', 'files.selected_one', { count: 5 })).toBe('5 file selected');
  });
});

describe('pluralCategory', () => {
  it('picks the category Intl.PluralRules picks in English and Chinese', () => {
    const counts = [0, 1, 2, 3, 5, 11, 21, 100, 101, 1000, 1.5, 0.5, 1.0, -1, -2, 1e6];
    for (const language of ['en', 'en-US', 'zh-CN', 'zh']) {
      const rules = new Intl.PluralRules(language);
      for (const count of counts)
        expect(pluralCategory(language, count), `${language} ${count}`).toBe(rules.select(count));
    }
  });

  it('asks Intl for other languages', () => {
    expect(pluralCategory('ru', 3)).toBe('few');
    expect(pluralCategory('fr', 0)).toBe('one');
  });
});
