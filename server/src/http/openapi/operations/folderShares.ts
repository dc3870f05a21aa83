import { createShareSchema, shareManageListQuerySchema, sharePublicQuerySchema } from '@clipnest/contract';
import {
  listPageOf,
  publicShareInfoSchema,
  publicShareListingSchema,
  shareViewSchema,
} from '@clipnest/contract/responses';
import type { Operations } from '../operation.js';

const tag = 'Folder shares';
const password = {
  'X-Share-Password': 'The share password (or `?password=`); wrong guesses count in the one limiter.',
};
const publicErrors = ['PASSWORD_REQUIRED', 'PASSWORD_WRONG', 'EXPIRED', 'GONE', 'RATE_LIMITED'] as const;

/** server/src/routes/folderShareRoutes.ts */
export const folderShareOperations: Operations = {
  'POST /api/shares': {
    summary: 'Share a folder of the tree',
    description:
      'The admin, or a key with FILE_SHARE and MOUNT_VIEW, only inside its base path. `expires_in` in hours.',
    tag,
    access: 'FILE_SHARE',
    body: { json: createShareSchema },
    answer: { data: shareViewSchema, status: 201 },
    errors: ['CONFLICT', 'FORBIDDEN'],
  },
  'GET /api/shares': {
    summary: 'List shares',
    description: 'The admin sees every share; a key the ones it created.',
    tag,
    access: 'signed-in',
    query: shareManageListQuerySchema,
    answer: { data: listPageOf(shareViewSchema) },
  },
  'DELETE /api/shares/{id}': {
    summary: 'Delete a share',
    tag,
    access: 'signed-in',
    answer: { data: null },
  },
  'GET /api/shares/{slug}': {
    summary: "A share's name, type, limits and whether it needs a password",
    description: 'Nothing of the content while a password is needed.',
    tag,
    access: 'public',
    query: sharePublicQuerySchema,
    headers: password,
    answer: { data: publicShareInfoSchema },
    errors: [...publicErrors],
  },
  'GET /api/shares/{slug}/list': {
    summary: 'List a folder of the share',
    description: '`path` is relative to the shared folder (`/` = the folder); paged with `limit` and `offset`.',
    tag,
    access: 'public',
    query: sharePublicQuerySchema,
    headers: password,
    answer: { data: publicShareListingSchema },
    errors: [...publicErrors],
  },
  'GET /api/shares/{slug}/file': {
    summary: 'Read a file of the share (counts one download from byte 0)',
    tag,
    access: 'public',
    query: sharePublicQuerySchema,
    headers: { ...password, Range: 'One byte range.' },
    answer: { media: { '*/*': 'The file.' }, description: 'The file.', ranges: true, notModified: true },
    errors: [...publicErrors, 'RANGE_NOT_SATISFIABLE'],
  },
  'HEAD /api/shares/{slug}/file': {
    summary: "A file's headers, without its bytes or a download counted",
    tag,
    access: 'public',
    query: sharePublicQuerySchema,
    headers: password,
    answer: { media: { '*/*': 'No body.' }, description: 'The headers a GET would answer.' },
    errors: [...publicErrors],
  },
  'GET /api/shares/{slug}/zip': {
    summary: 'A folder of the share as one zip, streamed (counts one download)',
    tag,
    access: 'public',
    query: sharePublicQuerySchema,
    headers: password,
    answer: { media: { 'application/zip': 'The folder.' }, description: 'A zip of the folder.' },
    errors: [...publicErrors],
  },
};
