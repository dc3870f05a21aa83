import DOMPurify from 'dompurify';
import { marked } from 'marked';

let hooked = false;

/** Markdown → sanitised HTML for short site texts (footer, announcement). Links open in a new tab. */
export function renderSafeMarkdown(markdown: string): string {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A' && node.getAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
    hooked = true;
  }
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}
