import type { FsEntryView } from '@clipnest/contract';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFS, isImage, readPrefs, sortAndFilter } from './viewPrefs';

const e = (name: string, size = 0, isDirectory = false, modified?: string): FsEntryView => ({
  name,
  path: `/m/${name}`,
  size,
  isDirectory,
  ...(modified ? { modified } : {}),
});

describe('explorer view prefs', () => {
  it('reads saved prefs and falls back on bad ones', () => {
    expect(readPrefs(null)).toEqual(DEFAULT_PREFS);
    expect(readPrefs('nonsense')).toEqual(DEFAULT_PREFS);
    const p = readPrefs(JSON.stringify({ view: 'gallery', sort: 'size', desc: true, gallery: { columns: 99 } }));
    expect(p.view).toBe('gallery');
    expect(p.sort).toBe('size');
    expect(p.desc).toBe(true);
    expect(p.gallery.columns).toBe(8);
    expect(readPrefs(JSON.stringify({ view: 'bogus' })).view).toBe('list');
  });

  it('sorts folders first, numerically by name, and filters', () => {
    const list = [e('file10.txt', 5), e('file2.txt', 50), e('Docs', 0, true), e('a.png', 10)];
    expect(sortAndFilter(list, { sort: 'name', desc: false, filter: '' }).map((x) => x.name)).toEqual([
      'Docs',
      'a.png',
      'file2.txt',
      'file10.txt',
    ]);
    expect(sortAndFilter(list, { sort: 'size', desc: true, filter: '' }).map((x) => x.name)).toEqual([
      'Docs',
      'file2.txt',
      'a.png',
      'file10.txt',
    ]);
    expect(sortAndFilter(list, { sort: 'name', desc: false, filter: 'FILE' }).map((x) => x.name)).toEqual([
      'file2.txt',
      'file10.txt',
    ]);
  });

  it('tells images apart', () => {
    expect(isImage(e('a.JPG'))).toBe(true);
    expect(isImage({ ...e('blob'), mimetype: 'image/webp' })).toBe(true);
    expect(isImage(e('a.txt'))).toBe(false);
    expect(isImage(e('x.png', 0, true))).toBe(false);
  });
});
