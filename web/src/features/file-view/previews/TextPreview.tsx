import { fileExtension } from '@clipnest/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Skeleton } from '../../../components/ui/skeleton';
import { renderSafeMarkdown } from '../../../lib/markdown';
import './highlight.css';

/** Text previews read at most this many bytes (a Range request); more is "truncated". */
export const TEXT_PREVIEW_LIMIT = 1024 * 1024;
/** Above this, code is shown without highlighting (it would block the page). */
const HIGHLIGHT_LIMIT = 256 * 1024;

const LANG_BY_EXT: Record<string, string> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
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
  xml: 'xml',
  html: 'xml',
  htm: 'xml',
  svg: 'xml',
  css: 'css',
  scss: 'scss',
  less: 'less',
  swift: 'swift',
  lua: 'lua',
  pl: 'perl',
  r: 'r',
  diff: 'diff',
  patch: 'diff',
  makefile: 'makefile',
  dockerfile: 'dockerfile',
  graphql: 'graphql',
  vue: 'xml',
};

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

/** Plain text and code, highlighted by highlight.js (loaded only when needed). */
export function CodePreview({ src, filename, onError }: { src: string; filename: string; onError: () => void }) {
  const { t } = useTranslation();
  const file = useFileText(src);
  const [highlighted, setHighlighted] = useState<{ text: string; html: string } | null>(null);
  const language = languageFor(filename);
  const text = file.data?.text;
  const html = highlighted && highlighted.text === text ? highlighted.html : null;

  useEffect(() => {
    if (file.isError) onError();
  }, [file.isError, onError]);

  useEffect(() => {
    if (text === undefined || !language || text.length > HIGHLIGHT_LIMIT) return;
    let cancelled = false;
    void import('highlight.js/lib/common').then(({ default: hljs }) => {
      if (cancelled || !hljs.getLanguage(language)) return;
      // highlight.js escapes the source; the result holds only its own <span class> markup.
      setHighlighted({ text, html: hljs.highlight(text, { language, ignoreIllegals: true }).value });
    });
    return () => {
      cancelled = true;
    };
  }, [text, language]);

  if (file.isPending) return <TextSkeleton />;
  if (file.isError || text === undefined) return null;
  const lines = text.split('\n').length;
  return (
    <div className="flex flex-col gap-2">
      {file.data.truncated && <Truncated />}
      <div className="overflow-hidden rounded-lg border border-border bg-surface">
        <div className="flex h-9 items-center justify-between border-b border-border bg-surface-muted px-3 text-xs text-muted-foreground">
          <span className="font-mono">{language ?? t('files.view.plainText')}</span>
          <span>{t('files.view.lines', { count: lines })}</span>
        </div>
        <pre
          className="hljs max-h-[75dvh] overflow-auto p-4 font-mono text-[13px] leading-relaxed"
          data-testid="text-preview"
        >
          {html !== null ? <code dangerouslySetInnerHTML={{ __html: html }} /> : <code>{text}</code>}
        </pre>
      </div>
    </div>
  );
}

/** Document typography for rendered Markdown (DESIGN.md: GitHub-grade, ~72ch). */
const PROSE = [
  'mx-auto max-w-[72ch] break-words text-[15px] leading-7',
  '[&_h1]:mb-4 [&_h1]:mt-6 [&_h1]:border-b [&_h1]:border-border [&_h1]:pb-2 [&_h1]:text-2xl [&_h1]:font-semibold first:[&_h1]:mt-0',
  '[&_h2]:mb-3 [&_h2]:mt-6 [&_h2]:border-b [&_h2]:border-border [&_h2]:pb-1.5 [&_h2]:text-xl [&_h2]:font-semibold',
  '[&_h3]:mb-2 [&_h3]:mt-5 [&_h3]:text-lg [&_h3]:font-semibold [&_h4]:mt-4 [&_h4]:font-semibold',
  '[&_p]:my-3 [&_ul]:my-3 [&_ul]:list-disc [&_ul]:ps-6 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:ps-6 [&_li]:my-1',
  '[&_a]:text-primary-soft-foreground [&_a]:underline [&_a]:underline-offset-2',
  '[&_blockquote]:my-3 [&_blockquote]:border-s-4 [&_blockquote]:border-border [&_blockquote]:ps-4 [&_blockquote]:text-muted-foreground',
  '[&_code]:rounded [&_code]:bg-surface-muted [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.875em]',
  '[&_pre]:my-4 [&_pre]:overflow-auto [&_pre]:rounded-lg [&_pre]:border [&_pre]:border-border [&_pre]:bg-surface-muted [&_pre]:p-4',
  '[&_pre_code]:bg-transparent [&_pre_code]:p-0',
  '[&_table]:my-4 [&_table]:block [&_table]:overflow-x-auto [&_th]:border [&_th]:border-border [&_th]:bg-surface-muted [&_th]:px-3 [&_th]:py-1.5',
  '[&_td]:border [&_td]:border-border [&_td]:px-3 [&_td]:py-1.5 [&_tr:nth-child(even)]:bg-surface-muted/50',
  '[&_img]:max-w-full [&_img]:rounded-md [&_hr]:my-6 [&_hr]:border-border',
].join(' ');

/** Markdown rendered by the shared sanitising renderer (no script, no event handlers). */
export function MarkdownPreview({ src, onError }: { src: string; onError: () => void }) {
  const file = useFileText(src);
  const text = file.data?.text;
  const html = useMemo(() => (text === undefined ? '' : renderSafeMarkdown(text)), [text]);
  useEffect(() => {
    if (file.isError) onError();
  }, [file.isError, onError]);
  if (file.isPending) return <TextSkeleton />;
  if (file.isError) return null;
  return (
    <div className="flex flex-col gap-2">
      {file.data?.truncated && <Truncated />}
      <article className="rounded-lg border border-border bg-surface px-5 py-6 sm:px-8" data-testid="markdown-preview">
        <div className={PROSE} dangerouslySetInnerHTML={{ __html: html }} />
      </article>
    </div>
  );
}
