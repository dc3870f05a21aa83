import { describe, expect, it } from 'vitest';
import { shellFiles } from './pwaPrecache';

const chunk = (fileName: string, imports: string[] = [], css: string[] = [], isEntry = false) => ({
  fileName,
  isEntry,
  imports,
  viteMetadata: { importedCss: new Set(css) },
});

describe('shellFiles', () => {
  it('keeps the entry, its static imports and their CSS, never lazily loaded screens', () => {
    const shell = shellFiles([
      chunk('assets/index.js', ['assets/react.js'], ['assets/index.css'], true),
      chunk('assets/react.js', ['assets/runtime.js']),
      chunk('assets/runtime.js'),
      chunk('assets/PasteViewPage.js', ['assets/react.js'], ['assets/markdown.css']),
      chunk('assets/mermaid.js'),
    ]);
    expect([...shell].sort()).toEqual(['assets/index.css', 'assets/index.js', 'assets/react.js', 'assets/runtime.js']);
  });

  it('adds the text chunks, which load next to the shell', () => {
    const shell = shellFiles([
      chunk('assets/index.js', [], [], true),
      { ...chunk('assets/en.js'), moduleIds: ['/app/web/src/locales/en.json'] },
      { ...chunk('assets/paste.js'), moduleIds: ['/app/web/src/locales/zh-CN/paste.json'] },
      { ...chunk('assets/PasteViewPage.js'), moduleIds: ['/app/web/src/features/paste-view/PasteViewPage.tsx'] },
    ]);
    expect([...shell].sort()).toEqual(['assets/en.js', 'assets/index.js', 'assets/paste.js']);
  });

  it('adds the offline layer (queue, database, fallback) though it loads lazily: a paste written offline must queue', () => {
    const shell = shellFiles([
      chunk('assets/index.js', [], [], true),
      { ...chunk('assets/queue.js', ['assets/db.js']), moduleIds: ['/repo/web/src/lib/offline/queue.ts'] },
      {
        ...chunk('assets/db.js'),
        moduleIds: ['/repo/web/src/lib/offline/db.ts', '/repo/node_modules/idb/build/index.js'],
      },
      { ...chunk('assets/QueueDialog.js'), moduleIds: ['/repo/web/src/app/pwa/QueueDialog.tsx'] },
      { ...chunk('assets/UploadPage.js'), moduleIds: ['/repo/web/src/features/upload/UploadPage.tsx'] },
      // A screen with a small offline helper copied into it stays out.
      {
        ...chunk('assets/HomePage.js'),
        facadeModuleId: '/repo/web/src/features/home/HomePage.tsx',
        moduleIds: ['/repo/web/src/features/home/HomePage.tsx', '/repo/web/src/lib/offline/queueable.ts'],
      },
    ]);
    expect([...shell].sort()).toEqual(['assets/QueueDialog.js', 'assets/db.js', 'assets/index.js', 'assets/queue.js']);
  });
});
