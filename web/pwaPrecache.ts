/**
 * Keeps the service-worker precache to the app shell. Diagrams (mermaid), maths (KaTeX), code
 * highlighting, Word and PNG export are loaded on demand and weigh far more than the app itself;
 * precaching them made every install and update download ~5 MB. They are left to the browser cache.
 */
import type { Plugin } from 'vite';

/** Libraries the app only ever imports dynamically, for a feature some pastes use. */
export const LAZY_HEAVY_PACKAGES = ['mermaid', 'katex', 'highlight.js', 'docx', 'html-to-image', 'cytoscape'];

interface ChunkNode {
  fileName: string;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
  modules: Record<string, { renderedLength: number }>;
  viteMetadata?: { importedCss: Set<string> };
}

/** `/x/node_modules/@scope/pkg/dist/a.js` → `@scope/pkg`; null for the app's own modules. */
export function packageOf(moduleId: string): string | null {
  const at = moduleId.lastIndexOf('/node_modules/');
  if (at < 0) return null;
  const [first = '', second = ''] = moduleId.slice(at + '/node_modules/'.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/** Whether at least half of a chunk's code comes from the given packages. */
function mostlyFrom(chunk: ChunkNode, packages: readonly string[]): boolean {
  let heavy = 0;
  let total = 0;
  for (const [id, { renderedLength }] of Object.entries(chunk.modules)) {
    total += renderedLength;
    const pkg = packageOf(id);
    if (pkg && packages.includes(pkg)) heavy += renderedLength;
  }
  return total > 0 && heavy * 2 >= total;
}

/**
 * The output files the shell never needs up front: everything the entry reaches only through a
 * dynamic import of a chunk made mostly of `packages` (that chunk, what it pulls in, and their CSS).
 * Static imports are always followed, so nothing the shell loads eagerly is ever left out.
 */
export function lazyHeavyFiles(chunks: readonly ChunkNode[], packages: readonly string[]): Set<string> {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const shell = new Set<string>();
  const queue = chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName);
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    const chunk = byName.get(name);
    if (shell.has(name) || !chunk) continue;
    shell.add(name);
    queue.push(...chunk.imports);
    for (const target of chunk.dynamicImports) {
      const loaded = byName.get(target);
      if (loaded && !mostlyFrom(loaded, packages)) queue.push(target);
    }
  }
  const cssOf = (list: readonly ChunkNode[]) => list.flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]);
  const shellCss = new Set(cssOf(chunks.filter((chunk) => shell.has(chunk.fileName))));
  const left = chunks.filter((chunk) => !shell.has(chunk.fileName));
  return new Set([...left.map((chunk) => chunk.fileName), ...cssOf(left).filter((css) => !shellCss.has(css))]);
}

/** A build plugin that finds those files, and the workbox manifest transform that drops them. */
export function lazyHeavyPrecache(packages: readonly string[] = LAZY_HEAVY_PACKAGES) {
  let excluded = new Set<string>();
  const plugin: Plugin = {
    name: 'clipnest:lazy-heavy-precache',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk') as unknown as ChunkNode[];
      excluded = lazyHeavyFiles(chunks, packages);
    },
  };
  const manifestTransform = async <T extends { url: string }>(entries: T[]) => ({
    manifest: entries.filter((entry) => !excluded.has(entry.url)),
    warnings: [] as string[],
  });
  return { plugin, manifestTransform };
}
