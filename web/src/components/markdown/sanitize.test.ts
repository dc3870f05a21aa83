import { describe, expect, it } from 'vitest';
import { filterStyle, isAllowedClass } from './sanitize';

describe('markdown sanitiser rules', () => {
  it('keeps only harmless inline styles', () => {
    expect(filterStyle('height:1.2em; vertical-align:-0.25em')).toBe('height:1.2em;vertical-align:-0.25em');
    expect(filterStyle('color: red; position: fixed; inset: 0; z-index: 9999')).toBe('color:red');
    expect(filterStyle('background-image: url(https://evil.example/x.png)')).toBe('');
    expect(filterStyle('color: expression(alert(1))')).toBe('');
    expect(filterStyle('width: var(--x)')).toBe('');
    expect(filterStyle('color: re\\64')).toBe('');
    expect(filterStyle('transform: scale(100)')).toBe('');
  });

  it('keeps renderer classes and drops page utility classes', () => {
    for (const name of ['katex', 'vlist-t', 'hljs', 'hljs-keyword', 'language-ts', 'md-code']) {
      expect(isAllowedClass(name), name).toBe(true);
    }
    for (const name of ['fixed', 'inset-0', 'z-50', 'sr-only', 'bg-black', 'hidden', 'absolute']) {
      expect(isAllowedClass(name), name).toBe(false);
    }
  });
});
