// WebDAV request bodies as a namespace-resolved tree (fast-xml-parser does the XML; this resolves
// prefixes), and the few helpers the replies need. Every element keeps its namespace URI and local name;
// `serialize()` writes one back (a dead property's value) with the namespace declarations it relies on.
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { AppError } from '../errors.js';

export const DAV = 'DAV:';

type OrderedNode = Record<string, unknown>;

export interface XmlElement {
  ns: string;
  local: string;
  /** Declared namespaces in scope (prefix → URI; '' is the default namespace). */
  scope: Map<string, string>;
  attrs: Record<string, string>;
  children: XmlNode[];
  /** The parsed node, kept for serialising it back. */
  raw: OrderedNode;
  tag: string;
}

export type XmlNode = XmlElement | { text: string };

const ATTR = '@_';
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: ATTR,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: false,
});
const builder = new XMLBuilder({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: ATTR,
  suppressEmptyNode: true,
  processEntities: true,
});

function badXml(message: string): AppError {
  return AppError.validation(`malformed XML request body: ${message}`);
}

function tagOf(node: OrderedNode): string | undefined {
  return Object.keys(node).find((k) => k !== ':@' && k !== '#text');
}

function toElement(node: OrderedNode, parentScope: Map<string, string>): XmlElement {
  const tag = tagOf(node) as string;
  const attrs: Record<string, string> = {};
  const scope = new Map(parentScope);
  for (const [key, value] of Object.entries((node[':@'] ?? {}) as Record<string, string>)) {
    const name = key.slice(ATTR.length);
    if (name === 'xmlns') scope.set('', value);
    else if (name.startsWith('xmlns:')) {
      if (value === '') throw badXml(`namespace prefix ${name.slice(6)} bound to an empty name`);
      scope.set(name.slice(6), value);
    } else attrs[name] = value;
  }
  const colon = tag.indexOf(':');
  const prefix = colon >= 0 ? tag.slice(0, colon) : '';
  const local = colon >= 0 ? tag.slice(colon + 1) : tag;
  const ns = scope.get(prefix);
  if (ns === undefined && prefix !== '') throw badXml(`undeclared namespace prefix ${prefix}`);
  const children: XmlNode[] = [];
  for (const child of (node[tag] ?? []) as OrderedNode[]) {
    if ('#text' in child) children.push({ text: String(child['#text']) });
    else if (tagOf(child)) children.push(toElement(child, scope));
  }
  return { ns: ns ?? '', local, scope, attrs, children, raw: node, tag };
}

/** Parses a request body; undefined when it is empty. 400 when it is not well-formed or breaks XML namespaces. */
export function parseXml(body: string): XmlElement | undefined {
  if (body.trim() === '') return undefined;
  // Character references past the BMP (litmus' high-unicode value) as the characters they name: the
  // parser leaves them as text. They are never markup, so this cannot change the document's structure.
  body = body.replace(/&#(x[0-9a-fA-F]{5,6}|\d{5,7});/g, (ref, num: string) => {
    const cp = num.startsWith('x') ? parseInt(num.slice(1), 16) : Number(num);
    return cp > 0xffff && cp <= 0x10ffff ? String.fromCodePoint(cp) : ref;
  });
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw badXml(valid.err.msg);
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(body) as OrderedNode[];
  } catch (error) {
    throw badXml(error instanceof Error ? error.message : 'unreadable');
  }
  const roots = nodes.filter((n) => tagOf(n) !== undefined && !('#text' in n));
  if (roots.length !== 1) throw badXml('expected one root element');
  return toElement(roots[0] as OrderedNode, new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]));
}

export function isElement(node: XmlNode): node is XmlElement {
  return 'local' in node;
}

export function elements(el: XmlElement, ns?: string, local?: string): XmlElement[] {
  return el.children.filter(
    (c): c is XmlElement =>
      isElement(c) && (ns === undefined || c.ns === ns) && (local === undefined || c.local === local),
  );
}

export function child(el: XmlElement, ns: string, local: string): XmlElement | undefined {
  return elements(el, ns, local)[0];
}

/** An element written back as XML, declaring every namespace in scope it does not declare itself. */
export function serialize(el: XmlElement): string {
  const own = { ...((el.raw[':@'] ?? {}) as Record<string, string>) };
  for (const [prefix, uri] of el.scope) {
    if (prefix === 'xml') continue;
    const key = prefix === '' ? `${ATTR}xmlns` : `${ATTR}xmlns:${prefix}`;
    if (!(key in own)) own[key] = uri;
  }
  return builder.build([{ [el.tag]: el.raw[el.tag], ':@': own }]) as string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text or an attribute value for the replies. */
export function escapeXml(value: string): string {
  return SPECIAL.test(value) ? value.replace(/[&<>"']/g, (ch) => ESCAPES[ch] as string) : value;
}
const SPECIAL = /[&<>"']/;
