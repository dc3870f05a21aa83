import {
  createMountSchema,
  createStorageConfigSchema,
  storageConfigListQuerySchema,
  updateMountSchema,
  updateStorageConfigSchema,
} from '@clipnest/contract';
import {
  listPageOf,
  mountListSchema,
  mountViewSchema,
  storageConfigTestResultSchema,
  storageConfigViewSchema,
} from '@clipnest/contract/responses';
import type { Operations } from '../operation.js';

/** server/src/routes/storageConfigRoutes.ts and mountRoutes.ts */
export const storageOperations: Operations = {
  'GET /api/s3-configs': {
    summary: 'List storage configs',
    description:
      'Key holders with FILE_SHARE get names and capacity to pick an upload target; connection details are ' +
      'for the admin.',
    tag: 'Storage configs',
    access: 'FILE_SHARE',
    query: storageConfigListQuerySchema,
    answer: { data: listPageOf(storageConfigViewSchema) },
  },
  'POST /api/s3-configs': {
    summary: 'Create a storage config (S3 or local)',
    description: '`storage_type` picks the fields: `s3` (the default) or `local` with `root_path`.',
    tag: 'Storage configs',
    access: 'admin',
    body: { json: createStorageConfigSchema },
    answer: { data: storageConfigViewSchema, status: 201 },
    errors: ['CONFLICT'],
  },
  'GET /api/s3-configs/{id}': {
    summary: 'One storage config',
    tag: 'Storage configs',
    access: 'admin',
    answer: { data: storageConfigViewSchema },
  },
  'PUT /api/s3-configs/{id}/set-default': {
    summary: 'Make a storage config the default',
    tag: 'Storage configs',
    access: 'admin',
    answer: { data: storageConfigViewSchema },
  },
  'POST /api/s3-configs/{id}/test': {
    summary: 'Test a storage config (write, read, delete; CORS for S3)',
    description: 'Answers 200 whether or not the test passed: see `success` and the steps.',
    tag: 'Storage configs',
    access: 'admin',
    answer: { data: storageConfigTestResultSchema },
  },
  'PUT /api/s3-configs/{id}': {
    summary: 'Change a storage config',
    description: 'Omit `secret_access_key` (or send an empty one) to keep the stored secret. The type cannot change.',
    tag: 'Storage configs',
    access: 'admin',
    body: { json: updateStorageConfigSchema },
    answer: { data: storageConfigViewSchema },
    errors: ['CONFLICT'],
  },
  'DELETE /api/s3-configs/{id}': {
    summary: 'Delete a storage config',
    description: 'A config still used by file shares or mounts answers 409 with the counts in `data`.',
    tag: 'Storage configs',
    access: 'admin',
    answer: { data: null },
    errors: ['CONFLICT'],
  },
  'GET /api/mount/list': {
    summary: 'List mounts',
    description: 'The admin sees every mount; a key the active mounts its base path reaches.',
    tag: 'Mounts',
    access: 'signed-in',
    answer: { data: mountListSchema },
  },
  'POST /api/mount/create': {
    summary: 'Create a mount',
    tag: 'Mounts',
    access: 'admin',
    body: { json: createMountSchema },
    answer: { data: mountViewSchema, status: 201 },
    errors: ['CONFLICT', 'NOT_FOUND'],
  },
  'PUT /api/mount/{id}': {
    summary: 'Change a mount',
    tag: 'Mounts',
    access: 'admin',
    body: { json: updateMountSchema },
    answer: { data: mountViewSchema },
    errors: ['CONFLICT'],
  },
  'DELETE /api/mount/{id}': {
    summary: 'Delete a mount (the storage is not touched)',
    tag: 'Mounts',
    access: 'admin',
    answer: { data: null },
  },
};
