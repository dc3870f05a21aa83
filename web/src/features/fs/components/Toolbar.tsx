import {
  ArrowDownAZ,
  ArrowUpAZ,
  FolderPlus,
  FolderUp,
  Grid2x2,
  Images,
  List,
  RefreshCw,
  SlidersHorizontal,
  Upload,
} from 'lucide-react';
import { useRef } from 'react';
import { useTranslation } from '../../../lib/useTranslation';
import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { IconButton } from '../../../components/ui/icon-button';
import { SearchField } from '../../../components/ui/search-field';
import { Switch } from '../../../components/ui/switch';
import { cn } from '../../../lib/cn';
import type { PickedFile } from '../dropFiles';
import { filesFromList } from '../dropFiles';
import { DEFAULT_PREFS, SORT_KEYS, type ExplorerPrefs, type SortKey, type ViewMode } from '../viewPrefs';

const VIEW_ICONS: Record<ViewMode, typeof List> = { list: List, grid: Grid2x2, gallery: Images };

export function Toolbar({
  prefs,
  setPrefs,
  filter,
  setFilter,
  canUpload,
  onUpload,
  onNewFolder,
  onRefresh,
  refreshing,
}: {
  prefs: ExplorerPrefs;
  setPrefs: (p: ExplorerPrefs) => void;
  filter: string;
  setFilter: (v: string) => void;
  canUpload: boolean;
  onUpload: (files: PickedFile[]) => void;
  onNewFolder: () => void;
  onRefresh: () => void;
  refreshing: boolean;
}) {
  const { t } = useTranslation();
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const picked = (input: HTMLInputElement) => {
    onUpload(filesFromList(input.files));
    input.value = '';
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      <SearchField value={filter} onValueChange={setFilter} label={t('fs.explorer.filter')} className="sm:max-w-60" />
      <div
        className="flex items-center rounded-lg border border-border p-0.5"
        role="radiogroup"
        aria-label={t('fs.explorer.view')}
      >
        {(Object.keys(VIEW_ICONS) as ViewMode[]).map((v) => {
          const Icon = VIEW_ICONS[v];
          return (
            <IconButton
              key={v}
              role="radio"
              aria-checked={prefs.view === v}
              label={t(`fs.explorer.views.${v}`)}
              size="icon-sm"
              className={cn(prefs.view === v && 'bg-primary-soft text-primary-soft-foreground')}
              onClick={() => setPrefs({ ...prefs, view: v })}
            >
              <Icon className="size-4" />
            </IconButton>
          );
        })}
      </div>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            variant="secondary"
            size="sm"
            aria-label={`${t(`fs.explorer.sort.${prefs.sort}`)} · ${t('fs.explorer.sortAndSettings')}`}
          >
            {prefs.desc ? (
              <ArrowUpAZ className="size-4" aria-hidden="true" />
            ) : (
              <ArrowDownAZ className="size-4" aria-hidden="true" />
            )}
            <span className="hidden sm:inline">{t(`fs.explorer.sort.${prefs.sort}`)}</span>
            {prefs.view === 'gallery' && <SlidersHorizontal className="size-4" aria-hidden="true" />}
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuLabel>{t('fs.explorer.sortBy')}</DropdownMenuLabel>
          <DropdownMenuRadioGroup value={prefs.sort} onValueChange={(v) => setPrefs({ ...prefs, sort: v as SortKey })}>
            {SORT_KEYS.map((k) => (
              <DropdownMenuRadioItem key={k} value={k}>
                {t(`fs.explorer.sort.${k}`)}
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          <DropdownMenuItem onSelect={() => setPrefs({ ...prefs, desc: !prefs.desc })}>
            {prefs.desc ? t('fs.explorer.ascending') : t('fs.explorer.descending')}
          </DropdownMenuItem>
          {prefs.view === 'gallery' && <GallerySettings prefs={prefs} setPrefs={setPrefs} />}
        </DropdownMenuContent>
      </DropdownMenu>
      <div className="ms-auto flex items-center gap-1">
        <IconButton label={t('fs.explorer.refresh')} size="icon-sm" onClick={onRefresh}>
          <RefreshCw className={cn('size-4', refreshing && 'animate-spin')} />
        </IconButton>
        {canUpload && (
          <>
            <IconButton label={t('fs.explorer.newFolder')} size="icon-sm" onClick={onNewFolder}>
              <FolderPlus className="size-4" />
            </IconButton>
            <IconButton label={t('fs.explorer.uploadFolder')} size="icon-sm" onClick={() => folder.current?.click()}>
              <FolderUp className="size-4" />
            </IconButton>
            <Button size="sm" onClick={() => files.current?.click()}>
              <Upload className="size-4" aria-hidden="true" />
              {t('fs.explorer.upload')}
            </Button>
            <input
              ref={files}
              type="file"
              multiple
              hidden
              data-testid="fs-file-input"
              onChange={(e) => picked(e.currentTarget)}
            />
            <input
              ref={folder}
              type="file"
              hidden
              data-testid="fs-folder-input"
              // Not in React's typed attributes: an empty attribute turns folder picking on.
              {...{ webkitdirectory: '' }}
              onChange={(e) => picked(e.currentTarget)}
            />
          </>
        )}
      </div>
    </div>
  );
}

/** Gallery settings (columns, spacing, images only, reset) inside the sort menu. */
function GallerySettings({ prefs, setPrefs }: { prefs: ExplorerPrefs; setPrefs: (p: ExplorerPrefs) => void }) {
  const { t } = useTranslation();
  const g = prefs.gallery;
  const set = (next: Partial<ExplorerPrefs['gallery']>) => setPrefs({ ...prefs, gallery: { ...g, ...next } });
  return (
    <div className="flex w-60 flex-col gap-3 border-t border-border px-2 py-3 text-sm" data-testid="gallery-settings">
      <label className="flex flex-col gap-1">
        <span>{t('fs.gallery.columns', { count: g.columns })}</span>
        <input
          type="range"
          min={1}
          max={8}
          value={g.columns}
          onChange={(e) => set({ columns: Number(e.target.value) })}
        />
      </label>
      <label className="flex flex-col gap-1">
        <span>{t('fs.gallery.spacing', { px: g.spacing })}</span>
        <input
          type="range"
          min={0}
          max={24}
          value={g.spacing}
          onChange={(e) => set({ spacing: Number(e.target.value) })}
        />
      </label>
      <label className="flex items-center justify-between gap-2">
        <span>{t('fs.gallery.imagesOnly')}</span>
        <Switch
          checked={g.imagesOnly}
          onCheckedChange={(v) => set({ imagesOnly: v })}
          aria-label={t('fs.gallery.imagesOnly')}
        />
      </label>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => setPrefs({ ...prefs, gallery: DEFAULT_PREFS.gallery, sort: 'name', desc: false })}
      >
        {t('fs.gallery.reset')}
      </Button>
    </div>
  );
}
