// WebDAV request bodies as a namespace-resolved tree (fast-xml-parser does the XML; this resolves
// prefixes), and the few helpers the replies need. Every element keeps its namespace URI and local name;
// `serialize()` writes one back (a dead property's value) with the namespace declarations it relies on.
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { AppError } from '../errors.js';

export const DAV = 'DAV:';

/**
 * Bounds of a WebDAV request body: bytes are bounded by the route (1 MB); these bound
 * the document's shape so that parsing and serialising stay linear in its size whatever it holds.
 */
export const XML_LIMITS = {
  /** Elements in one document (a PROPPATCH of this many properties is far past any client's). */
  maxElements: 10_000,
  /** Namespace declarations (`xmlns`, `xmlns:p`) in one document. */
  maxNamespaces: 500,
  /** Nesting depth of elements. */
  maxDepth: 64,
} as const;

type OrderedNode = Record<string, unknown>;

/**
 * The namespaces in scope of an element: its own declarations and a link to its parent's scope (never a
 * copy: a document's scopes together hold each declaration once). Lookups walk at most maxDepth links.
 */
export interface NsScope {
  parent?: NsScope;
  /** Declared on this element (prefix → URI; '' is the default namespace); undefined when none. */
  own?: Map<string, string>;
}

export function lookupNamespace(scope: NsScope | undefined, prefix: string): string | undefined {
  for (let s = scope; s; s = s.parent) {
    const uri = s.own?.get(prefix);
    if (uri !== undefined) return uri;
  }
  return undefined;
}

export interface XmlElement {
  ns: string;
  local: string;
  /** Namespaces in scope (linked to the parent's). */
  scope: NsScope;
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

function prefixOf(name: string): string {
  const colon = name.indexOf(':');
  return colon >= 0 ? name.slice(0, colon) : '';
}

const XML_SCOPE: NsScope = { own: new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]) };

function toElement(node: OrderedNode, parentScope: NsScope, depth: number): XmlElement {
  if (depth > XML_LIMITS.maxDepth) {
    throw badXml(`elements are nested more than ${XML_LIMITS.maxDepth} deep`);
  }
  const tag = tagOf(node) as string;
  const attrs: Record<string, string> = {};
  let own: Map<string, string> | undefined;
  for (const [key, value] of Object.entries((node[':@'] ?? {}) as Record<string, string>)) {
    const name = key.slice(ATTR.length);
    if (name === 'xmlns') (own ??= new Map()).set('', value);
    else if (name.startsWith('xmlns:')) {
      if (value === '') throw badXml(`namespace prefix ${name.slice(6)} bound to an empty name`);
      (own ??= new Map()).set(name.slice(6), value);
    } else attrs[name] = value;
  }
  const scope: NsScope = own ? { parent: parentScope, own } : parentScope;
  const prefix = prefixOf(tag);
  const local = prefix === '' ? tag : tag.slice(prefix.length + 1);
  const ns = lookupNamespace(scope, prefix);
  if (ns === undefined && prefix !== '') throw badXml(`undeclared namespace prefix ${prefix}`);
  const children: XmlNode[] = [];
  for (const child of (node[tag] ?? []) as OrderedNode[]) {
    if ('#text' in child) children.push({ text: String(child['#text']) });
    else if (tagOf(child)) children.push(toElement(child, scope, depth + 1));
  }
  return { ns: ns ?? '', local, scope, attrs, children, raw: node, tag };
}

/** How often `pattern` (global) matches `text`, giving up past `max` (a linear scan, no array built). */
function countUpTo(text: string, pattern: RegExp, max: number): number {
  pattern.lastIndex = 0;
  let n = 0;
  while (pattern.exec(text) && ++n <= max);
  return n;
}

/**
 * Parses a request body; undefined when it is empty. 400 when it is not well-formed, breaks XML namespaces,
 * carries a DTD or nests too deep; 413 when it holds more elements or namespace declarations than XML_LIMITS.
 * Work is linear in the body's size: the shape is counted before the parser runs.
 */
export function parseXml(body: string): XmlElement | undefined {
  if (body.trim() === '') return undefined;
  // No DTD (entity declarations are a classic amplification; no WebDAV client sends one).
  if (/<!DOCTYPE|<!ENTITY/i.test(body)) throw badXml('a DTD (DOCTYPE / ENTITY) is not accepted');
  if (countUpTo(body, /<[^/!?]/g, XML_LIMITS.maxElements) > XML_LIMITS.maxElements) {
    throw new AppError('PAYLOAD_TOO_LARGE', `the XML body holds more than ${XML_LIMITS.maxElements} elements`);
  }
  if (countUpTo(body, /\sxmlns[\s:=]/g, XML_LIMITS.maxNamespaces) > XML_LIMITS.maxNamespaces) {
    throw new AppError('PAYLOAD_TOO_LARGE', `the XML body declares more than ${XML_LIMITS.maxNamespaces} namespaces`);
  }
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
  return toElement(roots[0] as OrderedNode, XML_SCOPE, 1);
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

/** The prefixes an element's subtree uses in element and attribute names (each node visited once). */
function usedPrefixes(node: OrderedNode, out: Set<string>): void {
  const tag = tagOf(node);
  if (!tag) return;
  out.add(prefixOf(tag));
  for (const key of Object.keys((node[':@'] ?? {}) as Record<string, string>)) {
    const name = key.slice(ATTR.length);
    if (name !== 'xmlns' && !name.startsWith('xmlns:') && name.includes(':')) out.add(prefixOf(name));
  }
  for (const child of (node[tag] ?? []) as OrderedNode[]) usedPrefixes(child, out);
}

/**
 * An element written back as XML, declaring the namespaces its subtree's names use that it does not declare
 * itself (declarations of ancestors it does not use are left out: a property never carries the whole
 * document's namespaces). Linear in the element's size.
 */
export function serialize(el: XmlElement): string {
  const own = { ...((el.raw[':@'] ?? {}) as Record<string, string>) };
  const used = new Set<string>();
  usedPrefixes(el.raw, used);
  for (const prefix of used) {
    if (prefix === 'xml') continue;
    const key = prefix === '' ? `${ATTR}xmlns` : `${ATTR}xmlns:${prefix}`;
    if (key in own) continue;
    const uri = lookupNamespace(el.scope, prefix);
    if (uri !== undefined) own[key] = uri;
  }
  return builder.build([{ [el.tag]: el.raw[el.tag], ':@': own }]) as string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text or an attribute value for the replies. */
export function escapeXml(value: string): string {
  return SPECIAL.test(value) ? value.replace(/[&<>"']/g, (ch) => ESCAPES[ch] as string) : value;
}
const SPECIAL = /[&<>"']/;
