import type { PasteDetail } from '@clipnest/contract';
import { describe, expect, it } from 'vitest';
import { formFromPaste, toUpdateInput, validateEditForm } from './editForm';

const paste: PasteDetail = {
  id: 'p1',
  slug: 'notes',
  type: 'markdown',
  remark: 'old',
  preview: '# hi',
  content: '# hi',
  size: 4,
  has_password: true,
  expires_at: null,
  max_views: 0,
  views: 3,
  remaining_views: null,
  expired: false,
  created_by: 'admin',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  encrypted: false,
};

describe('edit paste form', () => {
  it('sends nothing when nothing changed', () => {
    expect(toUpdateInput(paste, formFromPaste(paste))).toEqual({});
  });

  it('sends only the changed fields', () => {
    const form = { ...formFromPaste(paste), content: 'new', remark: '', expiry: '168' as const, maxViews: '5' };
    expect(toUpdateInput(paste, form)).toEqual({ content: 'new', remark: '', expires_in: 168, max_views: 5 });
  });

  it('sets or clears the password, never both', () => {
    expect(toUpdateInput(paste, { ...formFromPaste(paste), password: 'pw' })).toEqual({ password: 'pw' });
    expect(toUpdateInput(paste, { ...formFromPaste(paste), password: 'pw', clearPassword: true })).toEqual({
      clear_password: true,
    });
  });

  it('validates content, slug and max views', () => {
    expect(validateEditForm({ ...formFromPaste(paste), content: ' ', slug: 'api', maxViews: '-1' })).toEqual({
      content: 'contentEmpty',
      slug: 'slugReserved',
      maxViews: 'maxViewsInvalid',
    });
    expect(validateEditForm({ ...formFromPaste(paste), slug: '' })).toEqual({ slug: 'slugRequired' });
  });
});
