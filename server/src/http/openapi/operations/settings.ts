import { settingGroupViewSchema, settingViewSchema, siteSettingsSchema } from '@clipnest/contract/responses';
import { z } from 'zod';
import type { Operations } from '../operation.js';

const group = z.enum(['1', '2', '3', '4']).meta({ description: '1 global, 2 preview, 3 WebDAV, 4 site.' });

/** server/src/routes/settingsRoutes.ts */
export const settingsOperations: Operations = {
  'GET /api/admin/settings': {
    summary: 'List settings',
    description: 'Admin only, except `group=4` (the site group), which anyone may read.',
    tag: 'Settings',
    access: 'admin',
    query: z.object({ group: group.optional(), metadata: z.string().optional(), includeSystem: z.string().optional() }),
    answer: { data: z.array(settingViewSchema) },
  },
  'GET /api/admin/settings/groups': {
    summary: 'The settings groups and their keys',
    tag: 'Settings',
    access: 'admin',
    answer: { data: z.array(settingGroupViewSchema) },
  },
  'GET /api/admin/settings/metadata': {
    summary: 'One setting with its type, default and options',
    tag: 'Settings',
    access: 'admin',
    query: z.object({ key: z.string().min(1) }),
    answer: { data: settingViewSchema },
    errors: ['NOT_FOUND'],
  },
  'PUT /api/admin/settings/group/{group}': {
    summary: 'Save settings of one group',
    description: 'The body is an object of `key: value` of that group. `validate=false` skips the value checks.',
    tag: 'Settings',
    access: 'admin',
    params: { group },
    query: z.object({ validate: z.enum(['true', 'false']).optional() }),
    body: { json: z.record(z.string(), z.unknown()) },
    answer: { data: z.array(settingViewSchema) },
  },
  'GET /api/public/site-settings': {
    summary: 'Site title, favicon, footer and announcement (public)',
    description: 'Sent with an `ETag`: a matching `If-None-Match` answers 304 without a body.',
    tag: 'Settings',
    access: 'public',
    headers: { 'If-None-Match': 'The ETag of a previous answer: 304 while nothing changed.' },
    answer: { data: siteSettingsSchema, notModified: true },
  },
  'GET /api/public/preview-settings': {
    summary: 'Extension lists of the e-book, subtitle and HLS previews (public)',
    description: 'Comma-separated extensions, as saved in the preview settings.',
    tag: 'Settings',
    access: 'public',
    answer: {
      data: z.object({
        preview_ebook_types: z.string(),
        preview_subtitle_types: z.string(),
        preview_hls_types: z.string(),
      }),
    },
  },
};
