/**
 * Adds the chrome around sanitised Markdown in the page: code block headers (language label and
 * copy button), scroll wrappers for wide tables, and Mermaid diagrams. Everything here is built
 * with DOM APIs from our own strings, never from the paste's markup.
 */
import { resolveLanguage } from './grammars';

export interface EnhanceLabels {
  copyCode: string;
  diagram: string;
  diagramError: string;
  code: string;
}

const LANGUAGE_NAMES: Record<string, string> = {
  bash: 'Bash',
  c: 'C',
  cpp: 'C++',
  csharp: 'C#',
  css: 'CSS',
  dart: 'Dart',
  diff: 'Diff',
  dockerfile: 'Dockerfile',
  go: 'Go',
  graphql: 'GraphQL',
  ini: 'INI',
  java: 'Java',
  javascript: 'JavaScript',
  json: 'JSON',
  kotlin: 'Kotlin',
  lua: 'Lua',
  makefile: 'Makefile',
  markdown: 'Markdown',
  nginx: 'Nginx',
  perl: 'Perl',
  php: 'PHP',
  plaintext: 'Text',
  powershell: 'PowerShell',
  python: 'Python',
  r: 'R',
  ruby: 'Ruby',
  rust: 'Rust',
  scss: 'SCSS',
  shell: 'Shell',
  sql: 'SQL',
  swift: 'Swift',
  typescript: 'TypeScript',
  xml: 'HTML/XML',
  yaml: 'YAML',
};

function languageLabel(code: HTMLElement, fallback: string): string {
  const cls = [...code.classList].find((c) => c.startsWith('language-'));
  if (!cls) return fallback;
  const word = cls.slice('language-'.length);
  if (word.toLowerCase() === 'toml') return 'TOML';
  if (word.toLowerCase() === 'tsx') return 'TSX';
  if (word.toLowerCase() === 'jsx') return 'JSX';
  const name = resolveLanguage(word);
  return (name && LANGUAGE_NAMES[name]) || word;
}

function codeHeader(code: HTMLElement, labels: EnhanceLabels): HTMLElement {
  const header = document.createElement('div');
  header.className = 'md-code-header';
  const lang = document.createElement('span');
  lang.className = 'md-code-lang';
  lang.textContent = languageLabel(code, labels.code);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'md-code-copy';
  button.dataset.mdCopy = '';
  button.setAttribute('aria-label', labels.copyCode);
  button.title = labels.copyCode;
  // lucide "copy" icon, drawn here so the button needs no React root.
  button.innerHTML =
    '<svg xmlns="http://www.w3.org/2000/svg" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><rect width="14" height="14" x="8" y="8" rx="2" ry="2"/><path d="M4 16c-1.1 0-2-.9-2-2V4c0-1.1.9-2 2-2h10c1.1 0 2 .9 2 2"/></svg>';
  const text = document.createElement('span');
  text.textContent = labels.copyCode;
  text.className = 'md-code-copy-text';
  button.append(text);
  header.append(lang, button);
  return header;
}

/** Decorates `root` in place. Returns a cancel function for pending diagrams. */
export function enhanceMarkdown(root: HTMLElement, labels: EnhanceLabels, dark: boolean): () => void {
  let cancelled = false;

  for (const code of root.querySelectorAll<HTMLElement>('pre > code')) {
    const pre = code.parentElement as HTMLElement;
    if (pre.classList.contains('md-mermaid') || pre.parentElement?.classList.contains('md-code')) continue;
    const box = document.createElement('div');
    box.className = 'md-code';
    pre.replaceWith(box);
    box.append(codeHeader(code, labels), pre);
  }

  // GFM task items: the checkbox is named by its item's text (WCAG: form controls need labels).
  for (const box of root.querySelectorAll<HTMLInputElement>('li > input[type="checkbox"]')) {
    const text = (box.parentElement?.textContent ?? '').trim().slice(0, 120);
    if (text) box.setAttribute('aria-label', text);
  }

  for (const table of root.querySelectorAll('table')) {
    if (table.parentElement?.classList.contains('md-table-wrap')) continue;
    const wrap = document.createElement('div');
    wrap.className = 'md-table-wrap';
    table.replaceWith(wrap);
    wrap.append(table);
  }

  for (const pre of root.querySelectorAll<HTMLElement>('pre.md-mermaid')) {
    const source = pre.textContent ?? '';
    pre.setAttribute('aria-busy', 'true');
    // The diagram code (and mermaid itself) loads only for a page that has a diagram.
    import('./mermaid')
      .then(({ renderMermaid }) => renderMermaid(source, dark))
      .then(
        (result) => {
          if (cancelled || !pre.isConnected) return;
          const figure = document.createElement('figure');
          figure.className = 'md-diagram';
          const img = document.createElement('img');
          img.src = result.src;
          img.width = result.width;
          img.height = result.height;
          img.alt = labels.diagram;
          img.decoding = 'async';
          figure.append(img);
          pre.replaceWith(figure);
        },
        (error: unknown) => {
          if (cancelled || !pre.isConnected) return;
          pre.removeAttribute('aria-busy');
          const note = document.createElement('p');
          note.className = 'md-diagram-error';
          note.setAttribute('role', 'note');
          const reason = error instanceof Error ? error.message.split('\n')[0] : '';
          note.textContent = reason ? `${labels.diagramError}: ${reason}` : labels.diagramError;
          pre.before(note);
        },
      );
  }

  return () => {
    cancelled = true;
  };
}
