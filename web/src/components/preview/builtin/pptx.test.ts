import { describe, expect, it } from 'vitest';
import { resolvePart } from './pptx';

describe('resolvePart', () => {
  it('resolves a relationship target against its part', () => {
    expect(resolvePart('ppt/slides/slide1.xml', '../media/image1.png')).toBe('ppt/media/image1.png');
    expect(resolvePart('ppt/slides/slide1.xml', '/ppt/media/a.png')).toBe('ppt/media/a.png');
    expect(resolvePart('ppt/slides/slide1.xml', '../../../../x.png')).toBe('x.png');
  });
});
