import type { FsEntryView } from '@clipnest/contract';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from '../../../lib/useTranslation';
import { cn } from '../../../lib/cn';
import { formatBytes, formatDateTime } from '../../../lib/format';
import type { ExplorerPrefs } from '../viewPrefs';
import { useLongPress } from '../useLongPress';
import { EntryIcon } from './EntryIcon';
import { Thumbnail } from './Thumbnail';

export interface EntryViewProps {
  entries: FsEntryView[];
  prefs: ExplorerPrefs;
  selected: ReadonlySet<string>;
  focused: number;
  hasMore: boolean;
  onNeedMore: () => void;
  onActivate: (index: number, event: MouseEvent) => void;
  onOpen: (entry: FsEntryView) => void;
  onMenu: (index: number, x: number, y: number) => void;
}

const ROW_HEIGHT = 52;

function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return { ref, width };
}

/**
 * List, grid and gallery views over one window virtualiser: only the rows on screen are in the DOM, so a
 * folder of 10,000 entries scrolls smoothly; the next page loads as the end comes near.
 */
export function EntryViews(props: EntryViewProps) {
  const { t, i18n } = useTranslation();
  const { entries, prefs, selected, focused, hasMore, onNeedMore, onActivate, onOpen, onMenu } = props;
  const { ref, width } = useWidth();
  const press = useLongPress((x, y, target) => onMenu(Number(target), x, y));
  const view = prefs.view;
  const gap = view === 'gallery' ? prefs.gallery.spacing : 12;
  const columns =
    view === 'list' ? 1 : view === 'gallery' ? prefs.gallery.columns : Math.max(2, Math.floor((width + gap) / 148));
  const cell = columns > 0 && width > 0 ? (width - gap * (columns - 1)) / columns : 140;
  const rowHeight = view === 'list' ? ROW_HEIGHT : view === 'gallery' ? cell + gap : cell + 44 + gap;
  const rowCount = Math.ceil(entries.length / columns);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    if (ref.current) setMargin(ref.current.getBoundingClientRect().top + window.scrollY);
  }, [ref, view]);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => rowHeight,
    overscan: 6,
    scrollMargin: margin,
  });
  useEffect(() => virtualizer.measure(), [rowHeight, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];
  useEffect(() => {
    if (hasMore && last && last.index >= rowCount - 20) onNeedMore();
  }, [hasMore, last, rowCount, onNeedMore]);
  useEffect(() => {
    if (focused >= 0) virtualizer.scrollToIndex(Math.floor(focused / columns), { align: 'auto' });
  }, [focused, columns, virtualizer]);

  const itemProps = (index: number) => {
    const entry = entries[index]!;
    return {
      role: 'option' as const,
      'aria-selected': selected.has(entry.path),
      'data-testid': 'fs-entry',
      'data-name': entry.name,
      'data-focused': focused === index || undefined,
      onClick: (e: MouseEvent) => {
        if (press.consumeFired()) return;
        onActivate(index, e);
      },
      onDoubleClick: () => onOpen(entry),
      onContextMenu: (e: MouseEvent) => {
        e.preventDefault();
        onMenu(index, e.clientX, e.clientY);
      },
      ...press.bind(String(index)),
    };
  };

  return (
    <div ref={ref} role="listbox" aria-multiselectable="true" aria-label={t('fs.explorer.listLabel')}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((row) => {
          const start = row.index * columns;
          const slice = entries.slice(start, start + columns);
          return (
            <div
              key={row.key}
              className="absolute inset-x-0 top-0"
              style={{ transform: `translateY(${row.start - margin}px)`, height: rowHeight }}
            >
              {view === 'list' ? (
                <ListRow entry={slice[0]!} focused={focused === start} {...itemProps(start)} lang={i18n.language} />
              ) : (
                <div
                  className="grid"
                  style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, columnGap: gap }}
                >
                  {slice.map((entry, i) => (
                    <Tile
                      key={entry.path}
                      entry={entry}
                      size={cell}
                      gallery={view === 'gallery'}
                      focused={focused === start + i}
                      {...itemProps(start + i)}
                    />
                  ))}
                </div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

type ItemDomProps = Record<string, unknown> & { 'aria-selected': boolean };

function ListRow({
  entry,
  focused,
  lang,
  ...dom
}: { entry: FsEntryView; focused: boolean; lang: string } & ItemDomProps) {
  return (
    <div
      {...dom}
      className={cn(
        'flex h-[52px] cursor-default select-none items-center gap-3 border-b border-border px-3 text-sm transition-colors hover:bg-surface-muted/60',
        dom['aria-selected'] && 'bg-primary-soft/70 hover:bg-primary-soft',
        focused && 'outline-2 -outline-offset-2 outline-ring',
      )}
    >
      <EntryIcon entry={entry} className="size-5" />
      <span className="min-w-0 flex-1 truncate" title={entry.name}>
        {entry.name}
      </span>
      <span className="hidden w-40 shrink-0 truncate text-end text-xs text-muted-foreground sm:block">
        {entry.modified ? formatDateTime(entry.modified, lang) : ''}
      </span>
      <span className="w-20 shrink-0 text-end text-xs tabular-nums text-muted-foreground">
        {entry.isDirectory ? '' : formatBytes(entry.size, lang)}
      </span>
    </div>
  );
}

function Tile({
  entry,
  size,
  gallery,
  focused,
  ...dom
}: { entry: FsEntryView; size: number; gallery: boolean; focused: boolean } & ItemDomProps) {
  return (
    <div
      {...dom}
      title={entry.name}
      className={cn(
        'flex cursor-default select-none flex-col overflow-hidden rounded-lg border border-transparent transition-colors hover:bg-surface-muted/60',
        dom['aria-selected'] && 'border-primary bg-primary-soft/70',
        focused && 'outline-2 -outline-offset-2 outline-ring',
      )}
    >
      <div className="overflow-hidden rounded-md bg-surface-muted" style={{ height: size }}>
        <Thumbnail entry={entry} px={size} fit={gallery ? 'cover' : 'contain'} />
      </div>
      {!gallery && <span className="truncate px-1 py-2 text-center text-xs">{entry.name}</span>}
    </div>
  );
}
