/** File-share helpers for the e2e suite: sample files and API uploads. */
import { crc32, deflateSync } from 'node:zlib';
import type { ApiEnvelope, FileView } from '@clipnest/contract';
import { BASE_URL } from './env';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A real PNG (RGB gradient) of the given size. */
export function makePng(width = 320, height = 200): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < width; x++) {
      const i = row + 1 + x * 3;
      raw[i] = Math.round((x / width) * 255);
      raw[i + 1] = Math.round((y / height) * 180) + 40;
      raw[i + 2] = 200;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF saying `text`, with a correct xref table. */
export function makePdf(text = 'Clipnest PDF preview'): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export const MARKDOWN_SAMPLE = `# Release notes

Clipnest renders **Markdown** shares with _GitHub-like_ typography.

- Drag and drop uploads
- Password protected links

| Feature | Status |
| --- | --- |
| Preview | done |

\`\`\`ts
const answer: number = 42;
\`\`\`

<script>window.__pwned = 'markdown'</script>
<img src="x" onerror="window.__pwned = 'markdown-img'">
`;

export const HTML_ATTACK = `<!doctype html><html><body><h1>hi</h1>
<script>window.__pwned = 'html'; alert('html');</script>
<img src="x" onerror="window.__pwned = 'html-img'; alert('img')"></body></html>`;

export const SVG_ATTACK = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" onload="window.__pwned='svg-onload';alert('svg')">
<script>window.__pwned = 'svg'; alert('svg-script');</script>
<rect width="100" height="100" fill="teal"/></svg>`;

export interface UploadOptions {
  password?: string;
  slug?: string;
  max_views?: number;
  expires_in?: number;
  remark?: string;
  s3_config_id?: string;
}

/** POST /api/upload as the admin (test setup, not the UI under test). */
export async function uploadViaApi(
  token: string,
  name: string,
  content: Buffer | string,
  mimetype: string,
  options: UploadOptions = {},
): Promise<FileView> {
  const form = new FormData();
  form.append('mimetype', mimetype);
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined) form.append(key, String(value));
  }
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  form.append('file', new Blob([new Uint8Array(bytes)], { type: mimetype }), name);
  const response = await fetch(`${BASE_URL}/api/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  const envelope = (await response.json()) as ApiEnvelope<FileView>;
  if (!response.ok || !envelope.data) throw new Error(`upload ${name} → ${response.status}: ${envelope.message}`);
  return envelope.data;
}
