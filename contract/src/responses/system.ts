import type { LoginResult, AdminTokenTestResult } from '../auth.js';
import type { ApiKeyInfo, ApiKeyTestResult, ApiKeyView } from '../apiKeys.js';
import type { HealthInfo, ReadinessInfo, VersionInfo } from '../system.js';
import { z } from '../zod.js';
import { count, isoTime, shapeOf } from './define.js';

export const versionInfoSchema = shapeOf<VersionInfo>()(
  z
    .object({ name: z.string(), version: z.string(), node: z.string(), database: z.enum(['sqlite', 'postgres']) })
    .meta({ id: 'VersionInfo' }),
);

export const healthInfoSchema = shapeOf<HealthInfo>()(
  z
    .object({ status: z.literal('ok'), database: z.literal('ok'), uptime_seconds: z.number().min(0), time: isoTime })
    .meta({ id: 'HealthInfo' }),
);

export const readinessInfoSchema = shapeOf<ReadinessInfo>()(
  z
    .object({
      status: z.enum(['ok', 'degraded', 'unavailable']),
      database: z.enum(['ok', 'unavailable']),
      stopping: z.boolean(),
      instance: z.string(),
      storages: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          status: z.enum(['ok', 'degraded']),
          error: z.string().optional(),
        }),
      ),
      time: isoTime,
    })
    .meta({ id: 'ReadinessInfo' }),
);

export const loginResultSchema = shapeOf<LoginResult>()(
  z.object({ token: z.string(), username: z.string(), expires_at: isoTime }),
);

export const adminTokenTestSchema = shapeOf<AdminTokenTestResult>()(
  z.object({ valid: z.literal(true), username: z.string(), expires_at: isoTime }),
);

export const apiKeyViewSchema = shapeOf<ApiKeyView>()(
  z
    .object({
      id: z.string(),
      name: z.string(),
      key: z.string().meta({ description: 'The key itself: shown so the admin can copy it.' }),
      key_masked: z.string(),
      permissions: count.meta({ description: 'Bitmask of Permission (contract/src/permissions.ts).' }),
      role: z.string(),
      basic_path: z.string(),
      is_guest: z.union([z.literal(0), z.literal(1)]),
      enabled: z.boolean(),
      expires_at: isoTime.nullable(),
      created_at: isoTime,
      updated_at: isoTime,
      last_used: isoTime.nullable(),
    })
    .meta({ id: 'ApiKeyView' }),
);

const apiKeyInfoSchema = shapeOf<ApiKeyInfo>()(
  z.object({
    id: z.string(),
    name: z.string(),
    basic_path: z.string(),
    is_guest: z.union([z.literal(0), z.literal(1)]),
    role: z.string(),
    expires_at: isoTime.nullable(),
  }),
);

export const apiKeyTestSchema = shapeOf<ApiKeyTestResult>()(
  z.object({ name: z.string(), basic_path: z.string(), permissions: count, key_info: apiKeyInfoSchema }),
);

export const cacheStatsSchema = z.object({
  caches: z.array(z.object({ name: z.string(), entries: count, path_scoped: z.boolean() })),
  total_entries: count,
});

export const cacheClearedSchema = z.object({ cleared: count });
