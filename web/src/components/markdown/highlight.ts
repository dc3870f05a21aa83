/**
 * highlight.js with languages loaded on demand: the core is small, each grammar is its own chunk
 * fetched only when a code fence names it.
 */
import hljs from 'highlight.js/lib/core';
import { fenceLanguages, LOADERS, resolveLanguage } from './grammars';

const loading = new Map<string, Promise<void>>();

/** Loads the grammars named by the fences in `markdown` (only those not loaded yet). */
export async function loadLanguagesFor(markdown: string): Promise<void> {
  const wanted = [...fenceLanguages(markdown)].filter((name) => !hljs.getLanguage(name));
  await Promise.all(
    wanted.map((name) => {
      let pending = loading.get(name);
      if (!pending) {
        pending = LOADERS[name]!()
          .then((mod) => hljs.registerLanguage(name, mod.default))
          .catch(() => {
            loading.delete(name);
          });
        loading.set(name, pending);
      }
      return pending;
    }),
  );
}

/** Highlighted HTML (escaped by highlight.js) or null when the language is unknown or not loaded. */
export function highlightCode(code: string, lang: string | undefined): string | null {
  const name = resolveLanguage(lang);
  if (!name || !hljs.getLanguage(name)) return null;
  try {
    return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  } catch {
    return null;
  }
}

/** Loads one grammar (by a language word or file extension); resolves to its name, or null when we have none. */
export async function loadLanguage(lang: string): Promise<string | null> {
  const name = resolveLanguage(lang);
  if (!name || !LOADERS[name]) return null;
  if (!hljs.getLanguage(name)) {
    const mod = await LOADERS[name]();
    hljs.registerLanguage(name, mod.default);
  }
  return name;
}
