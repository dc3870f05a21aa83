/**
 * Mermaid diagrams as PNG for the Word export: drawn by Mermaid (light theme: a document is printed on white), the
 * SVG rasterised through a canvas. Part of the lazily loaded export; Mermaid itself loads only when a diagram is
 * in the text.
 */
import { renderMermaid } from '../../../components/markdown/mermaid';

export interface DiagramImage {
  /** PNG bytes. */
  data: Uint8Array;
  /** The diagram's size in CSS pixels (the PNG itself is drawn at twice that). */
  width: number;
  height: number;
}

/** Draws an SVG image URL onto a canvas at `scale` and returns the PNG bytes. */
export async function svgToPng(src: string, width: number, height: number, scale = 2): Promise<Uint8Array> {
  const img = new Image();
  img.decoding = 'async';
  await new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error('diagram image failed to load'));
    img.src = src;
  });
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no canvas');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(img, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('diagram image could not be encoded');
  return new Uint8Array(await blob.arrayBuffer());
}

/** One Mermaid source → a PNG (rejects on a syntax error, as the preview does). */
export async function mermaidToPng(source: string): Promise<DiagramImage> {
  const { src, width, height } = await renderMermaid(source, false);
  return { data: await svgToPng(src, width, height), width, height };
}
