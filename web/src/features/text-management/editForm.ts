/** The edit dialog's form → PUT /api/pastes/{id} body (only what changed). Pure, unit-tested. */
import type { PasteDetail, PasteType, UpdatePasteInput } from '@clipnest/contract';
import { contentError, parseMaxViews, slugError, type ShareFieldError } from '../pastes/shareForm';

/** 'keep' leaves the expiry as it is; the rest are hours (0 = never). */
export const EDIT_EXPIRY_CHOICES = ['keep', '1', '24', '168', '720', '0'] as const;
export type EditExpiryChoice = (typeof EDIT_EXPIRY_CHOICES)[number];

export interface EditForm {
  content: string;
  type: PasteType;
  remark: string;
  slug: string;
  /** A new password; empty keeps the current one. */
  password: string;
  clearPassword: boolean;
  expiry: EditExpiryChoice;
  maxViews: string;
  resetViews: boolean;
}

export function formFromPaste(paste: PasteDetail): EditForm {
  return {
    content: paste.content,
    type: paste.type,
    remark: paste.remark,
    slug: paste.slug,
    password: '',
    clearPassword: false,
    expiry: 'keep',
    maxViews: String(paste.max_views),
    resetViews: false,
  };
}

export type EditErrors = Partial<Record<'content' | 'slug' | 'maxViews' | 'remark', string>>;

export function validateEditForm(form: EditForm): EditErrors {
  const errors: EditErrors = {};
  const content = contentError(form.content);
  if (content) errors.content = content;
  if (!form.slug.trim()) errors.slug = 'slugRequired';
  else {
    const slug: ShareFieldError | undefined = slugError(form.slug);
    if (slug) errors.slug = slug;
  }
  if (parseMaxViews(form.maxViews) === null) errors.maxViews = 'maxViewsInvalid';
  if (form.remark.length > 1000) errors.remark = 'remarkTooLong';
  return errors;
}

export function toUpdateInput(original: PasteDetail, form: EditForm): UpdatePasteInput {
  const input: UpdatePasteInput = {};
  if (form.content !== original.content) input.content = form.content;
  if (form.type !== original.type) input.type = form.type;
  if (form.remark.trim() !== original.remark) input.remark = form.remark.trim();
  if (form.slug.trim() !== original.slug) input.slug = form.slug.trim();
  if (form.clearPassword) input.clear_password = true;
  else if (form.password) input.password = form.password;
  if (form.expiry !== 'keep') input.expires_in = Number(form.expiry);
  const maxViews = parseMaxViews(form.maxViews) ?? original.max_views;
  if (maxViews !== original.max_views) input.max_views = maxViews;
  if (form.resetViews) input.reset_views = true;
  return input;
}
