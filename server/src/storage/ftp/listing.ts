// What FTP listings and single-entry replies (MLST, SIZE/MDTM) say, turned into driver entries. Names a server
// sends are trusted only as one plain name directly in the folder listed: '.', '..', names with a slash or a
// backslash, over-long names and the driver's own temp files are left out, so no listing leads out of the root.
import { FileType, type FileInfo } from 'basic-ftp';
import { MAX_SEGMENT_BYTES, RESERVED_PREFIX } from '../paths.js';
import type { Entry } from '../types.js';

/** The driver's own temp files (writes in progress). */
export const TEMP_PREFIX = `${RESERVED_PREFIX}upload-`;

/** An ETag from size and modification time (FTP has none of its own). */
export function etagOf(size: number, modified?: Date): string {
  return `"${size.toString(16)}-${modified ? modified.getTime().toString(16) : '0'}"`;
}

/** Whether a name from a listing may be shown as a child of the folder listed. */
export function acceptableName(name: string): boolean {
  if (name === '' || name === '.' || name === '..') return false;
  // eslint-disable-next-line no-control-regex
  if (/[/\\\u0000-\u001f]/.test(name)) return false;
  if (Buffer.byteLength(name) > MAX_SEGMENT_BYTES) return false;
  return !name.startsWith(TEMP_PREFIX);
}

/** A child entry of a listing, or undefined when it is to be left out (links, odd names). */
export function entryOfInfo(dir: string, info: FileInfo): Entry | undefined {
  if (!acceptableName(info.name)) return undefined;
  if (info.type !== FileType.File && info.type !== FileType.Directory) return undefined;
  const isDir = info.type === FileType.Directory;
  const path = dir === '' ? info.name : `${dir}/${info.name}`;
  const size = isDir ? 0 : Math.max(0, info.size);
  return {
    path,
    name: info.name,
    isDir,
    size,
    ...(info.modifiedAt ? { lastModified: info.modifiedAt } : {}),
    // LIST times are minutes (or days) only: an ETag from them would not match stat's; MLSD ones are exact.
    ...(!isDir && info.modifiedAt ? { etag: etagOf(size, info.modifiedAt) } : {}),
  };
}

/** `YYYYMMDDHHMMSS[.sss]` (UTC) of MDTM / MLST / MFMT. */
export function parseFtpTime(value: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d{1,3}))?$/.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, ms] = m;
  const time = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!, ms ? +ms.padEnd(3, '0') : 0);
  return Number.isNaN(time) ? undefined : new Date(time);
}

export function formatFtpTime(at: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(at.getUTCFullYear(), 4)}${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())}${p(at.getUTCHours())}${p(at.getUTCMinutes())}${p(at.getUTCSeconds())}`;
}

/** The facts of an MLST reply ("250-Listing x\r\n type=file;size=5;modify=…; /x\r\n250 End"). */
export function parseMlst(message: string): { type?: string; size?: number; modified?: Date } | undefined {
  const line = message.split(/\r?\n/).find((l) => /^\s*\S*=\S*;/.test(l) && !/^\d{3}[ -]/.test(l));
  if (!line) return undefined;
  const facts = new Map<string, string>();
  for (const fact of line.trim().split(' ')[0]!.split(';')) {
    const eq = fact.indexOf('=');
    if (eq > 0) facts.set(fact.slice(0, eq).toLowerCase(), fact.slice(eq + 1));
  }
  const size = facts.get('size');
  const modify = facts.get('modify');
  return {
    type: facts.get('type')?.toLowerCase(),
    ...(size !== undefined && /^\d+$/.test(size) ? { size: Number(size) } : {}),
    ...(modify ? { modified: parseFtpTime(modify) } : {}),
  };
}
