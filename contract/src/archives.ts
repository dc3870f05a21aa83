/** Archives read on the server for previews: listings without unpacking, single entries streamed. */
export const ARCHIVE_FORMATS = ['zip', 'tar', 'tar.gz'] as const;
export type ArchiveFormat = (typeof ARCHIVE_FORMATS)[number];

export const ARCHIVE_LIMITS = {
  /** A listing stops here (`truncated`); a zip's `total_entries` still says how many it has. */
  maxListedEntries: 10_000,
  /** An entry bigger than this once expanded is not served (a zip bomb's one entry). */
  maxEntryBytes: 1024 * 1024 * 1024,
  /** A tar listing reads at most this much of the archive (tar has no index: it is read from the start). */
  maxTarScanBytes: 512 * 1024 * 1024,
} as const;

/** The archive format a file name says, or null. */
export function archiveFormatOf(name: string): ArchiveFormat | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.zip')) return 'zip';
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'tar.gz';
  if (lower.endsWith('.tar')) return 'tar';
  return null;
}

export interface ArchiveEntry {
  /** As stored (with "/" separators); never resolved against anything. */
  name: string;
  directory: boolean;
  /** Expanded size in bytes. */
  size: number;
  /** Stored size in bytes (zip), null for tar. */
  compressed_size: number | null;
  modified: string | null;
  /** A name that would leave the folder it is unpacked into (`..`, an absolute path, a drive letter). */
  unsafe: boolean;
  /** Encrypted (zip): listed, not served. */
  encrypted: boolean;
}

/** data of GET /api/fs/archive. */
export interface ArchiveListing {
  format: ArchiveFormat;
  entries: ArchiveEntry[];
  /** Entries the archive holds (zip: from its directory; tar: those read). */
  total_entries: number;
  truncated: boolean;
}
