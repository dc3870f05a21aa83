import type { FsEntryView } from '@clipnest/contract';
import { fileKindOf, type FileKind } from '@clipnest/contract/file-kinds';

const BY_EXT: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  flac: 'audio/flac',
};
const TEXT_EXT =
  /\.(txt|log|csv|tsv|json|ya?ml|toml|ini|conf|cfg|env|xml|html?|css|scss|js|mjs|cjs|jsx|ts|tsx|py|rb|go|rs|java|kt|c|h|cpp|cc|hpp|cs|php|sh|bash|zsh|ps1|sql|vue|svelte|swift|lua|pl|r|dart|gradle|properties|gitignore|dockerfile)$/i;

/** Preview family of a tree entry: its mimetype when the storage gave one, else its extension. */
export function entryKind(entry: Pick<FsEntryView, 'name' | 'mimetype'>): FileKind {
  const ext = entry.name.slice(entry.name.lastIndexOf('.') + 1).toLowerCase();
  const mime = entry.mimetype && entry.mimetype !== 'application/octet-stream' ? entry.mimetype : (BY_EXT[ext] ?? '');
  const kind = fileKindOf(entry.name, mime);
  if (kind === 'other' && TEXT_EXT.test(entry.name)) return 'text';
  return kind;
}

/** Text the editor may open and save through fs/update (10 MB at most). */
export function isEditable(entry: FsEntryView): boolean {
  const kind = entryKind(entry);
  return !entry.isDirectory && (kind === 'text' || kind === 'markdown') && entry.size <= 10 * 1024 * 1024;
}
