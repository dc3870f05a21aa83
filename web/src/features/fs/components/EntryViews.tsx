import type { FsEntryView } from '@clipnest/contract';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Check } from 'lucide-react';
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
  /** The checkbox: adds the entry to the selection or takes it out, never opens it. */
  onToggle: (index: number) => void;
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
  const { entries, prefs, selected, focused, hasMore, onNeedMore, onActivate, onToggle, onOpen, onMenu } = props;
  const { ref, width } = useWidth();
  const press = useLongPress((x, y, target) => onMenu(Number(target), x, y));
  const view = prefs.view;
  const gap = view === 'gallery' ? prefs.gallery.spacing : 12;
  const columns =
    view === 'list' ? 1 : view === 'gallery' ? prefs.gallery.columns : Math.max(2, Math.floor((width + gap) / 148));
  const cell = columns > 0 && width > 0 ? (width - gap * (columns - 1)) / columns : 140;
  const rowHeight = view === 'list' ? ROW_HEIGHT : view === 'gallery' ? cell + gap : cell + 44 + gap;
  // The gallery is a masonry (spec §1): one virtual item per entry in `columns` lanes, each as tall as its
  // picture, placed in the shortest lane once measured. List and grid: one virtual item per row.
  const masonry = view === 'gallery';
  const rowCount = masonry ? entries.length : Math.ceil(entries.length / columns);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    if (ref.current) setMargin(ref.current.getBoundingClientRect().top + window.scrollY);
  }, [ref, view]);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => rowHeight,
    overscan: 6,
    scrollMargin: margin,
    lanes: masonry ? columns : 1,
    laneAssignmentMode: masonry ? 'measured' : 'estimate',
  });
  useEffect(() => virtualizer.measure(), [rowHeight, masonry, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];
  const perRow = masonry ? columns : 1;
  useEffect(() => {
    if (hasMore && last && last.index >= rowCount - 20 * perRow) onNeedMore();
  }, [hasMore, last, rowCount, perRow, onNeedMore]);
  useEffect(() => {
    if (focused >= 0) virtualizer.scrollToIndex(masonry ? focused : Math.floor(focused / columns), { align: 'auto' });
  }, [focused, columns, masonry, virtualizer]);

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
        // The second click of a double-click: the first one already opened a folder, and what is under the
        // pointer now belongs to the folder it opened.
        if (e.detail > 1) return;
        onActivate(index, e);
      },
      // A folder opens on a single click; a double-click opens the file the first click selected.
      onDoubleClick: () => {
        if (!entry.isDirectory && focused === index) onOpen(entry);
      },
      onToggle: () => onToggle(index),
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
        {masonry &&
          items.map((item) => (
            <div
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className="absolute top-0"
              style={{
                transform: `translate(${item.lane * (cell + gap)}px, ${item.start - margin}px)`,
                width: cell,
                paddingBottom: gap,
              }}
            >
              <Tile
                entry={entries[item.index]!}
                size={cell}
                gallery
                focused={focused === item.index}
                anySelected={selected.size > 0}
                {...itemProps(item.index)}
              />
            </div>
          ))}
        {!masonry &&
          items.map((row) => {
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
                        gallery={false}
                        focused={focused === start + i}
                        anySelected={selected.size > 0}
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

type ItemDomProps = Record<string, unknown> & { 'aria-selected': boolean; onToggle: () => void };

/**
 * The selection checkbox of an entry. Not focusable and hidden from assistive technology: the entry is an
 * option whose aria-selected says the same, and the keyboard selects with Space, Shift+arrows and Ctrl+A.
 * A 40 px hit area around an 18 px box, for thumbs.
 */
function SelectBox({ checked, onToggle, className }: { checked: boolean; onToggle: () => void; className?: string }) {
  return (
    <span
      aria-hidden="true"
      data-testid="fs-check"
      data-checked={checked || undefined}
      className={cn('grid size-10 shrink-0 cursor-pointer place-items-center', className)}
      onClick={(e) => {
        e.stopPropagation();
        onToggle();
      }}
      onDoubleClick={(e) => e.stopPropagation()}
      onPointerDown={(e) => e.stopPropagation()}
    >
      <span
        className={cn(
          'grid size-[18px] place-items-center rounded-[5px] border border-input bg-surface transition-colors',
          checked && 'border-primary bg-primary text-primary-foreground',
        )}
      >
        {checked && <Check className="size-3.5" strokeWidth={3} />}
      </span>
    </span>
  );
}

function ListRow({
  entry,
  focused,
  lang,
  onToggle,
  ...dom
}: { entry: FsEntryView; focused: boolean; lang: string } & ItemDomProps) {
  return (
    <div
      {...dom}
      className={cn(
        'flex h-[52px] cursor-pointer select-none items-center gap-2 border-b border-border pe-3 text-sm transition-colors hover:bg-surface-muted/60',
        dom['aria-selected'] && 'bg-primary-soft/70 hover:bg-primary-soft',
        focused && 'outline-2 -outline-offset-2 outline-ring',
      )}
    >
      <SelectBox checked={dom['aria-selected']} onToggle={onToggle} />
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
  anySelected,
  onToggle,
  ...dom
}: { entry: FsEntryView; size: number; gallery: boolean; focused: boolean; anySelected: boolean } & ItemDomProps) {
  // Gallery tiles take their picture's height (a square until it loads; very tall or wide ones are bounded).
  const [ratio, setRatio] = useState(1);
  return (
    <div
      {...dom}
      title={entry.name}
      className={cn(
        'group relative flex cursor-pointer select-none flex-col overflow-hidden rounded-lg border border-transparent transition-colors hover:bg-surface-muted/60',
        dom['aria-selected'] && 'border-primary bg-primary-soft/70',
        focused && 'outline-2 -outline-offset-2 outline-ring',
      )}
    >
      {/* Shown on hover, when something is selected, and always on touch screens (no hover there). */}
      <SelectBox
        checked={dom['aria-selected']}
        onToggle={onToggle}
        className={cn(
          'absolute start-0 top-0 z-[1] opacity-0 transition-opacity group-hover:opacity-100 pointer-coarse:opacity-100',
          (anySelected || focused) && 'opacity-100',
        )}
      />
      <div className="overflow-hidden rounded-md bg-surface-muted" style={{ height: gallery ? size * ratio : size }}>
        <Thumbnail
          entry={entry}
          px={size}
          fit={gallery ? 'cover' : 'contain'}
          {...(gallery ? { onRatio: setRatio } : {})}
        />
      </div>
      {!gallery && <span className="truncate px-1 py-2 text-center text-xs">{entry.name}</span>}
    </div>
  );
}
