import { createUploadRequestSchema, shareManageListQuerySchema } from '@clipnest/contract';
import {
  listPageOf,
  publicUploadRequestInfoSchema,
  uploadRequestReceiptSchema,
  uploadRequestViewSchema,
} from '@clipnest/contract/responses';
import { z } from 'zod';
import type { Operations } from '../operation.js';

const password = {
  'X-Share-Password': 'The upload link password, when it has one (wrong guesses count in the one limiter).',
};

/** server/src/routes/uploadRequestRoutes.ts (docs/api/upload-requests.md) */
export const uploadRequestOperations: Operations = {
  'POST /api/upload-requests': {
    summary: 'Create an upload request (a link others upload files into)',
    description:
      '`target_path`: a folder of the tree (a key needs MOUNT_UPLOAD there, inside its base path); absent: the ' +
      'files become file shares of the creator. Limits of 0 or absent: none. `expires_in` in hours.',
    tag: 'Upload requests',
    access: 'FILE_SHARE',
    body: { json: createUploadRequestSchema },
    answer: { data: uploadRequestViewSchema, status: 201 },
    errors: ['FORBIDDEN'],
  },
  'GET /api/upload-requests': {
    summary: "List upload requests with what they received (the admin: everyone's)",
    tag: 'Upload requests',
    access: 'FILE_SHARE',
    query: shareManageListQuerySchema,
    answer: { data: listPageOf(uploadRequestViewSchema) },
  },
  'DELETE /api/upload-requests/{id}': {
    summary: 'Revoke an upload request (later uploads answer 410); what arrived stays',
    tag: 'Upload requests',
    access: 'FILE_SHARE',
    answer: { data: null },
    errors: ['NOT_FOUND', 'FORBIDDEN'],
  },
  'GET /api/upload-requests/{slug}': {
    summary: 'An upload link: its note, limits and what remains (never what others uploaded)',
    tag: 'Upload requests',
    access: 'public',
    headers: password,
    answer: { data: publicUploadRequestInfoSchema },
    errors: ['NOT_FOUND', 'EXPIRED', 'GONE', 'PASSWORD_WRONG', 'RATE_LIMITED'],
  },
  'POST /api/upload-requests/{slug}/upload': {
    summary: 'Upload files through an upload link (multipart `file` parts)',
    description:
      'Every file is checked against the limits before anything is stored: over one, 413 `quota_exceeded` and ' +
      'nothing stays. A name that exists gets a suffix (`a (1).txt`).',
    tag: 'Upload requests',
    access: 'public',
    headers: password,
    body: { multipart: z.object({}), file: 'file' },
    answer: { data: uploadRequestReceiptSchema, status: 201 },
    errors: ['NOT_FOUND', 'EXPIRED', 'GONE', 'PASSWORD_REQUIRED', 'PASSWORD_WRONG', 'RATE_LIMITED', 'QUOTA_EXCEEDED'],
  },
};
