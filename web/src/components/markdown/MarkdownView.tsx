import { useEffect, useLayoutEffect, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { copyText } from '../../lib/clipboard';
import { cn } from '../../lib/cn';
import { useResolvedTheme } from '../../lib/theme';
import { Skeleton } from '../ui/skeleton';
import type * as RuntimeModule from './runtime';
import './markdown.css';
import { plainParagraph } from './plainParagraph';
import { prefetchGrammars } from './grammars';
import { nextTask } from '../../lib/nextTask';

type Runtime = typeof RuntimeModule;
let runtimePromise: Promise<Runtime> | null = null;

/**
 * Loads the Markdown runtime chunk (marked, highlight.js core, DOMPurify). Its libraries are evaluated one
 * per task (together they take ~30 ms, ~120 ms on a slow phone, in one task that would block input).
 */
export function loadMarkdownRuntime(): Promise<Runtime> {
  runtimePromise ??= (async () => {
    await import('dompurify');
    await nextTask();
    await import('highlight.js/lib/core');
    await nextTask();
    await import('marked');
    await nextTask();
    return import('./runtime');
  })().catch((error: unknown) => {
    runtimePromise = null;
    throw error;
  });
  return runtimePromise;
}

/** Markdown → sanitised HTML, for callers that need the HTML itself (copy as HTML, export). */
export async function markdownToSafeHtml(markdown: string): Promise<string> {
  const runtime = await loadMarkdownRuntime();
  return runtime.renderMarkdown(markdown);
}

/**
 * `source` as sanitised HTML, its code grammars fetched while the runtime loads. The HTML comes back in a task of
 * its own: putting it into the page is a step apart from rendering it.
 */
async function renderSource(source: string, compact: boolean): Promise<string> {
  prefetchGrammars(source);
  const runtime = await loadMarkdownRuntime();
  const html = await runtime.renderMarkdown(source, { breaks: compact });
  await nextTask();
  return html;
}

export interface MarkdownViewProps {
  /** The Markdown source (untrusted). */
  source: string;
  className?: string;
  /** Wait this long after the last change before rendering (live previews). */
  debounceMs?: number;
  /** Called with the sanitised HTML after each render. */
  onRendered?: (html: string) => void;
  /** Shown when the source is empty. */
  emptyText?: string;
  id?: string;
  /**
   * `document` (default): full typography, a skeleton while loading. `compact`: short site texts
   * (footer, announcement) — single newlines break lines, the surrounding text style is kept and
   * nothing shows while loading. Both are sanitised the same way.
   */
  variant?: 'document' | 'compact';
  'data-testid'?: string;
}

/**
 * Renders untrusted Markdown safely: GFM, highlighted code with a language label and copy button,
 * KaTeX math and Mermaid diagrams (both fetched only when used). Typography lives in markdown.css
 * (`.md-body`); the box contains its content, so nothing inside can cover the page around it.
 */
export function MarkdownView({
  source,
  className,
  debounceMs = 0,
  onRendered,
  emptyText,
  id,
  variant = 'document',
  'data-testid': testIdProp,
}: MarkdownViewProps) {
  const compact = variant === 'compact';
  const testId = testIdProp ?? (compact ? undefined : 'markdown-body');
  const { t } = useTranslation();
  const theme = useResolvedTheme();
  const ref = useRef<HTMLDivElement>(null);
  const [rendered, setRendered] = useState<{ source: string; html: string } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const onRenderedRef = useRef(onRendered);
  useEffect(() => {
    onRenderedRef.current = onRendered;
  });

  useEffect(() => {
    let cancelled = false;
    const timer = window.setTimeout(
      () => {
        // Nothing to render (an empty editor), or a plain sentence in a compact view (the default footer):
        // the renderer is not loaded for it.
        const plain = source.trim() ? (compact ? plainParagraph(source) : null) : '';
        (plain !== null ? Promise.resolve(plain) : renderSource(source, compact)).then(
          (html) => {
            if (cancelled) return;
            setFailed(null);
            setRendered({ source, html });
            onRenderedRef.current?.(html);
          },
          (error: unknown) => {
            if (!cancelled) setFailed(error instanceof Error ? error.message : String(error));
          },
        );
      },
      rendered === null ? 0 : debounceMs,
    );
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
    // `rendered` only decides whether the first render waits; it must not retrigger rendering.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source, debounceMs, compact]);

  const html = rendered?.html ?? null;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || html === null) return;
    el.innerHTML = html;
    if (!html) return;
    let cancel: (() => void) | undefined;
    let stale = false;
    void loadMarkdownRuntime().then((runtime) => {
      if (stale) return;
      cancel = runtime.enhanceMarkdown(
        el,
        {
          copyCode: t('paste.markdown.copyCode'),
          diagram: t('paste.markdown.diagram'),
          diagramError: t('paste.markdown.diagramError'),
          code: t('paste.markdown.code'),
        },
        theme === 'dark',
      );
    });
    return () => {
      stale = true;
      cancel?.();
    };
  }, [html, theme, t]);

  async function onClick(event: MouseEvent<HTMLDivElement>) {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-md-copy]');
    if (!button || !ref.current?.contains(button)) return;
    const code = button.closest('.md-code')?.querySelector('pre code');
    const ok = await copyText(code?.textContent ?? '');
    if (ok) {
      toast.success(t('common.copied'));
      button.dataset.copied = 'true';
      window.setTimeout(() => delete button.dataset.copied, 1500);
    } else toast.error(t('common.copyFailed'));
  }

  if (failed) {
    return (
      <div className={cn('md-body', className)} role="alert">
        <p>{t('paste.markdown.renderFailed')}</p>
      </div>
    );
  }
  if (!source.trim() && emptyText) {
    return <p className={cn('text-sm text-muted-foreground', className)}>{emptyText}</p>;
  }
  return (
    <>
      {html === null && !compact && (
        <div className={cn('space-y-3', className)} role="status" aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton className="h-7 w-2/3" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-11/12" />
          <Skeleton className="h-4 w-4/5" />
        </div>
      )}
      <div
        id={id}
        ref={ref}
        onClick={(event) => void onClick(event)}
        className={cn(compact ? 'md-compact' : 'md-body', html === null && 'hidden', className)}
        data-testid={testId}
      />
    </>
  );
}
