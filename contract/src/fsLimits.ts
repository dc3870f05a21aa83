/** Limits of the fs API and the thumbnail rules, without zod (the explorer's chunk imports them). */

/** Largest text `POST /api/fs/update` accepts (spec §9: editor content max 10 MB). */
export const FS_UPDATE_MAX_BYTES = 10 * 1024 * 1024;

/** Edge lengths a thumbnail is made at: a requested size is rounded up to the next one (so the cache stays small). */
export const FS_THUMBNAIL_SIZES = [64, 128, 256, 512] as const;
export type FsThumbnailSize = (typeof FS_THUMBNAIL_SIZES)[number];
/** Originals larger than this get no thumbnail (the client shows the type's icon). */
export const FS_THUMBNAIL_MAX_INPUT_BYTES = 50 * 1024 * 1024;

/** Image types thumbnails are made of (no SVG, HEIC or video: the client shows the type's icon for those). */
export const FS_THUMBNAIL_TYPES: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/tiff',
];

/** Whether the server makes a thumbnail of a file of this type and size. */
export function hasThumbnail(mimetype: string | undefined, size: number): boolean {
  return mimetype !== undefined && FS_THUMBNAIL_TYPES.includes(mimetype) && size <= FS_THUMBNAIL_MAX_INPUT_BYTES;
}

/** The thumbnail size a requested size gets. */
export function thumbnailSizeFor(size: number | undefined): FsThumbnailSize {
  const wanted = size ?? 256;
  return FS_THUMBNAIL_SIZES.find((s) => s >= wanted) ?? 512;
}
