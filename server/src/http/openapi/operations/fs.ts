import {
  fsArchiveEntryQuerySchema,
  fsBatchRemoveSchema,
  fsCreateShareSchema,
  fsDownloadQuerySchema,
  fsFileLinkQuerySchema,
  fsListQuerySchema,
  fsMkdirSchema,
  fsMultipartAbortSchema,
  fsMultipartCompleteSchema,
  fsMultipartInitSchema,
  fsMultipartListPartsSchema,
  fsMultipartListUploadsSchema,
  fsMultipartPartQuerySchema,
  fsMultipartRefreshSchema,
  fsOfficePreviewQuerySchema,
  fsPathQuerySchema,
  fsPresignCommitSchema,
  fsPresignSchema,
  fsRenameSchema,
  fsThumbnailQuerySchema,
  fsUpdateSchema,
} from '@clipnest/contract';
import {
  archiveListingSchema,
  fileViewSchema,
  fsEntryViewSchema,
  fsFileLinkSchema,
  fsListingSchema,
  fsMultipartInitSchemaView,
  fsPresignResultSchema,
  fsRemoveResultSchema,
  officePreviewResultSchema,
  uploadedPartSchema,
} from '@clipnest/contract/responses';
import { z } from 'zod';
import type { Answer, OperationDoc, Operations } from '../operation.js';

const TREE =
  'The admin, or a key with the mount permission of the operation, inside its base path (the tree checks both).';

/** An operation of the tree under `tag`: the admin or any key (the tree checks its mount permissions). */
const treeOp =
  (tag: string) =>
  ({ summary, description, ...rest }: Omit<OperationDoc, 'tag' | 'access'>): OperationDoc => ({
    summary,
    ...(description !== undefined ? { description } : {}),
    tag,
    access: 'signed-in',
    ...rest,
  });
const fsOp = treeOp('Filesystem');
const uploadOp = treeOp('Filesystem uploads');

/** A JSON-bodied change of the tree that needs one mount permission. */
const treeWrite = (
  summary: string,
  needs: string,
  json: z.ZodType,
  answer: Answer,
  errors: OperationDoc['errors'],
): OperationDoc => fsOp({ summary, description: `${TREE} Needs ${needs}.`, body: { json }, answer, errors });

/** A JSON-bodied step of an upload into the tree (presign, multipart). */
const uploadStep = (
  summary: string,
  json: z.ZodType,
  answer: Answer,
  errors: OperationDoc['errors'] = ['NOT_FOUND'],
): OperationDoc => uploadOp({ summary, body: { json }, answer, errors });

const download = (method: string): OperationDoc =>
  fsOp({
    summary: method === 'HEAD' ? "A file's headers without its bytes" : 'Download a file of the tree',
    description:
      `${TREE} A signed link from /api/fs/file-link (\`expires\`, \`sign\`, \`by\`) works without credentials. ` +
      'Range requests answer 206.',
    query: fsDownloadQuerySchema,
    headers: { Range: 'bytes=start-end: a part of the file (206).', 'If-None-Match': 'The ETag: 304 while unchanged.' },
    answer: {
      media: { 'application/octet-stream': 'The file (its own Content-Type).' },
      description: 'The file.',
      notModified: true,
      ranges: true,
    },
    errors: ['NOT_FOUND', 'GONE'],
  });

/** server/src/routes/fsRoutes.ts, fsUploadRoutes.ts, fsThumbnailRoutes.ts and fsArchiveRoutes.ts */
export const fsOperations: Operations = {
  'GET /api/fs/list': fsOp({
    summary: 'List a folder of the mount tree',
    description: `${TREE} \`/\` and parents of mount paths list the mounts. Pages of \`limit\` entries: pass \`cursor\` back.`,
    query: fsListQuerySchema,
    answer: { data: fsListingSchema },
    errors: ['NOT_FOUND'],
  }),
  'GET /api/fs/get': fsOp({
    summary: 'One file or folder',
    description: TREE,
    query: fsPathQuerySchema,
    answer: { data: fsEntryViewSchema },
    errors: ['NOT_FOUND'],
  }),
  'GET /api/fs/download': download('GET'),
  'HEAD /api/fs/download': download('HEAD'),
  'GET /api/fs/file-link': fsOp({
    summary: 'A link to a file that works without credentials',
    description: `${TREE} Presigned straight to S3 when it can, else a signed link to /api/fs/download.`,
    query: fsFileLinkQuerySchema,
    answer: { data: fsFileLinkSchema },
    errors: ['NOT_FOUND'],
  }),
  'GET /api/fs/office-preview': fsOp({
    summary: 'An office document of the tree in the online viewer',
    query: fsOfficePreviewQuerySchema,
    answer: { data: officePreviewResultSchema },
    errors: ['NOT_FOUND'],
  }),
  'POST /api/fs/mkdir': treeWrite(
    'Create a folder',
    'MOUNT_UPLOAD',
    fsMkdirSchema,
    { data: fsEntryViewSchema, status: 201 },
    ['CONFLICT', 'NOT_FOUND'],
  ),
  'POST /api/fs/rename': treeWrite(
    'Rename or move a file or folder',
    'MOUNT_RENAME',
    fsRenameSchema,
    { data: fsEntryViewSchema },
    ['CONFLICT', 'NOT_FOUND'],
  ),
  'DELETE /api/fs/batch-remove': treeWrite(
    'Delete files and folders',
    'MOUNT_DELETE',
    fsBatchRemoveSchema,
    { data: fsRemoveResultSchema },
    ['NOT_FOUND'],
  ),
  'POST /api/fs/batch-remove': treeWrite(
    'Delete files and folders (POST form)',
    'MOUNT_DELETE',
    fsBatchRemoveSchema,
    { data: fsRemoveResultSchema },
    ['NOT_FOUND'],
  ),
  'POST /api/fs/update': treeWrite(
    'Write a text file (up to 10 MB)',
    'MOUNT_UPLOAD',
    fsUpdateSchema,
    { data: fsEntryViewSchema },
    ['NOT_FOUND', 'QUOTA_EXCEEDED'],
  ),
  'POST /api/fs/create-share': fsOp({
    summary: 'Share a file of the tree in place (no copy)',
    description: 'Needs MOUNT_VIEW on the path and FILE_SHARE.',
    body: { json: fsCreateShareSchema },
    answer: { data: fileViewSchema, status: 201 },
    errors: ['NOT_FOUND'],
  }),
  'POST /api/fs/upload': fsOp({
    summary: 'Upload a file into the tree (multipart/form-data)',
    description: `${TREE} Needs MOUNT_UPLOAD. \`path\` is the folder (or the file's path); \`overwrite=false\` refuses an existing name.`,
    body: {
      multipart: z.object({
        path: z.string().min(1),
        overwrite: z.enum(['true', 'false']).optional(),
        use_multipart: z
          .string()
          .optional()
          .meta({ description: 'Accepted and ignored: the server streams either way.' }),
      }),
      file: 'file',
    },
    answer: { data: fsEntryViewSchema, status: 201 },
    errors: ['CONFLICT', 'NOT_FOUND', 'QUOTA_EXCEEDED'],
  }),
  'POST /api/fs/presign': uploadStep(
    'Presign a direct upload into the tree (S3 mounts)',
    fsPresignSchema,
    { data: fsPresignResultSchema },
    ['NOT_FOUND', 'QUOTA_EXCEEDED'],
  ),
  'POST /api/fs/presign/commit': uploadStep('Commit a presigned upload into the tree', fsPresignCommitSchema, {
    data: fsEntryViewSchema,
    status: 201,
  }),
  'POST /api/fs/multipart/init': uploadStep(
    'Start a multipart upload into the tree',
    fsMultipartInitSchema,
    { data: fsMultipartInitSchemaView },
    ['NOT_FOUND', 'QUOTA_EXCEEDED'],
  ),
  'PUT /api/fs/multipart/part': uploadOp({
    summary: 'Send one part through the server (local mounts)',
    query: fsMultipartPartQuerySchema,
    body: { raw: 'application/octet-stream', description: 'The bytes of the part.' },
    answer: { data: uploadedPartSchema, description: 'The part, also as the `ETag` header.' },
    errors: ['NOT_FOUND'],
  }),
  'POST /api/fs/multipart/refresh-urls': uploadStep('New presigned URLs for parts', fsMultipartRefreshSchema, {
    data: z.object({ presignedUrls: z.array(z.object({ partNumber: z.int(), url: z.string() })) }),
  }),
  'POST /api/fs/multipart/list-parts': uploadStep('Parts received so far', fsMultipartListPartsSchema, {
    data: z.object({ parts: z.array(uploadedPartSchema) }),
  }),
  'POST /api/fs/multipart/list-uploads': uploadOp({
    summary: 'Unfinished multipart uploads under a path',
    body: { json: fsMultipartListUploadsSchema },
    answer: {
      data: z.object({
        uploads: z.array(z.object({ uploadId: z.string(), path: z.string(), initiated: z.iso.datetime().optional() })),
      }),
    },
    errors: ['NOT_FOUND', 'NOT_IMPLEMENTED'],
  }),
  'POST /api/fs/multipart/complete': uploadStep(
    'Complete a multipart upload into the tree',
    fsMultipartCompleteSchema,
    { data: fsEntryViewSchema, status: 201 },
  ),
  'POST /api/fs/multipart/abort': uploadStep('Abort a multipart upload into the tree', fsMultipartAbortSchema, {
    data: null,
  }),
  'GET /api/fs/thumbnail': fsOp({
    summary: 'A small WebP (or JPEG) of an image',
    description:
      `${TREE} 415 for what is not an image, 413 for originals over 50 MB or 40 megapixels. With \`v\` (the ` +
      "object's ETag) the answer may be cached for a week.",
    query: fsThumbnailQuerySchema,
    headers: { 'If-None-Match': 'The ETag: 304 while unchanged.' },
    answer: {
      media: { 'image/webp': 'The thumbnail.', 'image/jpeg': 'The thumbnail (format=jpeg).' },
      description: 'The thumbnail.',
      notModified: true,
    },
    errors: ['NOT_FOUND', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE'],
  }),
  'GET /api/fs/archive': fsOp({
    summary: 'List a .zip, .tar or .tar.gz without unpacking it',
    query: fsPathQuerySchema,
    answer: { data: archiveListingSchema },
    errors: ['NOT_FOUND', 'UNSUPPORTED_MEDIA_TYPE'],
  }),
  'GET /api/fs/archive/entry': fsOp({
    summary: 'One entry of an archive',
    query: fsArchiveEntryQuerySchema,
    answer: { media: { 'application/octet-stream': 'The entry (its own Content-Type).' }, description: 'The entry.' },
    errors: ['NOT_FOUND', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE'],
  }),
};
