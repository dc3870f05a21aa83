/**
 * The rendered preview as a PNG, via html-to-image (loaded only when the user exports).
 * A copy of the content is laid out off screen at a readable width, so what is captured does not
 * depend on the current viewport or on whether the preview tab is showing.
 */
import { toBlob } from 'html-to-image';

export async function elementToPng(
  source: HTMLElement,
  options: { background: string; width?: number },
): Promise<Blob> {
  const width = options.width ?? 860;
  const host = document.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  host.style.cssText = `position:fixed;left:-20000px;top:0;width:${width}px;pointer-events:none;`;
  const frame = document.createElement('div');
  frame.style.cssText = `width:${width}px;padding:40px;box-sizing:border-box;background:${options.background};`;
  const clone = source.cloneNode(true) as HTMLElement;
  clone.removeAttribute('id');
  clone.classList.remove('hidden');
  clone.style.maxWidth = 'none';
  for (const header of clone.querySelectorAll('.md-code-header button')) header.remove();
  frame.append(clone);
  host.append(frame);
  document.body.append(host);
  try {
    await Promise.all(
      [...frame.querySelectorAll('img')].map((img) =>
        img.complete
          ? Promise.resolve()
          : new Promise((resolve) => img.addEventListener('load', resolve, { once: true })),
      ),
    );
    const blob = await toBlob(frame, {
      pixelRatio: 2,
      backgroundColor: options.background,
      cacheBust: false,
      // Remote images without CORS would break the capture: leave them out instead.
      imagePlaceholder: 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7',
    });
    if (!blob) throw new Error('empty image');
    return blob;
  } finally {
    host.remove();
  }
}
