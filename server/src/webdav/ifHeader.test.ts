import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { parseIf } from './ifHeader.js';

const ours = (url: string) => (url.startsWith('http://here/dav') ? url.slice('http://here/dav'.length) : undefined);

describe('parseIf', () => {
  it('reads untagged lists with tokens, etags and Not', () => {
    expect(parseIf('(<urn:uuid:1> ["abc"]) (Not <DAV:no-lock>)', ours)).toEqual([
      {
        conditions: [
          { not: false, token: 'urn:uuid:1' },
          { not: false, etag: '"abc"' },
        ],
      },
      { conditions: [{ not: true, token: 'DAV:no-lock' }] },
    ]);
  });

  it('reads tagged lists and marks other hosts as not ours', () => {
    const lists = parseIf('<http://here/dav/a> (<t1>) <http://else/x> (<t2>)', ours);
    expect(lists[0]).toEqual({ resource: '/a', conditions: [{ not: false, token: 't1' }] });
    expect(lists[1]?.resource).not.toBe('/x');
  });

  it.each(['', '<http://here/dav/a>', '(', '()', '(<t1>', 'junk', '(["e")'])('refuses %j with 400', (header) => {
    expect(() => parseIf(header, ours)).toThrow(AppError);
  });
});
