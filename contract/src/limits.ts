/**
 * Share limits the web checks before sending (slugs, the 10 MB paste limit). Free of zod, like
 * permissions.ts, so the Home page reads them through `@clipnest/contract/limits` without every schema.
 */

/** Rules shared by text pastes and file shares (spec §5, §9). */
export const SLUG_MAX = 50;
export const SLUG_PATTERN = /^[A-Za-z0-9_-]+$/;
/** Words that would collide with app routes or confuse users. Compared case-insensitively. */
export const RESERVED_SLUGS = [
  'admin',
  'api',
  'upload',
  'paste',
  'pastes',
  'file',
  'files',
  'mount-explorer',
  'raw',
  'dav',
  'webdav',
  'assets',
  'static',
  'public',
  'login',
  'logout',
  'index',
  'favicon',
  'manifest',
  'sw',
  'health',
  'version',
] as const;

/** Spec §9: editor content max 10 MB (UTF-8 bytes of `content`). */
export const PASTE_MAX_BYTES = 10 * 1024 * 1024;

/** UTF-8 byte length, the unit of the 10 MB limit. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Ids of every resource the API manages (keys, storage configs, mounts, shares, pastes): the API finds a row
 * only by an id of this form, so a row restored or imported with another id could never be read, changed or
 * deleted. Generated ids are 16 base64url characters; imported CloudPaste ids (UUIDs) fit too.
 */
export const RESOURCE_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
export const RESOURCE_ID_RULE = '8 to 64 letters, digits, _ or -';

export function isResourceId(id: string): boolean {
  return RESOURCE_ID_PATTERN.test(id);
}
