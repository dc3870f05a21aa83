/**
 * Mermaid, loaded on first use. Diagrams are drawn with securityLevel 'strict', the SVG is
 * sanitised again and shown as an <img>: an image runs no script and cannot style the page.
 */
import type MermaidDefault from 'mermaid';
import { sanitizeSvg } from './sanitize';

type MermaidApi = typeof MermaidDefault;

let mermaidPromise: Promise<MermaidApi> | null = null;
let currentTheme: string | null = null;
let queue: Promise<unknown> = Promise.resolve();
let counter = 0;

function load(): Promise<MermaidApi> {
  mermaidPromise ??= import('mermaid').then((mod) => mod.default);
  return mermaidPromise;
}

function configure(mermaid: MermaidApi, dark: boolean): void {
  const theme = dark ? 'dark' : 'default';
  if (currentTheme === theme) return;
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: 'strict',
    theme,
    htmlLabels: false,
    flowchart: { htmlLabels: false },
    maxTextSize: 100_000,
    maxEdges: 2_000,
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, "Noto Sans CJK SC", sans-serif',
  });
  currentTheme = theme;
}

/** Makes the SVG self-sized (an <img> needs width/height) and returns it as XML. */
function toImageSvg(svgMarkup: string): { xml: string; width: number; height: number } | null {
  const clean = sanitizeSvg(svgMarkup);
  const doc = new DOMParser().parseFromString(`<body>${clean}</body>`, 'text/html');
  const svg = doc.querySelector('svg');
  if (!svg) return null;
  const box = (svg.getAttribute('viewBox') ?? '').split(/[\s,]+/).map(Number);
  const width = Math.max(1, Math.ceil(box[2] ?? 0) || 600);
  const height = Math.max(1, Math.ceil(box[3] ?? 0) || 400);
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  svg.removeAttribute('style');
  return { xml: new XMLSerializer().serializeToString(svg), width, height };
}

export interface MermaidResult {
  src: string;
  width: number;
  height: number;
}

/** Renders one diagram; rejects with Mermaid's message on a syntax error. Calls run one at a time. */
export function renderMermaid(code: string, dark: boolean): Promise<MermaidResult> {
  const run = async (): Promise<MermaidResult> => {
    const mermaid = await load();
    configure(mermaid, dark);
    counter += 1;
    const id = `md-mermaid-${counter}`;
    try {
      const { svg } = await mermaid.render(id, code);
      const image = toImageSvg(svg);
      if (!image) throw new Error('empty diagram');
      return {
        src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(image.xml)}`,
        width: image.width,
        height: image.height,
      };
    } finally {
      // Mermaid leaves its scratch element behind when a diagram fails.
      document.getElementById(id)?.remove();
      document.getElementById(`d${id}`)?.remove();
    }
  };
  const next = queue.then(run, run);
  queue = next.catch(() => undefined);
  return next;
}
