import { describe, expect, it } from 'vitest';
import { preloadMap, preloadScript } from './routePreload';

const chunk = (fileName: string, moduleIds: string[], imports: string[] = [], isEntry = false, css: string[] = []) => ({
  type: 'chunk' as const,
  fileName,
  isEntry,
  imports,
  moduleIds: moduleIds.map((id) => `/repo/web/${id}`),
  viteMetadata: { importedCss: new Set(css) },
});

const chunks = [
  chunk('assets/index.js', ['src/main.tsx'], ['assets/shell.js'], true),
  chunk('assets/shell.js', ['src/app/App.tsx']),
  chunk('assets/en.js', ['src/locales/en.json']),
  chunk('assets/zh-CN.js', ['src/locales/zh-CN.json']),
  chunk('assets/en-paste.js', ['src/locales/en/paste.json']),
  chunk('assets/zh-paste.js', ['src/locales/zh-CN/paste.json']),
  chunk('assets/Paste.js', ['src/features/paste-view/PasteViewPage.tsx'], ['assets/shell.js', 'assets/ui.js'], false, [
    'assets/Paste.css',
  ]),
  chunk('assets/ui.js', ['src/components/ui/button.tsx']),
];

describe('route preload', () => {
  it('lists a screen, what it imports and its texts per language, never the shell the page loads anyway', () => {
    const map = preloadMap(chunks, {
      paste: ['src/features/paste-view/PasteViewPage.tsx', 'src/locales/{lang}/paste.json'],
    });
    expect(map.paste?.en?.sort()).toEqual([
      'assets/Paste.css',
      'assets/Paste.js',
      'assets/en-paste.js',
      'assets/en.js',
      'assets/ui.js',
    ]);
    expect(map.paste?.['zh-CN']).toContain('assets/zh-paste.js');
    expect(map.paste?.['zh-CN']).not.toContain('assets/en.js');
  });

  it('fails the build when a named module is in no chunk (a renamed screen must not silently lose its preload)', () => {
    expect(() => preloadMap(chunks, { file: ['src/features/file-view/FileViewPage.tsx'] })).toThrow(/FileViewPage/);
  });

  it('writes a script that only adds preload links (no data request)', () => {
    const script = preloadScript({ paste: { en: ['assets/Paste.js'], 'zh-CN': ['assets/Paste.js'] } }, '/');
    expect(script).toContain("'modulepreload'");
    expect(script).not.toMatch(/fetch\(|XMLHttpRequest|\/api\//);
    expect(() => new Function(script)).not.toThrow();
  });
});
