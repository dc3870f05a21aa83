import type { PublicShareInfo, PublicShareListing, ShareEntryView, ShareView } from '../folderShares.js';
import { SHARE_TYPES } from '../folderShares.js';
import { z } from '../zod.js';
import { count, isoTime, shapeOf } from './define.js';

export const shareViewSchema = shapeOf<ShareView>()(
  z
    .object({
      id: z.string(),
      slug: z.string(),
      url: z.string().meta({ description: 'The page `/s/{slug}` (absolute when PUBLIC_URL is set).' }),
      type: z.enum(SHARE_TYPES),
      name: z.string(),
      path: z.string(),
      remark: z.string(),
      has_password: z.boolean(),
      expires_at: isoTime.nullable(),
      max_downloads: count.meta({ description: '0: unlimited.' }),
      downloads: count,
      views: count,
      created_by: z.string(),
      created_at: isoTime,
      updated_at: isoTime,
    })
    .meta({ id: 'ShareView' }),
);

export const publicShareInfoSchema = shapeOf<PublicShareInfo>()(
  z
    .object({
      slug: z.string(),
      name: z.string(),
      type: z.enum(SHARE_TYPES),
      requires_password: z.boolean(),
      has_password: z.boolean(),
      expires_at: isoTime.nullable(),
      max_downloads: count,
      downloads: count,
      remark: z.string().optional(),
      created_at: isoTime.optional(),
      access_token: z
        .string()
        .optional()
        .meta({ description: 'For <img>/<video> and plain links: pass as `?token=` instead of the password.' }),
    })
    .meta({ id: 'PublicShareInfo' }),
);

export const shareEntryViewSchema = shapeOf<ShareEntryView>()(
  z.object({
    name: z.string(),
    path: z.string().meta({ description: 'Relative to the shared folder.' }),
    isDirectory: z.boolean(),
    size: count,
    modified: isoTime.optional(),
    mimetype: z.string().optional(),
  }),
);

export const publicShareListingSchema = shapeOf<PublicShareListing>()(
  z.object({
    path: z.string(),
    items: z.array(shareEntryViewSchema),
    total: count,
    limit: count,
    offset: count,
  }),
);
