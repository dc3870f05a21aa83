/** The build's chunk graph, as the plugins that pick files from it (routePreload.ts, pwaPrecache.ts) see it. */
export interface ChunkNode {
  fileName: string;
  isEntry: boolean;
  imports: string[];
  moduleIds?: string[];
  facadeModuleId?: string | null;
  viteMetadata?: { importedCss: Set<string> };
}

/**
 * The chunks `starts` import statically, transitively, starts included, in the order met (depth first); chunks in
 * `stop` are not entered. With `css`, each chunk's stylesheets follow it.
 */
export function importClosure(
  chunks: readonly ChunkNode[],
  starts: readonly string[],
  { stop, css = false }: { stop?: ReadonlySet<string>; css?: boolean } = {},
): string[] {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const seen = new Set<string>();
  const out: string[] = [];
  const queue = [...starts];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    const chunk = byName.get(name);
    if (!chunk || seen.has(name) || stop?.has(name)) continue;
    seen.add(name);
    out.push(name);
    queue.push(...chunk.imports);
    if (css) for (const sheet of chunk.viteMetadata?.importedCss ?? []) if (!out.includes(sheet)) out.push(sheet);
  }
  return out;
}
