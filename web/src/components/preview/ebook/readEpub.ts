import type JSZip from 'jszip';
import { resolvePart } from '../builtin/pptx';

/** One entry of the table of contents: the chapter (spine index) it opens. */
export interface TocEntry {
  title: string;
  chapter: number;
  depth: number;
}

export interface EpubBook {
  title: string;
  /** The spine's documents, in reading order (paths inside the archive). */
  chapters: string[];
  toc: TocEntry[];
  zip: JSZip;
}

const OPF_NS = 'http://www.idpf.org/2007/opf';
const MAX_CHAPTERS = 2000;

function parseXml(text: string): Document {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) return new DOMParser().parseFromString(text, 'text/html');
  return doc;
}

async function readText(zip: JSZip, path: string): Promise<string> {
  const file = zip.file(path);
  if (!file) throw new Error(`missing ${path}`);
  return file.async('string');
}

function stripFragment(href: string): string {
  const hash = href.indexOf('#');
  return decodeURIComponent(hash < 0 ? href : href.slice(0, hash));
}

/** The table of contents of an EPUB 3 navigation document (`<nav epub:type="toc">`, else the first `<nav>`). */
function navToc(doc: Document, base: string, chapterOf: (path: string) => number): TocEntry[] {
  const navs = Array.from(doc.getElementsByTagName('nav'));
  const nav = navs.find((n) => /\btoc\b/.test(n.getAttribute('epub:type') ?? n.getAttribute('type') ?? '')) ?? navs[0];
  if (!nav) return [];
  const entries: TocEntry[] = [];
  const walk = (list: Element, depth: number) => {
    for (const li of Array.from(list.children).filter((c) => c.localName === 'li')) {
      const link = Array.from(li.children).find((c) => c.localName === 'a' || c.localName === 'span');
      const href = link?.getAttribute('href');
      const chapter = href ? chapterOf(resolvePart(base, stripFragment(href))) : -1;
      if (link && chapter >= 0) entries.push({ title: link.textContent?.trim() || '—', chapter, depth });
      const sub = Array.from(li.children).find((c) => c.localName === 'ol');
      if (sub) walk(sub, depth + 1);
    }
  };
  const top = Array.from(nav.children).find((c) => c.localName === 'ol');
  if (top) walk(top, 0);
  return entries;
}

/** The table of contents of an EPUB 2 NCX file (`navMap` → `navPoint`). */
function ncxToc(doc: Document, base: string, chapterOf: (path: string) => number): TocEntry[] {
  const entries: TocEntry[] = [];
  const walk = (parent: Element, depth: number) => {
    for (const point of Array.from(parent.children).filter((c) => c.localName === 'navPoint')) {
      const label = point.getElementsByTagName('text')[0]?.textContent?.trim() || '—';
      const src = point.getElementsByTagName('content')[0]?.getAttribute('src');
      const chapter = src ? chapterOf(resolvePart(base, stripFragment(src))) : -1;
      if (chapter >= 0) entries.push({ title: label, chapter, depth });
      walk(point, depth + 1);
    }
  };
  const map = doc.getElementsByTagName('navMap')[0];
  if (map) walk(map, 0);
  return entries;
}

/** An .epub's reading order and table of contents, read with JSZip (nothing is unpacked or fetched). */
export async function readEpub(data: ArrayBuffer): Promise<EpubBook> {
  const { default: JSZipClass } = await import('jszip');
  const zip = await JSZipClass.loadAsync(data);
  const container = parseXml(await readText(zip, 'META-INF/container.xml'));
  const opfPath = container.getElementsByTagName('rootfile')[0]?.getAttribute('full-path');
  if (!opfPath) throw new Error('not an EPUB: no package document');
  const opf = parseXml(await readText(zip, opfPath));
  const byNs = (name: string) => {
    const found = opf.getElementsByTagNameNS(OPF_NS, name);
    return Array.from(found.length > 0 ? found : opf.getElementsByTagName(name));
  };
  const manifest = new Map<string, { path: string; type: string; properties: string }>();
  for (const item of byNs('item')) {
    const href = item.getAttribute('href');
    if (!href) continue;
    manifest.set(item.getAttribute('id') ?? href, {
      path: resolvePart(opfPath, stripFragment(href)),
      type: item.getAttribute('media-type') ?? '',
      properties: item.getAttribute('properties') ?? '',
    });
  }
  const chapters = byNs('itemref')
    .filter((ref) => ref.getAttribute('linear') !== 'no')
    .map((ref) => manifest.get(ref.getAttribute('idref') ?? '')?.path)
    .filter((path): path is string => path !== undefined && zip.file(path) !== null)
    .slice(0, MAX_CHAPTERS);
  const chapterOf = (path: string) => chapters.indexOf(path);

  let toc: TocEntry[] = [];
  const nav = [...manifest.values()].find((item) => item.properties.split(/\s+/).includes('nav'));
  if (nav && zip.file(nav.path)) toc = navToc(parseXml(await readText(zip, nav.path)), nav.path, chapterOf);
  const ncxId = byNs('spine')[0]?.getAttribute('toc');
  const ncx =
    (ncxId && manifest.get(ncxId)) || [...manifest.values()].find((i) => i.type === 'application/x-dtbncx+xml');
  if (toc.length === 0 && ncx && zip.file(ncx.path))
    toc = ncxToc(parseXml(await readText(zip, ncx.path)), ncx.path, chapterOf);

  const title =
    opf.getElementsByTagNameNS('http://purl.org/dc/elements/1.1/', 'title')[0]?.textContent?.trim() ??
    opf.getElementsByTagName('dc:title')[0]?.textContent?.trim() ??
    '';
  return { title, chapters, toc, zip };
}
