import { describe, expect, it } from 'vitest';
import { plainParagraph } from './plainParagraph';

describe('plainParagraph', () => {
  it('renders a plain sentence without the Markdown renderer', () => {
    expect(plainParagraph('© 2026 Clipnest. All rights reserved.')).toBe(
      '<p>© 2026 Clipnest. All rights reserved.</p>',
    );
    expect(plainParagraph('  Say "hi"  ')).toBe('<p>Say &quot;hi&quot;</p>');
  });

  it('leaves anything that could be Markdown or HTML to the renderer', () => {
    for (const text of [
      '**bold**',
      'a [link](https://x.y)',
      'see https://example.com',
      'www.example.com',
      '<img src=x onerror=alert(1)>',
      '# Title',
      '- item',
      '1. first',
      '> quote',
      'a & b',
      'one\n\ntwo',
      'one\ntwo',
      'back\\slash',
      '`code`',
      '',
    ]) {
      expect(plainParagraph(text), text).toBeNull();
    }
  });
});
