import { createApiKeySchema, updateApiKeySchema } from '@clipnest/contract';
import { apiKeyViewSchema } from '@clipnest/contract/responses';
import { z } from 'zod';
import type { Operations } from '../operation.js';

/** server/src/routes/apiKeyRoutes.ts */
export const apiKeyOperations: Operations = {
  'GET /api/admin/api-keys': {
    summary: 'List API keys',
    tag: 'API keys',
    access: 'admin',
    answer: { data: z.array(apiKeyViewSchema) },
  },
  'POST /api/admin/api-keys': {
    summary: 'Create an API key',
    description:
      'Permission bits: TEXT 1, FILE_SHARE 2, MOUNT_VIEW 256, MOUNT_UPLOAD 512, MOUNT_COPY 1024, MOUNT_RENAME 2048, ' +
      'MOUNT_DELETE 4096, WEBDAV_READ 65536, WEBDAV_MANAGE 131072. `expires_at`: ISO date, null or "never"; or ' +
      '`expires_in_days`.',
    tag: 'API keys',
    access: 'admin',
    body: { json: createApiKeySchema },
    answer: { data: apiKeyViewSchema, status: 201 },
    errors: ['CONFLICT'],
  },
  'PUT /api/admin/api-keys/{id}': {
    summary: 'Change an API key',
    tag: 'API keys',
    access: 'admin',
    body: { json: updateApiKeySchema },
    answer: { data: apiKeyViewSchema },
  },
  'DELETE /api/admin/api-keys/{id}': {
    summary: 'Delete an API key',
    tag: 'API keys',
    access: 'admin',
    answer: { data: null },
  },
};
