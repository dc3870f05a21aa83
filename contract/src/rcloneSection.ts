/**
 * One section of an rclone.conf, as `rclone config show NAME` prints it:
 *
 *   [onedrive]
 *   type = onedrive
 *   token = {"access_token":"…","refresh_token":"…","expiry":"…"}
 *   drive_id = …
 *
 * The storage type `rclone` stores it whole, as a secret. Both the web form and the server read it with
 * `parseRcloneSection`, so a section is refused with the same sentence on both sides.
 */

/** Most text an rclone_config may have (tokens of OneDrive are a few KiB). */
export const RCLONE_CONFIG_MAX = 32 * 1024;

/** Backends of rclone 1.60 (`rclone help backends`) a section may name, `local` and the wrappers excepted. */
export const RCLONE_BACKENDS = [
  'acd',
  'azureblob',
  'b2',
  'box',
  'drive',
  'dropbox',
  'fichier',
  'filefabric',
  'ftp',
  'gcs',
  'gphotos',
  'hdfs',
  'hidrive',
  'http',
  'internetarchive',
  'jottacloud',
  'koofr',
  'mailru',
  'mega',
  'memory',
  'netstorage',
  'onedrive',
  'opendrive',
  'oracleobjectstorage',
  'pcloud',
  'premiumizeme',
  'putio',
  'qingstor',
  's3',
  'seafile',
  'sftp',
  'sharefile',
  'sia',
  'smb',
  'storj',
  'sugarsync',
  'swift',
  'uptobox',
  'webdav',
  'yandex',
  'zoho',
] as const;

/**
 * Types refused: `local` is the server's own disk (local storage has its own type, held inside
 * LOCAL_STORAGE_ROOTS); the wrappers take a `remote = …` that may be a plain path, which rclone reads as a
 * folder on the server's disk.
 */
export const RCLONE_REFUSED_TYPES = [
  'local',
  'alias',
  'union',
  'combine',
  'crypt',
  'chunker',
  'hasher',
  'compress',
  'cache',
];

export interface RcloneSection {
  /** The remote's name (the text between the brackets). */
  name: string;
  /** Its backend (`type = …`). */
  type: string;
  /** Every `key = value` line but `type`, in order. */
  options: Record<string, string>;
}

/** Why a section is refused (the web form words each one itself; `detail` is the type or key concerned). */
export type RcloneSectionProblem =
  | 'tooLong'
  | 'sections'
  | 'header'
  | 'name'
  | 'line'
  | 'key'
  | 'twice'
  | 'empty'
  | 'noType'
  | 'refusedType'
  | 'unknownType';

export type RcloneSectionResult =
  { ok: true; section: RcloneSection } | { ok: false; message: string; problem: RcloneSectionProblem; detail?: string };

const fail = (problem: RcloneSectionProblem, message: string, detail?: string): RcloneSectionResult => ({
  ok: false,
  message,
  problem,
  ...(detail === undefined ? {} : { detail }),
});

const NAME = /^[A-Za-z0-9_.+@-](?:[A-Za-z0-9_.+@ -]*[A-Za-z0-9_.+@-])?$/;
const KEY = /^[A-Za-z0-9_]+$/;

/** A key that would make rclone read a file or run a program on the server (sftp key_file, bearer_token_command…). */
function refusedKey(key: string): boolean {
  const k = key.toLowerCase();
  return k.endsWith('_file') || k === 'ssh' || k.endsWith('_command');
}

/** Reads one rclone.conf section; the message says what is wrong (English, the API's sentence). */
export function parseRcloneSection(text: string): RcloneSectionResult {
  if (text.length > RCLONE_CONFIG_MAX) return fail('tooLong', 'rclone_config is too long');
  let name: string | undefined;
  const options: Record<string, string> = {};
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.*)\]$/.exec(line);
    if (header) {
      if (name !== undefined) return fail('sections', 'rclone_config must hold exactly one [section]');
      name = (header[1] ?? '').trim();
      if (!NAME.test(name)) return fail('name', `rclone_config: "[${name}]" is not a valid remote name`, name);
      continue;
    }
    if (name === undefined) return fail('header', 'rclone_config must start with a [name] line');
    const eq = line.indexOf('=');
    const key = eq < 0 ? '' : line.slice(0, eq).trim();
    if (!KEY.test(key)) {
      return fail('line', `rclone_config: "${line.slice(0, 40)}" is not a key = value line`, line.slice(0, 40));
    }
    if (refusedKey(key)) {
      const why = `rclone_config may not set "${key}": it makes rclone read a file or run a program on the server`;
      return fail('key', why, key);
    }
    if (Object.hasOwn(options, key)) return fail('twice', `rclone_config sets "${key}" twice`, key);
    options[key] = line.slice(eq + 1).trim();
  }
  if (name === undefined) return fail('empty', 'rclone_config must hold one [section] with a type');
  const type = options.type ?? '';
  delete options.type;
  if (type === '') return fail('noType', 'rclone_config has no "type = …" line');
  if (RCLONE_REFUSED_TYPES.includes(type)) {
    const why = `rclone_config: type "${type}" is refused: it can reach the server's own disk (use a local storage config for that)`;
    return fail('refusedType', why, type);
  }
  if (!(RCLONE_BACKENDS as readonly string[]).includes(type)) {
    return fail('unknownType', `rclone_config: "${type}" is not an rclone backend this server knows`, type);
  }
  return { ok: true, section: { name, type, options } };
}

/** The text of a section (the CloudPaste import builds them). Values are written as they are. */
export function formatRcloneSection(name: string, type: string, options: Record<string, string>): string {
  const lines = [`[${name}]`, `type = ${type}`];
  for (const [key, value] of Object.entries(options)) if (value !== '') lines.push(`${key} = ${value}`);
  return `${lines.join('\n')}\n`;
}
