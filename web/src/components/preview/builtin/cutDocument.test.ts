import { describe, expect, it } from 'vitest';
import { cutDocumentXml } from './cutDocument';

const doc = (body: string) =>
  `<?xml version="1.0"?><w:document xmlns:w="x"><w:body>${body}<w:sectPr><w:pgSz w:w="1"/></w:sectPr></w:body></w:document>`;

describe('cutDocumentXml', () => {
  it('keeps the first blocks (a table counts as one) and the section properties', () => {
    const body =
      '<w:p><w:r><w:t>one</w:t></w:r></w:p>' +
      '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl>' +
      '<w:p/><w:p><w:pPr/><w:r><w:t>four</w:t></w:r></w:p>';
    const cut = cutDocumentXml(doc(body), 2);
    expect(cut?.total).toBe(4);
    expect(cut?.xml).toBe(
      doc(
        '<w:p><w:r><w:t>one</w:t></w:r></w:p><w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl>',
      ),
    );
  });
  it('leaves a short document alone, and markup it does not know', () => {
    expect(cutDocumentXml(doc('<w:p/><w:p/>'), 2)).toBeNull();
    expect(cutDocumentXml('<html/>', 2)).toBeNull();
  });
});
