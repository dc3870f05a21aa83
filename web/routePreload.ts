/**
 * Starts the first screen's code and texts together with the shell. Without it a cold load is a chain: the
 * HTML, then the shell, which (once run) asks for the screen, which asks for the Markdown renderer, each a round
 * trip on a slow link (issue 21). The build writes a small inline script into index.html that, for the path being
 * opened, adds `<link rel="modulepreload">` for that screen's chunks, the core texts and the screen's text areas in
 * the reader's language (chosen as lib/language.ts does). It never fetches data: a link unfurler reading the HTML
 * must not count a paste view.
 */
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { importClosure, type ChunkNode } from './chunkGraph.ts';

/** What the first screen of a path needs: source modules (relative to web/), `{lang}` standing for the language. */
export type ScreenModules = Record<string, readonly string[]>;

const LANGUAGES = ['en', 'zh-CN'] as const;
/** Core texts every screen renders with (lib/i18n.ts). */
const CORE_TEXTS = 'src/locales/{lang}.json';

const normalise = (id: string) => id.replaceAll('\\', '/');

/** The chunk holding `module` and every chunk it imports statically, less the shell (already preloaded). */
function closure(chunks: ChunkNode[], module: string, shell: ReadonlySet<string>): string[] {
  const start = chunks.find((chunk) => chunk.moduleIds?.some((id) => normalise(id).endsWith(`/web/${module}`)));
  if (!start) throw new Error(`routePreload: no chunk holds ${module}`);
  return importClosure(chunks, [start.fileName], { stop: shell, css: true });
}

/** Path's first segment → language → files to preload. */
export function preloadMap(chunks: ChunkNode[], screens: ScreenModules): Record<string, Record<string, string[]>> {
  const shell = new Set(
    importClosure(
      chunks,
      chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName),
    ),
  );
  const map: Record<string, Record<string, string[]>> = {};
  for (const [segment, modules] of Object.entries(screens)) {
    map[segment] = {};
    for (const lang of LANGUAGES) {
      const files = new Set<string>();
      for (const module of [CORE_TEXTS, ...modules]) {
        for (const file of closure(chunks, module.replaceAll('{lang}', lang), shell)) files.add(file);
      }
      map[segment][lang] = [...files];
    }
  }
  return map;
}

/** The inline script (ES5, runs before the shell's module script is parsed). */
export function preloadScript(map: Record<string, Record<string, string[]>>, base: string): string {
  return `(function () {
  var map = ${JSON.stringify(map)};
  var lang;
  try { lang = localStorage.getItem('language'); } catch (e) {}
  if (lang !== 'en' && lang !== 'zh-CN') {
    var browser = (navigator.languages && navigator.languages[0]) || navigator.language || '';
    lang = !browser || browser.toLowerCase().indexOf('zh') === 0 ? 'zh-CN' : 'en';
  }
  var screen = map[location.pathname.split('/')[1] || ''];
  var files = (screen && screen[lang]) || [];
  for (var i = 0; i < files.length; i++) {
    var link = document.createElement('link');
    var css = files[i].slice(-4) === '.css';
    // A stylesheet is only fetched here; the screen's code adds it when it renders, as it always did.
    link.rel = css ? 'preload' : 'modulepreload';
    if (css) link.as = 'style';
    link.crossOrigin = '';
    link.href = ${JSON.stringify(base)} + files[i];
    document.head.appendChild(link);
  }
})();`;
}

export function routePreload(screens: ScreenModules): Plugin {
  let base = '/';
  return {
    name: 'clipnest-route-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx): HtmlTagDescriptor[] {
        if (!ctx.bundle) return [];
        const chunks = Object.values(ctx.bundle).filter(
          (item): item is typeof item & ChunkNode => item.type === 'chunk',
        );
        const script = preloadScript(preloadMap(chunks, screens), base);
        return [{ tag: 'script', children: script, injectTo: 'head' }];
      },
    },
  };
}
