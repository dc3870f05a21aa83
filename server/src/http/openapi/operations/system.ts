import {
  adminTokenTestSchema,
  apiKeyTestSchema,
  cacheClearedSchema,
  cacheStatsSchema,
  healthInfoSchema,
  loginResultSchema,
  readinessInfoSchema,
  versionInfoSchema,
} from '@clipnest/contract/responses';
import { changePasswordSchema, loginSchema } from '@clipnest/contract';
import { z } from 'zod';
import type { Operations } from '../operation.js';

/** server/src/routes/systemRoutes.ts, authRoutes.ts, cacheRoutes.ts and the document itself. */
export const systemOperations: Operations = {
  'GET /api/version': {
    summary: 'Version of the server',
    tag: 'System',
    access: 'public',
    answer: { data: versionInfoSchema },
  },
  'GET /api/health': {
    summary: 'Liveness: the process answers and its database works',
    tag: 'System',
    access: 'public',
    answer: { data: healthInfoSchema },
  },
  'GET /api/health/ready': {
    summary: 'Readiness for load balancers',
    description:
      '200 with status `ok` or `degraded` (a storage config failed its check; the rest works). 503 `unavailable` ' +
      'when the database is unreachable or the instance is stopping; the error envelope then carries the same ' +
      'report in `data`.',
    tag: 'System',
    access: 'public',
    answer: { data: readinessInfoSchema },
    errors: ['UNAVAILABLE'],
  },
  'GET /api/openapi.json': {
    summary: 'This document (OpenAPI 3.1)',
    description: 'Generated from the contract schemas and the route table. The reference page is at `/api-docs`.',
    tag: 'System',
    access: 'public',
    answer: {
      json: z.record(z.string(), z.unknown()),
      description: 'The OpenAPI document.',
    },
  },
  'POST /api/admin/login': {
    summary: 'Log in as the admin',
    description:
      'Answers a session token for `Authorization: Bearer <token>`. After 10 failed logins from one client ' +
      'within 15 minutes: 429 with `Retry-After`.',
    tag: 'Auth',
    access: 'public',
    body: { json: loginSchema },
    answer: { data: loginResultSchema },
    errors: ['UNAUTHORIZED', 'RATE_LIMITED', 'UNAVAILABLE'],
  },
  'POST /api/admin/logout': {
    summary: 'Log out (revokes this token)',
    tag: 'Auth',
    access: 'admin',
    answer: { data: null },
  },
  'GET /api/test/admin-token': {
    summary: 'Check the admin token',
    tag: 'Auth',
    access: 'admin',
    answer: { data: adminTokenTestSchema },
  },
  'POST /api/admin/change-password': {
    summary: 'Change the admin username or password',
    description: 'Every token of the admin is revoked: log in again.',
    tag: 'Auth',
    access: 'admin',
    body: { json: changePasswordSchema },
    answer: { data: z.object({ username: z.string() }) },
    errors: ['CONFLICT', 'RATE_LIMITED'],
  },
  'GET /api/test/api-key': {
    summary: 'Check an API key and see what it may do',
    tag: 'Auth',
    access: 'apikey',
    answer: { data: apiKeyTestSchema },
  },
  'GET /api/admin/cache/stats': {
    summary: 'In-memory caches and their sizes',
    tag: 'Cache',
    access: 'admin',
    answer: { data: cacheStatsSchema },
  },
  'POST /api/admin/cache/clear': {
    summary: 'Clear every cache',
    tag: 'Cache',
    access: 'admin',
    answer: { data: cacheClearedSchema },
  },
  'POST /api/user/cache/clear': {
    summary: "Clear the caller's caches",
    description: 'The admin clears everything; a key clears the path-keyed entries under its base path.',
    tag: 'Cache',
    access: 'signed-in',
    answer: { data: cacheClearedSchema },
  },
};
