import {
  batchDeletePastesSchema,
  clearExpiredPastesSchema,
  createPasteSchema,
  listPastesQuerySchema,
  unlockPasteSchema,
  updatePasteSchema,
} from '@clipnest/contract';
import {
  listPageOf,
  pasteCreatedSchema,
  pasteDetailSchema,
  pasteListItemSchema,
  pasteLockedSchema,
  pastesDeletedSchema,
  pasteViewSchema,
} from '@clipnest/contract/responses';
import { z } from 'zod';
import type { Operations } from '../operation.js';

/** server/src/routes/pasteRoutes.ts */
export const pasteOperations: Operations = {
  'POST /api/paste': {
    summary: 'Create a paste',
    description:
      'Content up to 10 MB. Expiry: `expires_in` (hours, 0 = never) or `expires_at` (ISO date or null), not both. ' +
      'An end-to-end encrypted paste sends base64url ciphertext and `encryption` (docs/encryption.md).',
    tag: 'Pastes',
    access: 'TEXT',
    body: { json: createPasteSchema },
    answer: { data: pasteCreatedSchema, status: 201 },
    errors: ['CONFLICT'],
  },
  'GET /api/paste/{slug}': {
    summary: 'View a paste (counts one view)',
    description:
      'A password-protected paste answers 200 with `{slug, requires_password: true}`: send the password with ' +
      'POST. The owner (the admin or the creating key) gets the content without it.',
    tag: 'Pastes',
    access: 'optional',
    answer: { data: z.union([pasteViewSchema, pasteLockedSchema]) },
    errors: ['NOT_FOUND', 'EXPIRED'],
  },
  'POST /api/paste/{slug}': {
    summary: 'Unlock a password-protected paste (counts one view)',
    tag: 'Pastes',
    access: 'optional',
    body: { json: unlockPasteSchema },
    answer: { data: pasteViewSchema },
    errors: ['NOT_FOUND', 'EXPIRED', 'PASSWORD_WRONG', 'RATE_LIMITED'],
  },
  'GET /api/raw/{slug}': {
    summary: 'The paste as plain text (counts one view)',
    tag: 'Pastes',
    access: 'optional',
    query: z.object({ password: z.string().optional().meta({ description: 'The paste password, when it has one.' }) }),
    answer: { media: { 'text/plain': 'The content.' }, description: 'The paste content.' },
    errors: ['NOT_FOUND', 'EXPIRED', 'PASSWORD_REQUIRED', 'PASSWORD_WRONG', 'RATE_LIMITED'],
  },
  'GET /api/pastes': {
    summary: 'List pastes',
    description: 'The admin sees every paste; a key sees the ones it created.',
    tag: 'Pastes',
    access: 'TEXT',
    query: listPastesQuerySchema,
    answer: { data: listPageOf(pasteListItemSchema) },
  },
  'DELETE /api/pastes/batch-delete': {
    summary: 'Delete pastes',
    tag: 'Pastes',
    access: 'TEXT',
    body: { json: batchDeletePastesSchema },
    answer: { data: pastesDeletedSchema },
  },
  'POST /api/pastes/batch-delete': {
    summary: 'Delete pastes (POST form, for clients that cannot send a DELETE body)',
    tag: 'Pastes',
    access: 'TEXT',
    body: { json: batchDeletePastesSchema },
    answer: { data: pastesDeletedSchema },
  },
  'POST /api/pastes/clear-expired': {
    summary: 'Delete expired and used-up pastes',
    tag: 'Pastes',
    access: 'TEXT',
    body: { json: clearExpiredPastesSchema },
    answer: { data: pastesDeletedSchema },
  },
  'GET /api/pastes/{id}': {
    summary: 'One paste with its content (no view counted)',
    tag: 'Pastes',
    access: 'TEXT',
    answer: { data: pasteDetailSchema },
  },
  'PUT /api/pastes/{id}': {
    summary: 'Change a paste',
    tag: 'Pastes',
    access: 'TEXT',
    body: { json: updatePasteSchema },
    answer: { data: pasteDetailSchema },
    errors: ['CONFLICT'],
  },
  'DELETE /api/pastes/{id}': {
    summary: 'Delete a paste',
    tag: 'Pastes',
    access: 'TEXT',
    answer: { data: null },
  },
};
