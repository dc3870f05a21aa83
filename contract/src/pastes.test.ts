import { describe, expect, it } from 'vitest';
import { utf8Length } from './limits.js';
import { createPasteSchema, listPastesQuerySchema, PasteMessages, updatePasteSchema } from './pastes.js';

describe('paste schemas', () => {
  it('accepts a minimal create and fills defaults', () => {
    expect(createPasteSchema.parse({ content: 'hi' })).toEqual({ content: 'hi', type: 'markdown', max_views: 0 });
  });

  it('treats empty slug and password as not given', () => {
    const parsed = createPasteSchema.parse({ content: 'x', slug: '', password: '' });
    expect(parsed.slug).toBeUndefined();
    expect(parsed.password).toBeUndefined();
  });

  it('rejects empty content, reserved slugs, negative max views and both expiry forms', () => {
    const empty = createPasteSchema.safeParse({ content: '  \n' });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0]?.message).toBe(PasteMessages.contentEmpty);
    expect(createPasteSchema.safeParse({ content: 'x', slug: 'Admin' }).success).toBe(false);
    expect(createPasteSchema.safeParse({ content: 'x', slug: 'a b' }).success).toBe(false);
    expect(createPasteSchema.safeParse({ content: 'x', slug: 'a'.repeat(51) }).success).toBe(false);
    expect(createPasteSchema.safeParse({ content: 'x', max_views: -1 }).success).toBe(false);
    expect(createPasteSchema.safeParse({ content: 'x', expires_in: 1, expires_at: null }).success).toBe(false);
    expect(createPasteSchema.safeParse({ content: 'x', type: 'html' }).success).toBe(false);
    expect(createPasteSchema.safeParse({ content: 'x', extra: 1 }).success).toBe(false);
  });

  it('update refuses password together with clear_password', () => {
    expect(updatePasteSchema.safeParse({ password: 'a', clear_password: true }).success).toBe(false);
    expect(updatePasteSchema.parse({ password: '', clear_password: true })).toEqual({ clear_password: true });
  });

  it('list query coerces strings and applies the spec default limit', () => {
    expect(listPastesQuerySchema.parse({ page: '2' })).toMatchObject({ page: 2, limit: 10, sort: 'created_at' });
    expect(listPastesQuerySchema.safeParse({ limit: '0' }).success).toBe(false);
    expect(listPastesQuerySchema.safeParse({ sort: 'content' }).success).toBe(false);
  });

  it('counts UTF-8 bytes', () => {
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('中')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
    expect(utf8Length('😀中é')).toBe(9);
    expect(utf8Length('\ud800x')).toBe(4);
  });
});
