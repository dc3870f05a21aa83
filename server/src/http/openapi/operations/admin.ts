import { webdavCheckSchema } from '@clipnest/contract';
import {
  listPageOf,
  sharexUploaderSchema,
  webdavCheckResultSchema,
  webdavInfoSchema,
} from '@clipnest/contract/responses';
import { blockedAddressViewSchema, SHAREX_KINDS, webdavLockViewSchema } from '@clipnest/contract';
import { z } from 'zod';
import type { Operations } from '../operation.js';

/** server/src/routes/integrationRoutes.ts and webdavSettingsRoutes.ts */
export const adminOperations: Operations = {
  'GET /api/integrations/sharex': {
    summary: 'A ShareX custom uploader (.sxcu) for the calling key',
    description:
      '`file` (the default) sends images, files and text files to /api/upload and needs FILE_SHARE; `text` sends ' +
      'text as a paste to /api/paste and needs TEXT. The file holds the key.',
    tag: 'Integrations',
    access: 'apikey',
    query: z.object({ kind: z.enum(SHAREX_KINDS).optional() }),
    answer: {
      json: sharexUploaderSchema,
      description: 'The uploader, as an attachment (clipnest-<kind>.sxcu).',
      headers: { 'Content-Disposition': 'attachment; filename="clipnest-file.sxcu"' },
    },
  },
  'GET /api/admin/webdav': {
    summary: 'Where WebDAV clients connect',
    tag: 'WebDAV',
    access: 'admin',
    answer: { data: webdavInfoSchema },
  },
  'POST /api/admin/webdav/check': {
    summary: 'What an identity (the admin, or an API key) sees at /dav/',
    tag: 'WebDAV',
    access: 'admin',
    body: { json: webdavCheckSchema },
    answer: { data: webdavCheckResultSchema },
  },
  'GET /api/admin/webdav/locks': {
    summary: 'Locks held over WebDAV',
    tag: 'WebDAV',
    access: 'admin',
    answer: { data: listPageOf(webdavLockViewSchema) },
  },
  'DELETE /api/admin/webdav/locks/{id}': {
    summary: 'Break a WebDAV lock',
    tag: 'WebDAV',
    access: 'admin',
    answer: { data: null },
  },
  'GET /api/admin/webdav/blocked': {
    summary: 'Addresses refused for too many wrong secrets',
    tag: 'WebDAV',
    access: 'admin',
    answer: { data: listPageOf(blockedAddressViewSchema) },
  },
  'DELETE /api/admin/webdav/blocked/{id}': {
    summary: 'Let a blocked address try again',
    tag: 'WebDAV',
    access: 'admin',
    answer: { data: null },
  },
};
