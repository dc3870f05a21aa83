import { describe, expect, it } from 'vitest';
import { clip, fileTexts, formatSize, markdownToPlain, oneLine, pasteTexts } from './linkPreviewText.js';

describe('link preview texts', () => {
  it('reads Markdown as plain text, roughly', () => {
    const md = [
      '# Release *notes* ##',
      '',
      '> quoted **bold** and __strong__ ~~gone~~',
      '- [x] a [link](https://example.com) and ![alt text](/i.png)',
      '1. `code` and <b>html</b> and snake_case_name',
      '```js',
      'const a = 1;',
      '```',
      '| a | b |',
      '|---|:-:|',
      '---',
      '[ref]: https://example.com',
      'escaped \\*star\\*',
    ].join('\n');
    expect(oneLine(markdownToPlain(md))).toBe(
      'Release notes quoted bold and strong gone a link and alt text code and html and snake_case_name const a = 1; a b escaped *star*',
    );
  });

  it('a paste: remark first, else the first non-empty line; the description clipped with an ellipsis', () => {
    const long = `## Heading line\n\n${'word '.repeat(60)}`;
    const md = pasteTexts({ remark: '', type: 'markdown' }, long);
    expect(md.title).toBe('Heading line');
    expect(md.description.startsWith('Heading line word word')).toBe(true);
    expect(md.description.endsWith('…')).toBe(true);
    expect(Array.from(md.description).length).toBeLessThanOrEqual(160);
    expect(pasteTexts({ remark: '  My\tremark ', type: 'markdown' }, 'body').title).toBe('My remark');
    // Plain text keeps its marks.
    expect(pasteTexts({ remark: '', type: 'text' }, '\n\n# not a heading\nx').title).toBe('# not a heading');
    expect(pasteTexts({ remark: '', type: 'markdown' }, '   \n').title).toBe('Shared paste');
  });

  it('clips by code points, at a word near the end, and removes controls', () => {
    expect(clip('short', 70)).toBe('short');
    expect(clip('😀'.repeat(80), 70)).toBe(`${'😀'.repeat(69)}…`);
    expect(clip(`${'a'.repeat(60)} bbbbbbbbbbbbbbbbbbbb`, 70)).toBe(`${'a'.repeat(60)}…`);
    expect(oneLine('a\u0000b\u202ec\n\td\uD800')).toBe('abc d');
  });

  it('a file: its name; its type and size', () => {
    expect(fileTexts({ filename: 'photo.png', mimetype: 'image/png', size: 12_697 })).toEqual({
      title: 'photo.png',
      description: 'PNG image · 12.4 KB',
    });
    expect(fileTexts({ filename: 'README', mimetype: 'application/octet-stream', size: 10 }).description).toBe(
      'File · 10 B',
    );
    expect(fileTexts({ filename: 'a.tar.gz', mimetype: 'application/gzip', size: 3 * 1024 ** 3 }).description).toBe(
      'GZ file · 3 GB',
    );
    expect(formatSize(1024 * 150.4)).toBe('150 KB');
  });
});
