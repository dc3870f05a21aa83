import { describe, expect, it } from 'vitest';
import { mimetypeOf } from './fsService.js';

describe('mimetypeOf', () => {
  it('answers the same from its per-extension memo as on the first call', () => {
    const cases: Array<[string, string | undefined, string]> = [
      ['notes.md', undefined, 'text/markdown'],
      ['NOTES.MD', 'text/plain', 'text/markdown'],
      ['a.txt', undefined, 'text/plain'],
      ['b.TXT', 'image/png', 'text/plain'],
      ['photo.svg', undefined, 'image/svg+xml'],
      ['data.unknownext', 'image/png', 'image/png'],
      ['data.unknownext', undefined, 'application/octet-stream'],
      ['data.unknownext', 'not a type', 'application/octet-stream'],
      ['txt', undefined, 'text/plain'],
      ['.md', undefined, 'text/markdown'],
      ['archive.tar.gz', undefined, 'application/gzip'],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [name, stored, expected] of cases)
        expect(mimetypeOf(name, stored), `${name} ${stored}`).toBe(expected);
    }
  });
});
