import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { DAV, child, elements, parseXml, serialize } from './xml.js';

describe('parseXml', () => {
  it('resolves namespaces by URI, whatever the prefix', () => {
    const doc = parseXml(
      '<x:propfind xmlns:x="DAV:"><x:prop><y:a xmlns:y="urn:y"/><getetag xmlns="DAV:"/></x:prop></x:propfind>',
    );
    expect(doc).toMatchObject({ ns: DAV, local: 'propfind' });
    const prop = child(doc!, DAV, 'prop')!;
    expect(elements(prop).map((e) => [e.ns, e.local])).toEqual([
      ['urn:y', 'a'],
      [DAV, 'getetag'],
    ]);
  });

  it('serialises a property with the namespaces it uses and characters past the BMP', () => {
    const doc = parseXml('<D:prop xmlns:D="DAV:" xmlns:Z="urn:z"><Z:v>&#65536; &amp; <Z:i/></Z:v></D:prop>')!;
    const out = serialize(elements(doc)[0]!);
    expect(out).toContain('xmlns:Z="urn:z"');
    expect(out).toContain('\u{10000} &amp; ');
    expect(parseXml(out)).toMatchObject({ ns: 'urn:z', local: 'v' });
  });

  it('answers undefined for an empty body', () => {
    expect(parseXml('  ')).toBeUndefined();
  });

  it.each([
    '<D:propfind xmlns:D="DAV:">',
    '<a:b/>',
    '<D:propfind xmlns:D="DAV:"><D:prop><bar:foo xmlns:bar=""/></D:prop></D:propfind>',
    'not xml',
  ])('refuses %j with 400', (body) => {
    expect(() => parseXml(body)).toThrow(AppError);
  });
});
