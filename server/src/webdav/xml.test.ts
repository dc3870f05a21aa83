import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { DAV, XML_LIMITS, child, elements, parseXml, serialize } from './xml.js';

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

  it('serialises a property with the namespaces its names use, not every namespace in scope', () => {
    const doc = parseXml(
      '<D:prop xmlns:D="DAV:" xmlns:A="urn:a" xmlns:B="urn:b" xmlns:C="urn:c"><A:v C:at="1"><B:i/></A:v></D:prop>',
    )!;
    const out = serialize(elements(doc)[0]!);
    expect(out).toContain('xmlns:A="urn:a"');
    expect(out).toContain('xmlns:B="urn:b"');
    expect(out).toContain('xmlns:C="urn:c"');
    expect(out).not.toContain('DAV:');
  });

  it('refuses bodies past the bounds: 413 for elements and namespaces, 400 for depth and DTDs', () => {
    const status = (body: string) => {
      try {
        parseXml(body);
        return 200;
      } catch (error) {
        return (error as AppError).status;
      }
    };
    expect(status(`<a>${'<b/>'.repeat(XML_LIMITS.maxElements)}</a>`)).toBe(413);
    expect(status(`<a>${'<b/>'.repeat(XML_LIMITS.maxElements - 1)}</a>`)).toBe(200);
    const ns = (n: number) => `<a>${Array.from({ length: n }, (_, i) => `<x:b xmlns:x="urn:${i}"/>`).join('')}</a>`;
    expect(status(ns(XML_LIMITS.maxNamespaces + 1))).toBe(413);
    expect(status(ns(XML_LIMITS.maxNamespaces))).toBe(200);
    const nest = (n: number) => `${'<a>'.repeat(n)}${'</a>'.repeat(n)}`;
    expect(status(nest(XML_LIMITS.maxDepth + 1))).toBe(400);
    expect(status(nest(XML_LIMITS.maxDepth))).toBe(200);
    expect(status('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>')).toBe(400);
  });
});
