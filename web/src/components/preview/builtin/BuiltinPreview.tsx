import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Alert } from '../../ui/alert';
import { Skeleton } from '../../ui/skeleton';
import { formatBytes } from '../../../lib/format';
import { useTranslation } from '../../../lib/useTranslation';
import { BUILTIN_MAX_BYTES, builtinFormatOf, CSV_ROWS, DOCX_BLOCKS, MAX_COLUMNS, WORKBOOK_ROWS } from './formats';
import { docxToHtml, type DocxPage } from './renderDocx';
import { readPptx, type Slide } from './pptx';
import { readSheets } from './readSheets';
import { SheetView, type LoadSheet } from './SheetView';
import type { SheetData } from './sheetTypes';

type Rendered =
  | ({ kind: 'docx' } & DocxPage)
  | { kind: 'sheets'; sheets: SheetData[]; headerRow: boolean; loadSheet?: LoadSheet }
  | { kind: 'pptx'; slides: Slide[]; revoke: () => void }
  | { kind: 'tooLarge'; size: number }
  | { kind: 'unsupported' };

class TooLarge extends Error {
  constructor(readonly size: number) {
    super('too large');
  }
}

/** Where the preview is while it loads: the download (bytes so far, of the length if known), then layout. */
type Progress = { phase: 'download'; loaded: number; total: number } | { phase: 'layout' };

/** The file's bytes from our own origin (credentials stay same-origin), refused above the limit. */
async function readBytes(url: string, signal: AbortSignal, onProgress: (p: Progress) => void): Promise<ArrayBuffer> {
  const response = await fetch(url, { signal, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > BUILTIN_MAX_BYTES) {
    void response.body?.cancel();
    throw new TooLarge(length);
  }
  if (!response.body) return response.arrayBuffer();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    if (loaded > BUILTIN_MAX_BYTES) {
      void reader.cancel();
      throw new TooLarge(loaded);
    }
    // At most a hundred updates, whatever the chunk size.
    if (length > 0 && Math.floor((loaded * 100) / length) === Math.floor(((loaded - value.byteLength) * 100) / length))
      continue;
    onProgress({ phase: 'download', loaded, total: length });
  }
  const data = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    data.set(chunk, at);
    at += chunk.byteLength;
  }
  return data.buffer;
}

async function render(
  url: string,
  name: string,
  signal: AbortSignal,
  onProgress: (p: Progress) => void,
): Promise<Rendered> {
  const format = builtinFormatOf(name);
  if (!format) return { kind: 'unsupported' };
  let data: ArrayBuffer;
  try {
    data = await readBytes(url, signal, onProgress);
  } catch (error) {
    if (error instanceof TooLarge) return { kind: 'tooLarge', size: error.size };
    throw error;
  }
  onProgress({ phase: 'layout' });
  switch (format) {
    case 'docx':
      return { kind: 'docx', ...(await docxToHtml(data, DOCX_BLOCKS)) };
    case 'pptx':
      return { kind: 'pptx', ...(await readPptx(data)) };
    case 'workbook': {
      // The worker takes a copy each time: the first sheet now, another when its tab is opened.
      const read = (sheet: number, abort?: AbortSignal) =>
        readSheets(data.slice(0), 'workbook', { maxRows: WORKBOOK_ROWS, maxColumns: MAX_COLUMNS, sheet }, abort);
      const loadSheet: LoadSheet = async (index, abort) => {
        const sheet = (await read(index, abort))[index];
        if (!sheet) throw new Error('no such sheet');
        return sheet;
      };
      return { kind: 'sheets', headerRow: false, sheets: await read(0, signal), loadSheet };
    }
    case 'csv':
    case 'tsv':
      return {
        kind: 'sheets',
        headerRow: true,
        sheets: await readSheets(data, format, { maxRows: CSV_ROWS + 1, maxColumns: MAX_COLUMNS }, signal),
      };
  }
}

function SlidesView({ slides, revoke }: { slides: Slide[]; revoke: () => void }) {
  const { t } = useTranslation();
  useEffect(() => revoke, [revoke]);
  if (slides.length === 0) return <p className="p-4 text-sm text-muted-foreground">{t('preview.noSlides')}</p>;
  return (
    <ol className="flex max-h-[75dvh] flex-col gap-4 overflow-y-auto" data-testid="pptx-view">
      {slides.map((slide) => (
        <li
          key={slide.number}
          className="rounded-lg border border-border bg-surface p-4 shadow-sm"
          data-testid="pptx-slide"
          aria-label={t('preview.slide', { n: slide.number })}
        >
          <p className="mb-2 text-xs font-medium text-muted-foreground">{t('preview.slide', { n: slide.number })}</p>
          {slide.paragraphs.map((text, i) => (
            <p key={i} className={i === 0 ? 'text-lg font-semibold break-words' : 'text-sm break-words'}>
              {text}
            </p>
          ))}
          {slide.images.length > 0 && (
            <div className="mt-3 flex flex-wrap gap-2">
              {slide.images.map((image) => (
                <img key={image.url} src={image.url} alt={image.name} className="max-h-64 max-w-full rounded border" />
              ))}
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}

/**
 * Office documents, spreadsheets and CSV rendered in the page from a link on our own origin: nothing is
 * sent to another site. docx in a sandboxed frame with its own strict policy, sheets parsed in a worker,
 * pptx as slide text and pictures. `fallback` is shown for formats it cannot render (.doc, .ppt, .rtf).
 */
export function BuiltinPreview({ url, name, fallback }: { url: string; name: string; fallback?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const [progress, setProgress] = useState<Progress | null>(null);
  const result = useQuery({
    queryKey: ['builtin-preview', url, name],
    queryFn: ({ signal }) => render(url, name, signal, setProgress),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const progressText = (p: Progress | null) => {
    if (p?.phase === 'layout') return t('preview.laying');
    if (p?.phase === 'download' && p.total > 0)
      return t('preview.downloading', {
        loaded: formatBytes(p.loaded, i18n.language),
        total: formatBytes(p.total, i18n.language),
      });
    return t('preview.loading');
  };
  if (result.isPending)
    return (
      <div className="flex flex-col gap-2" aria-busy="true">
        <Skeleton className="h-[60dvh] w-full rounded-lg" />
        <p className="text-xs text-muted-foreground" role="status" data-testid="preview-progress">
          {progressText(progress)}
        </p>
      </div>
    );
  if (result.isError)
    return (
      <Alert tone="warning" title={t('preview.failed')}>
        {result.error.message}
      </Alert>
    );
  const data = result.data;
  const note = <p className="text-xs text-muted-foreground">{t('preview.builtinNote')}</p>;
  switch (data.kind) {
    case 'unsupported':
      return fallback ?? <Alert tone="info">{t('preview.unsupported')}</Alert>;
    case 'tooLarge':
      return <Alert tone="info">{t('preview.tooLarge', { size: formatBytes(data.size, i18n.language) })}</Alert>;
    case 'docx':
      return (
        <div className="flex flex-col gap-2" data-testid="docx-view">
          <iframe
            sandbox=""
            srcDoc={data.html}
            title={t('preview.docTitle', { name })}
            referrerPolicy="no-referrer"
            className="h-[75dvh] w-full rounded-lg border border-border bg-white"
          />
          {data.shown < data.total && (
            <p
              className="rounded-md border border-border bg-surface-muted px-3 py-2 text-xs text-muted-foreground"
              data-testid="docx-truncated"
            >
              {t('preview.docTruncated', {
                shown: new Intl.NumberFormat(i18n.language).format(data.shown),
                total: new Intl.NumberFormat(i18n.language).format(data.total),
              })}
            </p>
          )}
          {note}
        </div>
      );
    case 'sheets':
      return (
        <div className="flex flex-col gap-2">
          <SheetView sheets={data.sheets} headerRow={data.headerRow} loadSheet={data.loadSheet} />
          {note}
        </div>
      );
    case 'pptx':
      return (
        <div className="flex flex-col gap-2">
          <SlidesView slides={data.slides} revoke={data.revoke} />
          {note}
        </div>
      );
  }
}
