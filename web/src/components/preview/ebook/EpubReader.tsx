import { useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Select } from '../../ui/select';
import { Skeleton } from '../../ui/skeleton';
import { formatBytes } from '../../../lib/format';
import { useTranslation } from '../../../lib/useTranslation';
import { BUILTIN_MAX_BYTES } from '../builtin/formats';
import { readEpub, type EpubBook } from './readEpub';
import { renderChapter } from './renderChapter';

class TooLarge extends Error {
  constructor(readonly size: number) {
    super('too large');
  }
}

async function loadBook(url: string, signal: AbortSignal, init?: RequestInit): Promise<EpubBook> {
  const response = await fetch(url, { ...init, signal, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > BUILTIN_MAX_BYTES) {
    void response.body?.cancel();
    throw new TooLarge(length);
  }
  return readEpub(await response.arrayBuffer());
}

/** Arrow keys turn chapters, unless the reader is typing somewhere. */
function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

function Chapter({ book, url, index, name }: { book: EpubBook; url: string; index: number; name: string }) {
  const { t } = useTranslation();
  const chapter = useQuery({
    // The book itself is no key part (TanStack hashes keys as JSON): its address and the chapter's path are.
    queryKey: ['epub-chapter', url, book.chapters[index]],
    queryFn: () => renderChapter(book, index),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  if (chapter.isPending) return <Skeleton className="h-[70dvh] w-full rounded-lg" />;
  if (chapter.isError) return <Alert tone="warning">{chapter.error.message}</Alert>;
  return (
    <iframe
      // No allow-scripts and no allow-same-origin: the book's markup is inert, and its own policy loads nothing.
      sandbox=""
      srcDoc={chapter.data}
      title={t('preview.ebook.frameTitle', { name })}
      referrerPolicy="no-referrer"
      className="h-[70dvh] w-full rounded-lg border border-border bg-white"
      data-testid="epub-chapter"
    />
  );
}

/**
 * An .epub read in the page: the chapters of its spine one at a time, each sanitised into a sandboxed frame,
 * a table of contents, previous/next buttons and the arrow keys. Read from our own origin; nothing else loads.
 */
export function EpubReader({ url, name, init }: { url: string; name: string; init?: RequestInit }) {
  const { t, i18n } = useTranslation();
  const [index, setIndex] = useState(0);
  const book = useQuery({
    queryKey: ['epub', url],
    queryFn: ({ signal }) => loadBook(url, signal, init),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const count = book.data?.chapters.length ?? 0;

  useEffect(() => {
    if (count === 0) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      if (event.key === 'ArrowLeft') setIndex((i) => Math.max(0, i - 1));
      else if (event.key === 'ArrowRight') setIndex((i) => Math.min(count - 1, i + 1));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [count]);

  if (book.isPending)
    return (
      <div className="flex flex-col gap-2" aria-busy="true">
        <Skeleton className="h-10 w-full rounded-lg" />
        <Skeleton className="h-[70dvh] w-full rounded-lg" />
      </div>
    );
  if (book.isError) {
    const error = book.error;
    return error instanceof TooLarge ? (
      <Alert tone="info">{t('preview.tooLarge', { size: formatBytes(error.size, i18n.language) })}</Alert>
    ) : (
      <Alert tone="warning" title={t('preview.failed')}>
        {error.message}
      </Alert>
    );
  }
  if (count === 0) return <Alert tone="info">{t('preview.ebook.empty')}</Alert>;
  const current = Math.min(index, count - 1);
  // The table of contents entry of this chapter (the last one at or before it), or the chapter's number.
  const tocAt = book.data.toc.filter((entry) => entry.chapter <= current).pop();
  return (
    <div className="flex flex-col gap-2" data-testid="epub-reader">
      {book.data.title && <p className="truncate text-sm font-medium">{book.data.title}</p>}
      <div className="flex items-center gap-2">
        <Button
          variant="secondary"
          size="sm"
          onClick={() => setIndex(current - 1)}
          disabled={current === 0}
          aria-label={t('preview.ebook.previous')}
          data-testid="epub-prev"
        >
          <ChevronLeft className="size-4 rtl:rotate-180" aria-hidden="true" />
        </Button>
        {book.data.toc.length > 0 ? (
          <Select
            className="min-w-0 flex-1"
            aria-label={t('preview.ebook.contents')}
            value={tocAt ? String(book.data.toc.indexOf(tocAt)) : ''}
            onChange={(event) => setIndex(book.data.toc[Number(event.target.value)]?.chapter ?? current)}
            data-testid="epub-toc"
          >
            {!tocAt && <option value="">{t('preview.ebook.chapter', { n: current + 1, count })}</option>}
            {book.data.toc.map((entry, i) => (
              <option key={i} value={String(i)}>
                {`${'\u00a0\u00a0'.repeat(entry.depth)}${entry.title}`}
              </option>
            ))}
          </Select>
        ) : (
          <span className="min-w-0 flex-1 text-center text-sm text-muted-foreground">
            {t('preview.ebook.chapter', { n: current + 1, count })}
          </span>
        )}
        <span
          className="hidden shrink-0 text-xs text-muted-foreground tabular-nums sm:inline"
          data-testid="epub-position"
        >
          {current + 1} / {count}
        </span>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => setIndex(current + 1)}
          disabled={current >= count - 1}
          aria-label={t('preview.ebook.next')}
          data-testid="epub-next"
        >
          <ChevronRight className="size-4 rtl:rotate-180" aria-hidden="true" />
        </Button>
      </div>
      <Chapter key={current} book={book.data} url={url} index={current} name={name} />
      <p className="text-xs text-muted-foreground">{t('preview.ebook.keys')}</p>
    </div>
  );
}
