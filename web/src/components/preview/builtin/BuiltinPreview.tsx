import { useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Alert } from '../../ui/alert';
import { Skeleton } from '../../ui/skeleton';
import { formatBytes } from '../../../lib/format';
import { useTranslation } from '../../../lib/useTranslation';
import { BUILTIN_MAX_BYTES, builtinFormatOf, CSV_ROWS, MAX_COLUMNS, WORKBOOK_ROWS } from './formats';
import { docxToHtml } from './renderDocx';
import { readPptx, type Slide } from './pptx';
import { readSheets } from './readSheets';
import { SheetView } from './SheetView';
import type { SheetData } from './sheetTypes';

type Rendered =
  | { kind: 'docx'; html: string }
  | { kind: 'sheets'; sheets: SheetData[]; headerRow: boolean }
  | { kind: 'pptx'; slides: Slide[]; revoke: () => void }
  | { kind: 'tooLarge'; size: number }
  | { kind: 'unsupported' };

class TooLarge extends Error {
  constructor(readonly size: number) {
    super('too large');
  }
}

/** The file's bytes from our own origin (credentials stay same-origin), refused above the limit. */
async function readBytes(url: string, signal: AbortSignal): Promise<ArrayBuffer> {
  const response = await fetch(url, { signal, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > BUILTIN_MAX_BYTES) {
    void response.body?.cancel();
    throw new TooLarge(length);
  }
  const data = await response.arrayBuffer();
  if (data.byteLength > BUILTIN_MAX_BYTES) throw new TooLarge(data.byteLength);
  return data;
}

async function render(url: string, name: string, signal: AbortSignal): Promise<Rendered> {
  const format = builtinFormatOf(name);
  if (!format) return { kind: 'unsupported' };
  let data: ArrayBuffer;
  try {
    data = await readBytes(url, signal);
  } catch (error) {
    if (error instanceof TooLarge) return { kind: 'tooLarge', size: error.size };
    throw error;
  }
  switch (format) {
    case 'docx':
      return { kind: 'docx', html: await docxToHtml(data) };
    case 'pptx':
      return { kind: 'pptx', ...(await readPptx(data)) };
    case 'workbook':
      return {
        kind: 'sheets',
        headerRow: false,
        sheets: await readSheets(data, 'workbook', { maxRows: WORKBOOK_ROWS, maxColumns: MAX_COLUMNS }, signal),
      };
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
  const result = useQuery({
    queryKey: ['builtin-preview', url, name],
    queryFn: ({ signal }) => render(url, name, signal),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  if (result.isPending)
    return (
      <div className="flex flex-col gap-2" aria-busy="true">
        <Skeleton className="h-[60dvh] w-full rounded-lg" />
        <p className="text-xs text-muted-foreground">{t('preview.loading')}</p>
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
          {note}
        </div>
      );
    case 'sheets':
      return (
        <div className="flex flex-col gap-2">
          <SheetView sheets={data.sheets} headerRow={data.headerRow} />
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
