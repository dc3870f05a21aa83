import { describe, expect, it } from 'vitest';
import { Marked } from 'marked';
import { createSlugger, headingIds, slugify } from './headingIds';

describe('heading ids (GitHub slugs)', () => {
  it('slugs as github-slugger does', () => {
    expect(slugify('Getting started')).toBe('getting-started');
    expect(slugify('What’s new in v2.0?')).toBe('whats-new-in-v20');
    expect(slugify('snake_case & kebab-case')).toBe('snake_case--kebab-case');
    expect(slugify('部署 说明！')).toBe('部署-说明');
    expect(slugify('Émoji 🎉 here')).toBe('émoji--here');
  });

  it('numbers repeated slugs within one document, fresh for the next', () => {
    const slug = createSlugger();
    expect([slug('Notes'), slug('Notes'), slug('Notes-1'), slug('Notes')]).toEqual([
      'notes',
      'notes-1',
      'notes-1-1',
      'notes-2',
    ]);
    const marked = new Marked({ async: false }).use(headingIds());
    const html = '# A\n\n## A\n';
    expect(marked.parse(html)).toBe('<h1 id="a">A</h1>\n<h2 id="a-1">A</h2>\n');
    expect(marked.parse(html)).toBe('<h1 id="a">A</h1>\n<h2 id="a-1">A</h2>\n');
  });

  // As marked-gfm-heading-id did: named entities and tags drop out of the id.
  it('uses the heading text without its markup or entities', () => {
    const marked = new Marked({ async: false }).use(headingIds());
    expect(marked.parse('## `code` & **bold** <x>')).toContain('<h2 id="code--bold-">');
  });
});
