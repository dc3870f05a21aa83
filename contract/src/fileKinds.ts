/** File names → types and preview families (spec §5). No zod: the web imports this on its light routes. */
/** Spec §5: these extensions are uploaded as text/markdown. */
export const MARKDOWN_EXTENSIONS = ['md', 'markdown', 'mdown', 'mkd', 'mdwn', 'mdtxt', 'mdtext', 'rmd'] as const;

export function fileExtension(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export function isMarkdownFilename(filename: string): boolean {
  return (MARKDOWN_EXTENSIONS as readonly string[]).includes(fileExtension(filename));
}

/** The mimetype the client sends with an upload (spec §5). */
export function uploadMimetype(filename: string, browserType?: string | null): string {
  if (isMarkdownFilename(filename)) return 'text/markdown';
  return browserType && browserType.trim() !== '' ? browserType : 'application/octet-stream';
}

export const FILE_KINDS = ['image', 'video', 'audio', 'pdf', 'markdown', 'text', 'office', 'other'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

const OFFICE_EXT = ['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'rtf', 'odt', 'ods', 'odp'];
const TEXT_MIME = /^(text\/|application\/(json|xml|javascript|x-sh|x-yaml|toml|sql))/;

/** Preview family of a file, from its mimetype and name. */
export function fileKindOf(filename: string, mimetype: string): FileKind {
  const mt = mimetype.toLowerCase();
  const ext = fileExtension(filename);
  if (mt === 'text/markdown' || isMarkdownFilename(filename)) return 'markdown';
  if (mt.startsWith('image/')) return 'image';
  if (mt.startsWith('video/')) return 'video';
  if (mt.startsWith('audio/')) return 'audio';
  if (mt === 'application/pdf' || ext === 'pdf') return 'pdf';
  if (OFFICE_EXT.includes(ext) || mt.includes('officedocument') || mt === 'application/msword') return 'office';
  if (TEXT_MIME.test(mt)) return 'text';
  return 'other';
}
