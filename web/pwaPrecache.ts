/**
 * Keeps the service-worker precache to the app shell: the entry chunk, what it imports statically,
 * their CSS, the text chunks (per language and area), and the non-script files (icons, manifest). Every screen, editor, viewer, diagram and
 * export library is loaded on demand and cached when first used (runtime caching in vite.config.ts),
 * so the first visit of a shared paste link does not download the whole app in the background.
 */
import type { Plugin } from 'vite';
import { importClosure, type ChunkNode } from './chunkGraph.ts';

/**
 * Lazy modules the shell needs while offline, though it loads them only on demand: the offline database,
 * the request queue, the offline fallback (a paste written offline must queue without a network) and the
 * toaster (the offline toasts are often the first toast of a visit).
 */
const OFFLINE_MODULES =
  /[\\/]src[\\/](lib[\\/]offline|app[\\/]pwa)[\\/]|[\\/]node_modules[\\/]sonner[\\/]|[\\/]components[\\/]ui[\\/]sonnerToaster/;

/**
 * A chunk of the offline layer: loaded for one of its modules (its facade), or a shared chunk made only of them
 * (and packages). A screen that merely has a small offline helper copied into it (vite.config.ts inlines small shared pieces) is not.
 */
function isOfflineChunk(chunk: ChunkNode): boolean {
  if (chunk.facadeModuleId) return OFFLINE_MODULES.test(chunk.facadeModuleId);
  const ids = chunk.moduleIds ?? [];
  const ours = ids.filter((id) => !/[\\/]node_modules[\\/]/.test(id));
  return ids.some((id) => OFFLINE_MODULES.test(id)) && ours.every((id) => OFFLINE_MODULES.test(id));
}

/** The entry chunks, the offline layer's chunks, everything they import statically, and their CSS. */
export function shellFiles(chunks: readonly ChunkNode[]): Set<string> {
  const starts = chunks.filter((chunk) => chunk.isEntry || isOfflineChunk(chunk)).map((chunk) => chunk.fileName);
  const shell = new Set(importClosure(chunks, starts, { css: true }));
  // The texts load per language and area next to the shell (lib/i18n.ts): small, and needed offline to render at all.
  for (const chunk of chunks) {
    const ids = chunk.moduleIds ?? [];
    if (ids.length > 0 && ids.every((id) => /[\\/]src[\\/]locales[\\/].+\.json$/.test(id))) shell.add(chunk.fileName);
  }
  return shell;
}

/** Built scripts and styles; anything else (html, icons, manifest) is always precached. */
const BUNDLED = /^assets\/.+\.(js|css)$/;

/** A build plugin that finds the shell, and the workbox manifest transform that drops everything else. */
export function shellPrecache() {
  let shell = new Set<string>();
  const plugin: Plugin = {
    name: 'clipnest:shell-precache',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk') as unknown as ChunkNode[];
      shell = shellFiles(chunks);
    },
  };
  const manifestTransform = async <T extends { url: string }>(entries: T[]) => ({
    manifest: entries.filter((entry) => !BUNDLED.test(entry.url) || shell.has(entry.url)),
    warnings: [] as string[],
  });
  return { plugin, manifestTransform };
}
