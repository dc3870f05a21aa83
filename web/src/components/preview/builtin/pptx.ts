/** One slide as text paragraphs and the pictures it places. */
export interface Slide {
  number: number;
  paragraphs: string[];
  images: { url: string; name: string }[];
}

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
};

const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const MAX_SLIDES = 500;

/** "ppt/slides/../media/image1.png" → "ppt/media/image1.png". */
export function resolvePart(base: string, target: string): string {
  const parts = target.startsWith('/') ? [] : base.split('/').slice(0, -1);
  for (const piece of target.replace(/^\//, '').split('/')) {
    if (piece === '..') parts.pop();
    else if (piece && piece !== '.') parts.push(piece);
  }
  return parts.join('/');
}

function parseXml(text: string): Document {
  return new DOMParser().parseFromString(text, 'application/xml');
}

/**
 * A .pptx read as text and pictures: each ppt/slides/slideN.xml's paragraphs (a:p of a:t runs) and the
 * images its a:blip elements embed (object URLs; `revoke` frees them). Layout and effects are left out.
 */
export async function readPptx(data: ArrayBuffer): Promise<{ slides: Slide[]; revoke: () => void }> {
  const { default: JSZip } = await import('jszip');
  const zip = await JSZip.loadAsync(data);
  const names = Object.keys(zip.files)
    .map((name) => ({ name, n: /^ppt\/slides\/slide(\d+)\.xml$/.exec(name)?.[1] }))
    .filter((f): f is { name: string; n: string } => f.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n))
    .slice(0, MAX_SLIDES);
  const urls: string[] = [];
  const slides: Slide[] = [];
  for (const [index, { name }] of names.entries()) {
    const xml = parseXml(await zip.file(name)!.async('string'));
    const paragraphs = Array.from(xml.getElementsByTagNameNS(A, 'p'))
      .map((p) =>
        Array.from(p.getElementsByTagNameNS(A, 't'))
          .map((t) => t.textContent ?? '')
          .join(''),
      )
      .filter((text) => text.trim() !== '');
    const relsName = name.replace(/slides\/(slide\d+\.xml)$/, 'slides/_rels/$1.rels');
    const relsFile = zip.file(relsName);
    const targets = new Map<string, string>();
    if (relsFile) {
      const rels = parseXml(await relsFile.async('string'));
      for (const rel of Array.from(rels.getElementsByTagName('Relationship'))) {
        if (rel.getAttribute('TargetMode') === 'External') continue;
        const id = rel.getAttribute('Id');
        const target = rel.getAttribute('Target');
        if (id && target) targets.set(id, resolvePart(name, target));
      }
    }
    const images: Slide['images'] = [];
    for (const blip of Array.from(xml.getElementsByTagNameNS(A, 'blip'))) {
      const part = targets.get(blip.getAttributeNS(R, 'embed') ?? '');
      const type = part ? IMAGE_TYPES[part.slice(part.lastIndexOf('.') + 1).toLowerCase()] : undefined;
      const file = part ? zip.file(part) : null;
      if (!part || !type || !file) continue;
      const url = URL.createObjectURL(new Blob([await file.async('arraybuffer')], { type }));
      urls.push(url);
      images.push({ url, name: part.slice(part.lastIndexOf('/') + 1) });
    }
    slides.push({ number: index + 1, paragraphs, images });
  }
  return { slides, revoke: () => urls.forEach((url) => URL.revokeObjectURL(url)) };
}
