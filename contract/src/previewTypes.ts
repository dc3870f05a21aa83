/**
 * Default extension lists of the preview kinds the web decides by name (no zod: the web reads these on its
 * light routes). The preview settings (contract/src/settings.ts) start from them; an admin may change them.
 */
export const PREVIEW_TYPE_DEFAULTS = {
  preview_ebook_types: 'epub',
  preview_subtitle_types: 'srt,vtt',
  preview_hls_types: 'm3u8',
} as const;

export type PreviewTypeKey = keyof typeof PREVIEW_TYPE_DEFAULTS;
/** What `GET /api/public/preview-settings` answers: each list as the admin saved it. */
export type PreviewTypeSettings = Record<PreviewTypeKey, string>;

/** "epub, .EPUB" → ['epub']. */
export function parseExtensionList(list: string): string[] {
  return list
    .split(',')
    .map((s) => s.trim().replace(/^\./, '').toLowerCase())
    .filter(Boolean);
}
