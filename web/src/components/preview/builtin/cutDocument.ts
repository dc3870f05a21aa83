/**
 * The main part of a .docx (word/document.xml) cut after its first `maxBlocks` body blocks (paragraphs,
 * tables, content controls), keeping the body's own section properties (page size, margins) that close it.
 * Parsing all of a 20 MB document takes far longer than laying out its first pages, so a long document is
 * cut before it is parsed. Returns null when there is nothing to cut (or the markup is not understood).
 */
export function cutDocumentXml(xml: string, maxBlocks: number): { xml: string; total: number } | null {
  const bodyStart = xml.indexOf('<w:body>');
  const bodyEnd = xml.lastIndexOf('</w:body>');
  if (bodyStart < 0 || bodyEnd < bodyStart) return null;
  const tag = /<(\/?)w:(p|tbl|sdt|sectPr)(?=[\s>/])([^>]*?)(\/?)>/g;
  tag.lastIndex = bodyStart + '<w:body>'.length;
  let depth = 0;
  let blocks = 0;
  let cutAt = -1;
  for (let m = tag.exec(xml); m && m.index < bodyEnd; m = tag.exec(xml)) {
    const closing = m[1] === '/';
    const selfClosing = m[4] === '/';
    if (m[2] === 'sectPr' && depth === 0) break; // the body's own section properties: the end of the blocks
    if (closing) depth--;
    else if (!selfClosing) depth++;
    if (depth === 0 && (closing || selfClosing)) {
      blocks++;
      if (blocks === maxBlocks) cutAt = m.index + m[0].length;
    }
  }
  if (cutAt < 0 || blocks <= maxBlocks) return null;
  const sectStart = xml.lastIndexOf('<w:sectPr', bodyEnd);
  const tail = sectStart > cutAt ? xml.slice(sectStart, bodyEnd) : '';
  return { xml: `${xml.slice(0, cutAt)}${tail}${xml.slice(bodyEnd)}`, total: blocks };
}
