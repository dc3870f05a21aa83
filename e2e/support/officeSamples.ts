// Real sample documents built in the test: a .docx (the docx package), workbooks (SheetJS), a .pptx
// (minimal OOXML zipped with jszip) and CSV.
import { randomBytes } from 'node:crypto';
import { Document, Packer, Paragraph, HeadingLevel, TextRun, ExternalHyperlink } from 'docx';
import JSZip from 'jszip';
import { utils, write } from 'xlsx';
import { makePng } from './files';

export async function makeDocx(title: string, paragraphs: string[]): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(title)] }),
          ...paragraphs.map((text) => new Paragraph({ children: [new TextRun(text)] })),
          new Paragraph({
            children: [
              new ExternalHyperlink({ link: 'javascript:alert(1)', children: [new TextRun('hostile link')] }),
              new TextRun(' and '),
              new ExternalHyperlink({ link: 'https://evil.example/x', children: [new TextRun('outside link')] }),
            ],
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/** About `bytes` of hard-to-compress text in a .docx (random base64 paragraphs). */
export async function makeLargeDocx(bytes: number): Promise<Buffer> {
  const paragraphs: string[] = [];
  for (let size = 0; size < bytes; size += 3000) paragraphs.push(randomBytes(2250).toString('base64'));
  return makeDocx('Large document', paragraphs);
}

export function makeXlsx(
  sheets: Record<string, (string | number)[][]>,
  bookType: 'xlsx' | 'ods' | 'xls' = 'xlsx',
): Buffer {
  const book = utils.book_new();
  for (const [name, rows] of Object.entries(sheets)) utils.book_append_sheet(book, utils.aoa_to_sheet(rows), name);
  return write(book, { type: 'buffer', bookType, compression: bookType !== 'xls' }) as Buffer;
}

export function makeLargeXlsx(rows: number): Buffer {
  const data: (string | number)[][] = [['id', 'token', 'value', 'note']];
  for (let i = 1; i <= rows; i++)
    data.push([i, randomBytes(12).toString('hex'), i * 1.5, randomBytes(9).toString('base64')]);
  return makeXlsx({ Data: data });
}

/** A two-slide .pptx: titles and text runs, a picture on the second slide. */
export async function makePptx(slides: { title: string; body: string; picture?: boolean }[]): Promise<Buffer> {
  const zip = new JSZip();
  const ns =
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/></Types>',
  );
  slides.forEach((slide, i) => {
    const n = i + 1;
    const pic = slide.picture ? '<p:pic><p:blipFill><a:blip r:embed="rIdImg"/></p:blipFill></p:pic>' : '';
    zip.file(
      `ppt/slides/slide${n}.xml`,
      `<?xml version="1.0" encoding="UTF-8"?><p:sld ${ns}><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>${slide.title}</a:t></a:r></a:p><a:p><a:r><a:t>${slide.body}</a:t></a:r></a:p></p:txBody></p:sp>${pic}</p:spTree></p:cSld></p:sld>`,
    );
    if (slide.picture) {
      zip.file(
        `ppt/slides/_rels/slide${n}.xml.rels`,
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdImg" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/image1.png"/><Relationship Id="rIdX" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="https://evil.example/x.png" TargetMode="External"/></Relationships>',
      );
    }
  });
  // A picture of a real size: a 1 px one showed as a dot that looked like a stray bullet.
  zip.file('ppt/media/image1.png', makePng(240, 135));
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** A .zip with a folder, two files and a zip-slip name (kept as written). */
export async function makeZip(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('docs/readme.txt', 'hello from the zip');
  zip.file('docs/data.csv', 'a,b\n1,2\n');
  zip.file('../evil.sh', 'echo pwned');
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}
