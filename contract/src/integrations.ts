import { Permission } from './permissions.js';

/**
 * GET /api/integrations/sharex?kind=: `file` sends images, files and text (as a file) to /api/upload; `text`
 * sends text as a plain paste to /api/paste. Each needs the key permission named here.
 */
export const SHAREX_KINDS = ['file', 'text'] as const;
export type SharexKind = (typeof SHAREX_KINDS)[number];
export const SHAREX_KIND_PERMISSION: Record<SharexKind, number> = {
  file: Permission.FILE_SHARE,
  text: Permission.TEXT,
};

/** A ShareX custom uploader (.sxcu): the fields ShareX 13 and later read. */
export interface SharexUploader {
  Version: string;
  Name: string;
  DestinationType: string;
  RequestMethod: 'POST';
  RequestURL: string;
  Headers: Record<string, string>;
  Body: 'MultipartFormData' | 'JSON';
  FileFormName?: string;
  Data?: string;
  URL: string;
  ErrorMessage: string;
}
