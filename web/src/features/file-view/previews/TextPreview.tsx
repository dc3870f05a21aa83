import { fileExtension } from '@clipnest/contract/file-kinds';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/useTranslation';
import { MarkdownView } from '../../../components/markdown';
import { Alert } from '../../../components/ui/alert';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatBytes } from '../../../lib/format';
import './highlight.css';

/** Text previews read at most this many bytes (a Range request); more is "truncated". */
export const TEXT_PREVIEW_LIMIT = 1024 * 1024;
/** Only this much of a text is highlighted (cut at a line end); the rest shows plain, so a big file stays fast. */
export const HIGHLIGHT_CHARS = 128 * 1024;

const LANG_BY_EXT: Record<string, string> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescript',
  py: 'python',
  rb: 'ruby',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  cc: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  php: 'php',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  ps1: 'powershell',
  sql: 'sql',
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'ini',
  ini: 'ini',
  conf: 'ini',
  properties: 'ini',
  xml: 'xml',
  html: 'xml',
  htm: 'xml',
  svg: 'xml',
  css: 'css',
  scss: 'scss',
  less: 'scss',
  swift: 'swift',
  lua: 'lua',
  pl: 'perl',
  r: 'r',
  dart: 'dart',
  diff: 'diff',
  patch: 'diff',
  graphql: 'graphql',
  vue: 'xml',
};

/** The part of `text` to highlight: all of it, or up to the last line end within HIGHLIGHT_CHARS. */
export function highlightedPart(text: string, limit = HIGHLIGHT_CHARS): number {
  if (text.length <= limit) return text.length;
  const cut = text.lastIndexOf('\n', limit);
  return cut > 0 ? cut + 1 : limit;
}

export function languageFor(filename: string): string | undefined {
  const lower = filename.toLowerCase();
  if (lower === 'dockerfile' || lower.endsWith('/dockerfile')) return 'dockerfile';
  if (lower === 'makefile') return 'makefile';
  return LANG_BY_EXT[fileExtension(filename)];
}

/** Reads the first TEXT_PREVIEW_LIMIT bytes of a file as UTF-8 text. */
export function useFileText(src: string) {
  return useQuery({
    queryKey: ['file-text', src],
    queryFn: async ({ signal }) => {
      const response = await fetch(src, { signal, headers: { Range: `bytes=0-${TEXT_PREVIEW_LIMIT - 1}` } });
      if (!response.ok) throw new Error(String(response.status));
      const buffer = await response.arrayBuffer();
      const range = response.headers.get('Content-Range');
      const total = range ? Number(range.split('/')[1]) : buffer.byteLength;
      const bytes = buffer.byteLength > TEXT_PREVIEW_LIMIT ? buffer.slice(0, TEXT_PREVIEW_LIMIT) : buffer;
      const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
      return {
        text,
        truncated: (Number.isFinite(total) && total > bytes.byteLength) || buffer.byteLength > TEXT_PREVIEW_LIMIT,
      };
    },
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

function TextSkeleton() {
  return (
    <div className="space-y-2 rounded-lg border border-border bg-surface p-4">
      {['w-4/5', 'w-2/3', 'w-11/12', 'w-2/5', 'w-3/4', 'w-1/2'].map((w) => (
        <Skeleton key={w} className={`h-4 ${w}`} />
      ))}
    </div>
  );
}

function Truncated() {
  const { t } = useTranslation();
  return <Alert tone="warning">{t('errors.preview.textTruncated')}</Alert>;
}

/**
 * Plain text and code with line numbers, highlighted by highlight.js: its core and only the grammar the file's
 * name asks for are loaded, on demand. A big file is highlighted up to HIGHLIGHT_CHARS and plain after.
 */
export function CodePreview({ src, filename, onError }: { src: string; filename: string; onError: () => void }) {
  const { t, i18n } = useTranslation();
  const file = useFileText(src);
  const [highlighted, setHighlighted] = useState<{ text: string; html: string } | null>(null);
  const language = languageFor(filename);
  const text = file.data?.text;
  const html = highlighted && highlighted.text === text ? highlighted.html : null;

  useEffect(() => {
    if (file.isError) onError();
  }, [file.isError, onError]);

  useEffect(() => {
    if (text === undefined || !language) return;
    let cancelled = false;
    void import('../../../components/markdown/highlight').then(async ({ highlightCode, loadLanguage }) => {
      const name = await loadLanguage(language).catch(() => null);
      if (cancelled || !name) return;
      // highlight.js escapes the source; the result holds only its own <span class> markup.
      const part = highlightedPart(text);
      const html = highlightCode(text.slice(0, part), name);
      if (html !== null && !cancelled) setHighlighted({ text, html });
    });
    return () => {
      cancelled = true;
    };
  }, [text, language]);

  if (file.isPending) return <TextSkeleton />;
  if (file.isError || text === undefined) return null;
  // A final line end closes the last line; it does not start another.
  const lineCount = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const part = highlightedPart(text);
  const numbers = Array.from({ length: lineCount }, (_, i) => i + 1).join('\n');
  return (
    <div className="flex flex-col gap-2">
      {file.data.truncated && <Truncated />}
      {part < text.length && (
        <p className="text-xs text-muted-foreground" data-testid="highlight-partial">
          {t('preview.code.partial', { size: formatBytes(part, i18n.language) })}
        </p>
      )}
      <div className="overflow-hidden rounded-lg border border-border bg-surface">
        <div className="flex h-9 items-center justify-between border-b border-border bg-surface-muted px-3 text-xs text-muted-foreground">
          <span className="font-mono" data-testid="code-language">
            {language ?? t('files.view.plainText')}
          </span>
          <span>{t('files.view.lines', { count: lineCount })}</span>
        </div>
        <div className="hljs flex max-h-[75dvh] overflow-auto font-mono text-[13px] leading-relaxed">
          <pre
            aria-hidden="true"
            className="sticky start-0 shrink-0 border-e border-border bg-surface-muted px-3 py-4 text-end text-muted-foreground select-none"
            data-testid="line-numbers"
          >
            {numbers}
          </pre>
          <pre className="min-w-0 flex-1 px-4 py-4" data-testid="text-preview">
            {html !== null ? (
              <code>
                <span dangerouslySetInnerHTML={{ __html: html }} />
                {text.slice(part)}
              </code>
            ) : (
              <code>{text}</code>
            )}
          </pre>
        </div>
      </div>
    </div>
  );
}

/** Markdown through the paste renderer and its strict sanitiser: an uploaded .md can do no more than a paste. */
export function MarkdownPreview({ src, onError }: { src: string; onError: () => void }) {
  const file = useFileText(src);
  const text = file.data?.text;
  useEffect(() => {
    if (file.isError) onError();
  }, [file.isError, onError]);
  if (file.isPending) return <TextSkeleton />;
  if (file.isError || text === undefined) return null;
  return (
    <div className="flex flex-col gap-2">
      {file.data?.truncated && <Truncated />}
      <article className="rounded-lg border border-border bg-surface px-5 py-6 sm:px-8" data-testid="markdown-preview">
        <MarkdownView source={text} className="mx-auto" />
      </article>
    </div>
  );
}
