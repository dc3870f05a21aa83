import { SITE_DEFAULTS, fileExtension, fileKindOf, type FileKind } from '@clipnest/contract';

/**
 * The texts of link previews that are not the share's own. English only: a chat app's crawler sees
 * one language, and these never carry anything of a protected share.
 */
export const LINK_PREVIEW_TEXTS = {
  siteName: SITE_DEFAULTS.site_title || 'Clipnest',
  pasteTitle: 'Shared paste',
  fileTitle: 'Shared file',
  protectedDescription: 'Open the link to view it.',
  /** "PNG image", "MP4 video"…; the word alone, capitalised, when the name has no usable extension. */
  fileKinds: {
    image: 'image',
    video: 'video',
    audio: 'audio',
    pdf: 'document',
    markdown: 'document',
    text: 'text file',
    office: 'document',
    other: 'file',
  } satisfies Record<FileKind, string>,
} as const;

export const TITLE_MAX = 70;
export const DESCRIPTION_MAX = 160;

// C0/C1 controls (tab and newlines are whitespace, collapsed by `oneLine`), bidi overrides and isolates (a name
// could be shown reversed), lone surrogates.
const UNSAFE_CHARS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text without control, bidi-override characters and lone surrogates. */
export function withoutControls(text: string): string {
  return text.replace(UNSAFE_CHARS, '');
}

/** One line: controls removed, every run of whitespace one space, trimmed. */
export function oneLine(text: string): string {
  return withoutControls(text).replace(/\s+/g, ' ').trim();
}

/** At most `max` characters (code points), cut at a word when one ends near the limit, with "…" when cut. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  let cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  if (space >= cut.length - 15 && space > 0) cut = cut.slice(0, space);
  return `${cut.replace(/[\s.,;:!?-]+$/, '')}…`;
}

/**
 * Markdown as plain text, roughly: heading, quote and list marks, fences, rules and table rulers dropped; links and
 * images as their text; emphasis and code marks and HTML tags removed. Lines are kept (the title is the first).
 */
export function markdownToPlain(markdown: string): string {
  return (
    markdown
      .replace(/\r\n?/g, '\n')
      // Backslash escapes first, as private-use characters the marks below do not see; shown as written at the end.
      .replace(/\\([\\`*_{}[\]()#+\-.!|~<>])/g, (_, ch: string) => String.fromCharCode(0xe000 + ch.charCodeAt(0)))
      .replace(/^ {0,3}(?:```|~~~).*$/gm, '')
      .replace(/^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/gm, '')
      .replace(/^ {0,3}(?:[-*_][ \t]*){3,}$/gm, '')
      .replace(/^ {0,3}\[[^\]\n]+\]:[ \t]+\S.*$/gm, '')
      .replace(/^ {0,3}(?:>[ \t]?)+/gm, '')
      .replace(/^ {0,3}#{1,6}(?:[ \t]+|$)/gm, '')
      .replace(/(?<![ \t])[ \t]+#+[ \t]*$/gm, '')
      .replace(/^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?/gm, '')
      // Link texts without brackets: each "[" scans to the next one at most (linear on any text).
      .replace(/!\[([^[\]\n]*)\]\([^()\n]*\)/g, '$1')
      .replace(/\[([^[\]\n]*)\]\([^()\n]*\)/g, '$1')
      .replace(/\[([^[\]\n]*)\]\[[^[\]\n]*\]/g, '$1')
      .replace(/<\/?[A-Za-z][^<>\n]*>/g, ' ')
      .replace(/`+/g, '')
      .replace(/(\*\*|__|~~)(?=\S)([^\n]*?\S)\1/g, '$2')
      .replace(/(^|[^\w*])[*_](?=\S)([^*_\n]*?\S)[*_](?!\w)/gm, '$1$2')
      .replace(/\|/g, ' ')
      .replace(/[\ue000-\ue07f]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0xe000))
  );
}

/** Title and description of a readable paste: its remark, else its first line; the start of its text. */
export function pasteTexts(
  paste: { remark: string; type: string },
  excerpt: string,
): { title: string; description: string } {
  const plain = paste.type === 'text' ? excerpt : markdownToPlain(excerpt);
  const firstLine =
    plain
      .split('\n')
      .map(oneLine)
      .find((line) => line !== '') ?? '';
  const title = oneLine(paste.remark) || firstLine || LINK_PREVIEW_TEXTS.pasteTitle;
  const description = oneLine(plain) || LINK_PREVIEW_TEXTS.protectedDescription;
  return { title: clip(title, TITLE_MAX), description: clip(description, DESCRIPTION_MAX) };
}

/** "12.4 KB": one decimal below 100 of a unit, binary units as the app shows sizes. */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.floor(bytes || 0))} B`;
  const units = ['KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${units[unit]}`;
}

/** Title and description of a readable file share: its name; its type and size ("PNG image · 12.4 KB"). */
export function fileTexts(file: { filename: string; mimetype: string; size: number }): {
  title: string;
  description: string;
} {
  const word = LINK_PREVIEW_TEXTS.fileKinds[fileKindOf(file.filename, file.mimetype)];
  const ext = fileExtension(file.filename);
  const type = /^[a-z0-9]{1,8}$/.test(ext) ? `${ext.toUpperCase()} ${word}` : word[0]!.toUpperCase() + word.slice(1);
  return {
    title: clip(oneLine(file.filename) || LINK_PREVIEW_TEXTS.fileTitle, TITLE_MAX),
    description: clip(`${type} · ${formatSize(file.size)}`, DESCRIPTION_MAX),
  };
}
