import { AppError } from '../errors.js';
import type { IfList } from './davTypes.js';

/**
 * Parses an RFC 4918 `If` header: untagged lists `(<token> ["etag"] Not <token>)` or tagged ones
 * `<url> (…)`. `toPath` turns a tag's URL into a virtual path (undefined: not ours, the list never holds).
 * 400 when the header is malformed.
 */
export function parseIf(header: string, toPath: (url: string) => string | undefined): IfList[] {
  const lists: IfList[] = [];
  let i = 0;
  let resource: string | undefined;
  let tagged = false;
  const bad = () => AppError.validation('malformed If header');
  const skip = () => {
    while (i < header.length && /\s/.test(header[i] as string)) i++;
  };
  const until = (end: string) => {
    const close = header.indexOf(end, i);
    if (close < 0) throw bad();
    const value = header.slice(i, close);
    i = close + 1;
    return value;
  };
  for (skip(); i < header.length; skip()) {
    const ch = header[i];
    if (ch === '<') {
      i++;
      const url = until('>');
      tagged = true;
      resource = toPath(url) ?? '\u0000not-ours';
      continue;
    }
    if (ch !== '(') throw bad();
    i++;
    const conditions: IfList['conditions'] = [];
    for (skip(); header[i] !== ')'; skip()) {
      if (i >= header.length) throw bad();
      let not = false;
      if (header.slice(i, i + 3).toLowerCase() === 'not') {
        not = true;
        i += 3;
        skip();
      }
      if (header[i] === '<') {
        i++;
        conditions.push({ not, token: until('>') });
      } else if (header[i] === '[') {
        i++;
        conditions.push({ not, etag: until(']') });
      } else throw bad();
    }
    i++;
    if (conditions.length === 0) throw bad();
    lists.push({ ...(tagged ? { resource } : {}), conditions });
  }
  if (lists.length === 0) throw bad();
  return lists;
}
