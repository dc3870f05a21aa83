import { useEffect } from 'react';
import { useSiteConfig } from '../../lib/siteConfig';

/**
 * Injects the admin's custom head and body HTML (Admin → Settings → Site) into every page.
 *
 * SECURITY: this content is ADMIN-TRUSTED and deliberately NOT sanitised — it exists for analytics
 * snippets, extra styles and meta tags, so <script> elements in it run. Anyone holding the admin
 * login can therefore run script in visitors' browsers (see README "Security notes").
 *
 * The app shell's Content-Security-Policy forbids inline script; the server writes a per-response nonce
 * into `<meta name="clipnest-csp-nonce">` and only the admin's `<script>` elements get it here (so they
 * run, while markup from pastes, file names or Markdown never can). Inline event handlers (`onclick=`)
 * in the admin's code do not run: see docs/security.md.
 */
function cspNonce(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="clipnest-csp-nonce"]')?.content ?? '';
}

function inject(html: string, target: HTMLElement, marker: string): () => void {
  if (!html.trim()) return () => {};
  const range = document.createRange();
  range.selectNode(target);
  // createContextualFragment marks <script> elements as executable when they are inserted.
  const fragment = range.createContextualFragment(html);
  const nonce = cspNonce();
  if (nonce) for (const script of Array.from(fragment.querySelectorAll('script'))) script.nonce = nonce;
  const nodes = Array.from(fragment.childNodes);
  for (const node of nodes) {
    if (node instanceof Element) node.setAttribute('data-clipnest-custom', marker);
  }
  target.appendChild(fragment);
  return () => {
    for (const node of nodes) node.parentNode?.removeChild(node);
  };
}

export function SiteCustomizations() {
  const site = useSiteConfig();
  const head = site.site_custom_head;
  const body = site.site_custom_body;
  const favicon = site.site_favicon_url;

  useEffect(() => inject(head, document.head, 'head'), [head]);
  useEffect(() => inject(body, document.body, 'body'), [body]);

  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) return;
    const original = link.getAttribute('href') ?? '/favicon.svg';
    const originalType = link.getAttribute('type');
    if (favicon) {
      link.href = favicon;
      link.removeAttribute('type');
    }
    return () => {
      link.setAttribute('href', original);
      if (originalType) link.setAttribute('type', originalType);
    };
  }, [favicon]);

  return null;
}
