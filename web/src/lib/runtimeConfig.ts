/**
 * The runtime config a hosting page may inject (a reverse proxy or container entrypoint), read
 * ONCE when this module loads — at boot, before any user content is rendered — and frozen.
 *
 * Sources, first that is valid wins:
 * 1. `<script type="application/json" id="clipnest-config">{"apiBaseUrl": "…"}</script>` in the page;
 * 2. `window.__CLIPNEST_CONFIG__ = { apiBaseUrl: "…" }` set by a script before the app.
 *
 * Page content can never replace it: later DOM (e.g. `<div id="__CLIPNEST_CONFIG__">` in rendered
 * Markdown, which would shadow the global by DOM clobbering) is never read, and the global only
 * counts when it is a plain object, not an Element or HTMLCollection.
 */
export interface RuntimeConfig {
  apiBaseUrl?: string;
}

export const CONFIG_SCRIPT_ID = 'clipnest-config';

/** A plain `{}` object (not a DOM node, collection or class instance). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Keeps only known, well-formed fields: apiBaseUrl must be an absolute http(s) URL. */
export function parseRuntimeConfig(value: unknown): RuntimeConfig | null {
  if (!isPlainObject(value)) return null;
  const config: RuntimeConfig = {};
  const base = value.apiBaseUrl;
  if (typeof base === 'string' && /^https?:\/\/[^\s]+$/i.test(base)) config.apiBaseUrl = base;
  return config;
}

function fromScript(doc: Document | undefined): RuntimeConfig | null {
  const el = doc?.getElementById(CONFIG_SCRIPT_ID);
  if (!el || el.tagName !== 'SCRIPT' || el.getAttribute('type') !== 'application/json') return null;
  try {
    return parseRuntimeConfig(JSON.parse(el.textContent || 'null'));
  } catch {
    return null;
  }
}

/** Reads the config from a window (exported for tests; the app uses `runtimeConfig`). */
export function readRuntimeConfig(win: Window | undefined): Readonly<RuntimeConfig> {
  if (!win) return Object.freeze({});
  const config = fromScript(win.document as Document | undefined) ?? parseRuntimeConfig(win.__CLIPNEST_CONFIG__) ?? {};
  return Object.freeze(config);
}

export const runtimeConfig: Readonly<RuntimeConfig> = readRuntimeConfig(
  typeof window === 'undefined' ? undefined : window,
);
