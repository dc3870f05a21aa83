import {
  shareArchiveEntryQuerySchema,
  shareArchiveQuerySchema,
  batchDeleteFilesSchema,
  fileListQuerySchema,
  updateFileSchema,
  verifyFilePasswordSchema,
} from '@clipnest/contract';
import {
  archiveListingSchema,
  batchDeleteFilesResultSchema,
  fileViewSchema,
  listPageOf,
  maxUploadSizeSchema,
  officePreviewResultSchema,
  publicFileDetailsSchema,
  publicFileLockedSchema,
} from '@clipnest/contract/responses';
import { z } from 'zod';
import type { Operations } from '../operation.js';

const shareAccess = z.object({
  token: z.string().optional().meta({ description: 'The access token of the metadata answer (its URLs carry it).' }),
  password: z.string().optional().meta({ description: 'The share password, instead of a token.' }),
});

const content = (mode: string) => ({
  summary: `The shared file's bytes (${mode})`,
  description:
    'Needs the `token` of the metadata answer (or the `password`) when the share has a password. Range requests ' +
    'answer 206; HTML, SVG and unknown types are always attachments.',
  tag: 'File shares',
  access: 'public' as const,
  query: shareAccess,
  headers: { Range: 'bytes=start-end: a part of the file (206).', 'If-None-Match': 'The ETag: 304 while unchanged.' },
  answer: {
    media: { 'application/octet-stream': 'The file (its own Content-Type).' },
    description: 'The file.',
    notModified: true,
    ranges: true,
  },
  errors: ['NOT_FOUND' as const, 'EXPIRED' as const, 'PASSWORD_REQUIRED' as const, 'PASSWORD_WRONG' as const],
});

/** server/src/routes/fileRoutes.ts and publicFileRoutes.ts */
export const fileOperations: Operations = {
  'GET /api/files': {
    summary: 'List file shares',
    description: 'The admin sees every share; a key the ones it created.',
    tag: 'File shares',
    access: 'FILE_SHARE',
    query: fileListQuerySchema,
    answer: { data: listPageOf(fileViewSchema) },
  },
  'DELETE /api/files/batch-delete': {
    summary: 'Delete file shares',
    description: '`delete_mode`: `both` removes the stored object too, `record` only the share.',
    tag: 'File shares',
    access: 'FILE_SHARE',
    body: { json: batchDeleteFilesSchema },
    answer: { data: batchDeleteFilesResultSchema },
  },
  'GET /api/files/{id}': {
    summary: 'One file share',
    tag: 'File shares',
    access: 'FILE_SHARE',
    answer: { data: fileViewSchema },
  },
  'PUT /api/files/{id}': {
    summary: 'Change a file share',
    description: '`password`: a string sets it, null or an empty string clears it.',
    tag: 'File shares',
    access: 'FILE_SHARE',
    body: { json: updateFileSchema },
    answer: { data: fileViewSchema },
    errors: ['CONFLICT'],
  },
  'GET /api/system/max-upload-size': {
    summary: 'The largest upload the server takes, in bytes',
    tag: 'File shares',
    access: 'public',
    answer: { data: maxUploadSizeSchema },
  },
  'GET /api/public/files/{slug}': {
    summary: 'A shared file: name, size, links (counts one view)',
    description:
      'A password-protected share answers `{requires_password: true}` until POST …/verify. The links carry a ' +
      'short-lived token, so they work without the password and count no more views.',
    tag: 'File shares',
    access: 'optional',
    answer: { data: z.union([publicFileDetailsSchema, publicFileLockedSchema]) },
    errors: ['NOT_FOUND', 'EXPIRED'],
  },
  'POST /api/public/files/{slug}/verify': {
    summary: "Check a shared file's password",
    tag: 'File shares',
    access: 'optional',
    body: { json: verifyFilePasswordSchema },
    answer: { data: publicFileDetailsSchema },
    errors: ['NOT_FOUND', 'EXPIRED', 'PASSWORD_WRONG', 'RATE_LIMITED'],
  },
  'GET /api/file-download/{slug}': content('attachment'),
  'GET /api/file-view/{slug}': content('inline'),
  'GET /api/public/files/{slug}/archive': {
    summary: 'The listing of a shared .zip, .tar or .tar.gz (names, sizes, dates), without unpacking it',
    description:
      'With the `token` of the metadata answer nothing more is counted (a listing is no download); with the ' +
      '`password` one view is counted. Names that would leave the archive (zip-slip) are flagged `unsafe`.',
    tag: 'File shares',
    access: 'public',
    query: shareArchiveQuerySchema,
    answer: { data: archiveListingSchema },
    errors: ['NOT_FOUND', 'EXPIRED', 'PASSWORD_REQUIRED', 'PASSWORD_WRONG'],
  },
  'GET /api/public/files/{slug}/archive/entry': {
    summary: 'One entry of a shared archive',
    description: 'The same access as the listing. HTML, SVG and unknown types are always attachments.',
    tag: 'File shares',
    access: 'public',
    query: shareArchiveEntryQuerySchema,
    answer: { media: { 'application/octet-stream': 'The entry (its own Content-Type).' }, description: 'The entry.' },
    errors: ['NOT_FOUND', 'EXPIRED', 'PASSWORD_REQUIRED', 'PASSWORD_WRONG'],
  },
  'GET /api/office-preview/{slug}': {
    summary: 'An office document in the online viewer of the preview settings',
    tag: 'File shares',
    access: 'public',
    query: shareAccess,
    answer: { data: officePreviewResultSchema },
    errors: ['NOT_FOUND', 'EXPIRED', 'PASSWORD_REQUIRED', 'PASSWORD_WRONG'],
  },
};
