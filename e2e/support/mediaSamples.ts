// Sample files for the e-book, subtitle, HLS and code previews (issue 42 point 4), built in the test.
import type { Browser } from '@playwright/test';
import JSZip from 'jszip';
import { makePng } from './files';

const chapter = (title: string, body: string) =>
  `<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head><title>${title}</title><link rel="stylesheet" type="text/css" href="style.css"/></head>
<body><h1>${title}</h1>${body}</body></html>`;

/**
 * A small EPUB 3: two chapters, a navigation document, a stylesheet and a picture. The first chapter also
 * carries what must never run or load: a script, an inline handler, a javascript: link and a remote picture.
 */
export async function makeEpub(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  zip.file(
    'META-INF/container.xml',
    `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
  );
  zip.file(
    'OEBPS/content.opf',
    `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">clipnest-sample</dc:identifier>
<dc:title>The Clipnest Sample Book</dc:title><dc:language>en</dc:language></metadata>
<manifest>
<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="c1" href="text/one.xhtml" media-type="application/xhtml+xml"/>
<item id="c2" href="text/two.xhtml" media-type="application/xhtml+xml"/>
<item id="css" href="text/style.css" media-type="text/css"/>
<item id="img" href="images/cover.png" media-type="image/png"/>
</manifest>
<spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>`,
  );
  zip.file(
    'OEBPS/nav.xhtml',
    `<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head>
<body><nav epub:type="toc"><ol>
<li><a href="text/one.xhtml">Chapter One: The Harbour</a></li>
<li><a href="text/two.xhtml#start">第二章：山中</a></li>
</ol></nav></body></html>`,
  );
  zip.file(
    'OEBPS/text/style.css',
    'h1 { color: #7c2d12; } p.lead { font-style: italic; } body { background: url(https://evil.example/bg.png); }',
  );
  zip.file('OEBPS/images/cover.png', makePng(240, 120));
  zip.file(
    'OEBPS/text/one.xhtml',
    chapter(
      'Chapter One: The Harbour',
      `<p class="lead">The boats came in at dawn.</p>
<p><img src="../images/cover.png" alt="A cover picture"/></p>
<script>document.body.setAttribute('data-pwned', 'script'); parent.__epubPwned = true;</script>
<p id="handler"><img src="missing.png" alt="" onerror="parent.__epubPwned = true"/></p>
<p><a href="javascript:parent.__epubPwned=true">a javascript link</a> <img src="https://evil.example/track.png" alt="remote"/></p>`,
    ),
  );
  zip.file(
    'OEBPS/text/two.xhtml',
    chapter('第二章：山中', '<p id="start">山里的雾散了，路也清楚了。</p><p>The second chapter ends the book.</p>'),
  );
  return zip.generateAsync({ type: 'nodebuffer', mimeType: 'application/epub+zip' });
}

/** A real, short WebM (VP8/VP9) recorded from a canvas by the browser itself: there is no ffmpeg here. */
export async function makeWebm(browser: Browser): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    const base64 = await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 320;
      canvas.height = 180;
      const context = canvas.getContext('2d')!;
      const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start();
      // Forty drawn frames make a clip of about a second and a half.
      for (let frame = 0; frame < 40; frame++) {
        context.fillStyle = `hsl(${frame * 9}, 70%, 45%)`;
        context.fillRect(0, 0, 320, 180);
        context.fillStyle = '#fff';
        context.font = '32px sans-serif';
        context.fillText(`frame ${frame}`, 90, 100);
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      recorder.stop();
      await stopped;
      const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    });
    return Buffer.from(base64, 'base64');
  } finally {
    await page.close();
  }
}

export const SRT =
  '1\n00:00:00,000 --> 00:00:05,000\nHello from the SubRip file\n\n2\n00:00:05,000 --> 00:00:09,000\nSecond line\n';
export const SRT_ZH = '1\n00:00:00,000 --> 00:00:05,000\n你好，这是中文字幕\n';
export const VTT_EN = 'WEBVTT\n\n00:00.000 --> 00:05.000\nHello from the WebVTT file\n';

/** A VOD playlist of two segments beside it. */
export const M3U8 =
  '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2.0,\nseg0.ts\n#EXTINF:2.0,\nseg1.ts\n#EXT-X-ENDLIST\n';

/** Two MPEG-TS packets' worth of bytes (sync bytes, no media): enough to be fetched, not to play. */
export function tsSegment(): Buffer {
  const packet = Buffer.alloc(188, 0xff);
  packet[0] = 0x47;
  return Buffer.concat([packet, packet]);
}

export const TS_SOURCE = `// A small TypeScript module for the code preview.
export interface Point {
  x: number;
  y: number;
}

export function distance(a: Point, b: Point): number {
  const dx = a.x - b.x;
  const dy = a.y - b.y;
  return Math.sqrt(dx * dx + dy * dy);
}

const origin: Point = { x: 0, y: 0 };
console.log(distance(origin, { x: 3, y: 4 })); // 5
`;

/** A Python file larger than the highlighted part (128 KB): the rest shows plain. */
export function bigPython(): string {
  let text = 'import math\n\n';
  for (let i = 0; text.length < 200 * 1024; i++) text += `def f${i}(x):\n    return math.sqrt(x) + ${i}\n\n`;
  return text;
}
