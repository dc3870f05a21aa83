import type { FsEntryView } from '@clipnest/contract';
import { Permission } from '@clipnest/contract/permissions';
import { useQuery } from '@tanstack/react-query';
import { Copy, FolderInput, FolderX, Search, ShoppingBasket, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useMemo, useReducer, type DragEvent, type MouseEvent } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { useNavigate, useSearchParams } from '../../lib/navigation';
import { toast } from '../../lib/toast';
import { copyText } from '../../lib/clipboard';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadError } from '../../components/ui/load-error';
import { SelectionBar } from '../../components/ui/selection-bar';
import { Skeleton } from '../../components/ui/skeleton';
import { api, errorMessage, isApiError } from '../../lib/api';
import { formatNumber } from '../../lib/format';
import {
  createFolderShare,
  createShare,
  fileLink,
  folderShareUrl,
  shareUrl,
  useFsList,
  useMkdir,
  useRemove,
  useRename,
} from '../fs/api';
import { Breadcrumbs } from '../fs/components/Breadcrumbs';
import { EntryMenu } from '../fs/components/EntryMenu';
import { EntryViews } from '../fs/components/EntryViews';
import { ConflictDialog, type ConflictChoice } from '../fs/components/ConflictDialog';
import { FolderPicker } from '../fs/components/FolderPicker';
import { planTransfer } from '../fs/conflicts';
import { NameDialog } from '../fs/components/NameDialog';
import { PreviewDialog } from '../fs/components/PreviewDialog';
import { SearchDialog } from '../fs/components/SearchDialog';
import { LinkDialog, ShareOptionsDialog, type ShareChoices } from '../fs/components/ShareDialog';
import { Toolbar } from '../fs/components/Toolbar';
import { filesFromDataTransfer, type PickedFile } from '../fs/dropFiles';
import { explorerHref, joinPath, parentPath } from '../fs/paths';
import { useStartCopy, waitForTask } from '../fs/tasksApi';
import { basket } from '../fs/basket';
import { moveTasks } from '../fs/moveTasks';
import { isImage, readPrefs, sortAndFilter, writePrefs, type ExplorerPrefs } from '../fs/viewPrefs';
import { entryActions } from './entryActions';
import {
  dialogOpen as anyDialogOpen,
  explorerActions as act,
  explorerReducer,
  initialExplorerState,
} from './explorerState';

function download(path: string) {
  void fileLink(path, true)
    .then((link) => {
      const a = document.createElement('a');
      a.href = link.url;
      a.download = '';
      a.rel = 'noopener';
      a.click();
    })
    .catch((error: unknown) => toast.error(errorMessage(error)));
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/** One folder of the tree: views, selection, keyboard, context menu, and the operations the key allows. */
export function Explorer({
  path,
  can,
  onUpload,
}: {
  path: string;
  can: (bit: number) => boolean;
  onUpload: (dir: string, files: PickedFile[]) => void;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const list = useFsList(path);
  const mkdir = useMkdir();
  const rename = useRename();
  const remove = useRemove();
  const [state, dispatch] = useReducer(explorerReducer, undefined, () => initialExplorerState(readPrefs()));
  const { prefs, filter, sel, focused, menu, naming, deleting, moving, conflict, sharing, link } = state;
  const setPrefs = (p: ExplorerPrefs) => {
    dispatch(act.prefs(p));
    writePrefs(p);
  };
  const startCopy = useStartCopy();

  const listing = list.data?.pages[0];
  const all = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const entries = useMemo(() => {
    const sorted = sortAndFilter(all, { sort: prefs.sort, desc: prefs.desc, filter });
    return prefs.view === 'gallery' && prefs.gallery.imagesOnly ? sorted.filter(isImage) : sorted;
  }, [all, prefs.sort, prefs.desc, prefs.view, prefs.gallery.imagesOnly, filter]);
  const paths = useMemo(() => entries.map((e) => e.path), [entries]);
  const writable = listing !== undefined && !listing.isVirtual;
  const canUpload = can(Permission.MOUNT_UPLOAD) && writable;

  // ?preview= : the entry from the listing, or fetched when the link came from elsewhere.
  const previewPath = params.get('preview');
  const fromList = previewPath ? all.find((e) => e.path === previewPath) : undefined;
  const fetched = useQuery({
    queryKey: ['fs', 'get', previewPath],
    queryFn: () => api.get<FsEntryView>('/fs/get', { query: { path: previewPath! } }),
    enabled: !!previewPath && !fromList && !list.isPending,
    retry: false,
  });
  const previewEntry = fromList ?? fetched.data ?? null;

  const open = useCallback(
    (entry: FsEntryView) => {
      if (entry.isDirectory) void navigate(explorerHref(entry.path));
      else setParams({ preview: entry.path });
    },
    [navigate, setParams],
  );

  const onUploadHere = (files: PickedFile[]) => {
    if (files.length > 0) onUpload(path, files);
  };

  async function doRefresh() {
    dispatch(act.flag('refreshing', true));
    try {
      await list.refresh();
    } catch (error) {
      toast.error(errorMessage(error));
    }
    dispatch(act.flag('refreshing', false));
  }

  async function submitName(name: string) {
    if (!naming) return;
    try {
      if (naming.mode === 'mkdir') {
        await mkdir.mutateAsync(joinPath(path, name));
        toast.success(t('fs.explorer.folderCreated', { name }));
      } else {
        await rename.mutateAsync({
          oldPath: naming.entry.path,
          newPath: joinPath(parentPath(naming.entry.path), name),
        });
        toast.success(t('fs.explorer.renamed', { name }));
      }
      dispatch(act.naming(null));
    } catch (error) {
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting);
      toast.success(t('fs.explorer.deleted', { count: deleting.length }));
      dispatch(act.clearSelection());
    } catch (error) {
      toast.error(errorMessage(error));
    }
    dispatch(act.deleting(null));
  }

  /** Asks about one taken name; resolves with the choice (null: the dialog was closed, nothing is done). */
  const ask = (name: string, folder: string, remaining: number) =>
    new Promise<{ choice: ConflictChoice | null; forAll: boolean }>((resolve) =>
      dispatch(
        act.conflict({
          name,
          folder,
          remaining,
          answer: (choice, forAll) => {
            dispatch(act.conflict(null));
            resolve({ choice, forAll });
          },
        }),
      ),
    );

  /**
   * Copy = a server task (POST /fs/batch-copy) within or across mounts. Move = rename within one mount; across
   * mounts it is a copy task and the sources are deleted once that task completes (never after a partial copy).
   * A name already taken in the target folder is asked about first: replace it, keep both (the new one gets a
   * free name, "a (1).txt") or skip it, optionally for all the others.
   */
  async function transferTo(folder: string, targetMount: string | undefined) {
    if (!moving) return;
    const { mode, paths: sources } = moving;
    const sameMount = targetMount !== undefined && targetMount === listing?.mount_id;
    dispatch(act.flag('transferring', true));
    try {
      const plan = await planTransfer(sources, folder, mode, ask);
      if (plan === null) return;
      const { items, replaced } = plan;
      if (items.length === 0) {
        toast.info(t('fs.conflict.nothingLeft'));
        dispatch(act.transferDone());
        return;
      }
      const moved = items.map((i) => i.sourcePath);
      if (mode === 'move' && sameMount) {
        // A rename never overwrites (409): the replaced names are removed first.
        if (replaced.length > 0) await remove.mutateAsync(replaced);
        for (const i of items) await rename.mutateAsync({ oldPath: i.sourcePath, newPath: i.targetPath });
        toast.success(t('fs.explorer.moved', { count: items.length }));
      } else {
        const task = await startCopy(items);
        if (mode === 'move') moveTasks.mark(task.id);
        toast.success(
          t(mode === 'move' ? 'fs.explorer.moveStarted' : 'fs.explorer.copyStarted', { count: items.length }),
        );
        dispatch(act.transferDone());
        if (mode === 'move') {
          const done = await waitForTask(task.id);
          if (done.status !== 'completed')
            throw new Error(t('fs.explorer.moveKept', { status: t(`fs.tasks.status.${done.status}`) }));
          await remove.mutateAsync(moved);
          toast.success(t('fs.explorer.moved', { count: items.length }));
        }
      }
      dispatch(act.transferDone());
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      dispatch(act.flag('transferring', false));
    }
  }

  function addToBasket(chosen: FsEntryView[]) {
    const added = basket.add(chosen);
    if (added > 0) toast.success(t('fs.basket.added', { count: added }));
    else toast.info(t('fs.basket.nothingAdded'));
  }

  async function share(entry: FsEntryView, choices: ShareChoices) {
    dispatch(act.flag('sharingBusy', true));
    try {
      if (entry.isDirectory) {
        const created = await createFolderShare(entry.path, {
          ...(choices.password ? { password: choices.password } : {}),
          ...(choices.expires_in ? { expires_in: choices.expires_in } : {}),
          ...(choices.max_downloads ? { max_downloads: choices.max_downloads } : {}),
        });
        dispatch(
          act.shared({
            title: t('fs.explorer.shareFolderTitle', { name: entry.name }),
            url: folderShareUrl(created.slug),
            share: created,
          }),
        );
        return;
      }
      const created = await createShare(entry.path, choices);
      dispatch(
        act.shared({
          title: t('fs.explorer.shareTitle', { name: entry.name }),
          url: shareUrl(created.slug),
          share: created,
        }),
      );
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      dispatch(act.flag('sharingBusy', false));
    }
  }

  async function showLink(entry: FsEntryView, share: boolean) {
    try {
      if (share) {
        // The share's options (password, expiry, max views) first; the link once it is made.
        dispatch(act.sharing(entry));
      } else {
        const l = await fileLink(entry.path);
        // "Copy direct link" copies; where the clipboard is refused, the link is shown to copy by hand.
        if (await copyText(l.url)) toast.success(t('fs.explorer.linkCopied', { name: entry.name }));
        else dispatch(act.link({ title: t('fs.explorer.linkTitle', { name: entry.name }), url: l.url }));
      }
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  const actionsFor = (entry: FsEntryView) =>
    entryActions(
      entry,
      { t, can, selected: sel.selected, all },
      {
        open,
        download,
        addToBasket,
        showLink: (e, asShare) => void showLink(e, asShare),
        rename: (e) => dispatch(act.naming({ mode: 'rename', entry: e })),
        transfer: (mode, targets) => dispatch(act.moving({ mode, paths: targets })),
        remove: (targets) => dispatch(act.deleting(targets)),
      },
    );

  /**
   * A click: with Ctrl/⌘ or Shift it selects (toggle, range); a plain click opens a folder, and selects a file
   * (a double-click opens it) except on a touch screen, where a tap opens it as phones have no double-click.
   * The checkboxes (onToggle) and a long-press select without opening.
   */
  const activate = (index: number, e: MouseEvent) => {
    const entry = entries[index];
    if (!entry) return;
    dispatch(act.focus(index));
    const modified = e.shiftKey || e.ctrlKey || e.metaKey;
    if (!modified && (entry.isDirectory || matchMedia('(pointer: coarse)').matches)) {
      open(entry);
      return;
    }
    dispatch(act.click(paths, index, { shift: e.shiftKey, toggle: e.ctrlKey || e.metaKey }));
  };
  const toggle = (index: number) => dispatch(act.click(paths, index, { shift: false, toggle: true }));

  // Keyboard: arrows move, Enter opens, Space toggles, Backspace/Alt+↑ go up, Delete deletes, F2 renames,
  // Escape clears, Ctrl+A selects all.
  const dialogOpen = anyDialogOpen(state, previewPath);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (dialogOpen || isTyping(e.target)) return;
      const current = entries[focused];
      if ((e.key === 'Backspace' && !e.altKey && !e.ctrlKey && !e.metaKey) || (e.key === 'ArrowUp' && e.altKey)) {
        // Up one folder, as in Explorer (Backspace) and Finder (⌘↑; Alt+↑ here, the browser keeps ⌘↑).
        e.preventDefault();
        if (path !== '/') void navigate(explorerHref(parentPath(path)));
      } else if (e.key === ' ' && current && !(e.target as Element | null)?.closest?.('button, a, [role="button"]')) {
        // Space adds the focused entry to the selection or takes it out (what the checkbox does).
        e.preventDefault();
        dispatch(act.click(paths, focused, { shift: false, toggle: true }));
      } else if (e.key === 'ArrowDown' || e.key === 'ArrowRight' || e.key === 'ArrowUp' || e.key === 'ArrowLeft') {
        e.preventDefault();
        dispatch(act.step(paths, e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : -1, e.shiftKey));
      } else if (e.key === 'Enter' && current) {
        open(current);
      } else if (e.key === 'Escape') {
        dispatch(act.clearSelection());
      } else if (e.key === 'Delete' && can(Permission.MOUNT_DELETE) && writable) {
        const targets = sel.selected.size > 0 ? [...sel.selected] : current ? [current.path] : [];
        if (targets.length > 0) dispatch(act.deleting(targets));
      } else if (e.key === 'F2' && current && !current.isMount && can(Permission.MOUNT_RENAME)) {
        e.preventDefault();
        dispatch(act.naming({ mode: 'rename', entry: current }));
      } else if (e.key.toLowerCase() === 'a' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        dispatch(act.selectAll(paths));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  // Paste files (screenshots, files copied in the OS) into this folder.
  useEffect(() => {
    if (!canUpload) return;
    const onPaste = (e: ClipboardEvent) => {
      if (isTyping(e.target) || !e.clipboardData?.files.length) return;
      e.preventDefault();
      onUpload(
        path,
        Array.from(e.clipboardData.files).map((file) => ({ file, relativePath: file.name })),
      );
    };
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  }, [canUpload, onUpload, path]);

  const dropProps = canUpload
    ? {
        onDragOver: (e: DragEvent) => {
          if (!e.dataTransfer.types.includes('Files')) return;
          e.preventDefault();
          dispatch(act.flag('dragging', true));
        },
        onDragLeave: (e: DragEvent) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) dispatch(act.flag('dragging', false));
        },
        onDrop: (e: DragEvent) => {
          e.preventDefault();
          dispatch(act.flag('dragging', false));
          void filesFromDataTransfer(e.dataTransfer).then(onUploadHere);
        },
      }
    : {};

  const menuEntry = menu ? entries[menu.index] : undefined;
  const fetchNext = list.fetchNextPage;
  const needMore = useCallback(() => {
    if (!list.isFetchingNextPage) void fetchNext();
  }, [fetchNext, list.isFetchingNextPage]);

  return (
    <div className="relative flex flex-col gap-3" data-testid="fs-explorer" {...dropProps}>
      <div className="flex items-center gap-2">
        <div className="min-w-0 flex-1">
          <Breadcrumbs path={path} />
        </div>
        <Button variant="secondary" size="sm" onClick={() => dispatch(act.flag('searching', true))}>
          <Search className="size-4" aria-hidden="true" />
          {t('fs.search.open')}
        </Button>
      </div>
      <Toolbar
        prefs={prefs}
        setPrefs={setPrefs}
        filter={filter}
        setFilter={(f) => dispatch(act.filter(f))}
        canUpload={canUpload}
        onUpload={onUploadHere}
        onNewFolder={() => dispatch(act.naming({ mode: 'mkdir' }))}
        onRefresh={() => void doRefresh()}
        refreshing={state.refreshing}
      />
      {sel.selected.size > 1 && (
        <SelectionBar
          label={t('fs.explorer.selection')}
          summary={t('fs.explorer.selected', { count: sel.selected.size })}
          clearLabel={t('fs.explorer.clearSelection')}
          onClear={() => dispatch(act.clearSelection())}
        >
          <Button
            variant="secondary"
            size="sm"
            onClick={() => addToBasket(all.filter((e) => sel.selected.has(e.path)))}
          >
            <ShoppingBasket className="size-4" aria-hidden="true" />
            {t('fs.basket.add')}
          </Button>
          {can(Permission.MOUNT_COPY) && writable && (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => dispatch(act.moving({ mode: 'copy', paths: [...sel.selected] }))}
            >
              <Copy className="size-4" aria-hidden="true" />
              {t('fs.explorer.copyTo')}
            </Button>
          )}
          {can(Permission.MOUNT_RENAME) && writable && (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => dispatch(act.moving({ mode: 'move', paths: [...sel.selected] }))}
            >
              <FolderInput className="size-4" aria-hidden="true" />
              {t('fs.explorer.moveTo')}
            </Button>
          )}
          {can(Permission.MOUNT_DELETE) && writable && (
            <Button variant="secondary" size="sm" onClick={() => dispatch(act.deleting([...sel.selected]))}>
              <Trash2 className="size-4" aria-hidden="true" />
              {t('common.delete')}
            </Button>
          )}
        </SelectionBar>
      )}
      {list.isPending ? (
        <div className="flex flex-col gap-1">
          {Array.from({ length: 8 }, (_, i) => (
            <Skeleton key={i} className="h-11 w-full" />
          ))}
        </div>
      ) : list.isError ? (
        <LoadError
          title={t('fs.explorer.loadFailed')}
          message={errorMessage(list.error)}
          retryLabel={t('common.retry')}
          onRetry={() => void list.refetch()}
        />
      ) : entries.length === 0 ? (
        <EmptyState
          icon={FolderX}
          title={filter ? t('fs.explorer.noMatch') : t('fs.explorer.emptyTitle')}
          description={filter ? undefined : canUpload ? t('fs.explorer.emptyDrop') : t('fs.explorer.emptyBody')}
        />
      ) : (
        <>
          <p className="text-xs text-muted-foreground" data-testid="fs-count">
            {t('fs.explorer.count', {
              count: listing?.total ?? entries.length,
              n: formatNumber(listing?.total ?? entries.length, i18n.language),
            })}
          </p>
          <EntryViews
            entries={entries}
            prefs={prefs}
            selected={sel.selected}
            focused={focused}
            hasMore={!!list.hasNextPage}
            onNeedMore={needMore}
            onActivate={activate}
            onToggle={toggle}
            onOpen={open}
            onMenu={(index, x, y) => dispatch(act.openMenu({ x, y, index }, entries[index]?.path))}
          />
        </>
      )}
      {state.dragging && (
        <div className="pointer-events-none absolute inset-0 z-10 grid place-items-center rounded-xl border-2 border-dashed border-primary bg-primary-soft/70 text-sm font-medium text-primary-soft-foreground">
          {t('fs.explorer.dropHere')}
        </div>
      )}
      <EntryMenu at={menu} actions={menuEntry ? actionsFor(menuEntry) : []} onClose={() => dispatch(act.closeMenu())} />
      <NameDialog
        open={naming !== null}
        title={
          naming?.mode === 'rename'
            ? t('fs.explorer.renameTitle', { name: naming.entry.name })
            : t('fs.explorer.newFolder')
        }
        initial={naming?.mode === 'rename' ? naming.entry.name : ''}
        submitLabel={naming?.mode === 'rename' ? t('fs.explorer.rename') : t('common.create')}
        busy={mkdir.isPending || rename.isPending}
        onSubmit={(name) => void submitName(name)}
        onOpenChange={(o) => !o && dispatch(act.naming(null))}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && dispatch(act.deleting(null))}
        title={
          deleting?.length === 1
            ? t('fs.explorer.deleteOne', { name: deleting[0]!.split('/').pop() })
            : t('fs.explorer.deleteMany', { count: deleting?.length ?? 0 })
        }
        description={t('fs.explorer.deleteBody')}
        confirmLabel={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
      />
      <FolderPicker
        open={moving !== null}
        title={t(moving?.mode === 'copy' ? 'fs.explorer.copyTitle' : 'fs.explorer.moveTitle', {
          count: moving?.paths.length ?? 0,
        })}
        pickLabel={moving?.mode === 'copy' ? t('fs.explorer.copyHere') : t('fs.explorer.moveHere')}
        start={path}
        busy={state.transferring}
        onPick={(folder, mountId) => void transferTo(folder, mountId)}
        onOpenChange={(o) => !o && dispatch(act.moving(null))}
      />
      <ConflictDialog question={conflict} />
      <SearchDialog
        open={state.searching}
        onOpenChange={(o) => dispatch(act.flag('searching', o))}
        path={path}
        mountId={listing?.mount_id}
      />
      <ShareOptionsDialog
        name={sharing?.name ?? null}
        folder={sharing?.isDirectory === true}
        busy={state.sharingBusy}
        onSubmit={(choices) => sharing && void share(sharing, choices)}
        onClose={() => dispatch(act.sharing(null))}
      />
      <LinkDialog link={link} onClose={() => dispatch(act.link(null))} />
      <PreviewDialog
        entry={previewEntry}
        siblings={all}
        canEdit={can(Permission.MOUNT_UPLOAD)}
        onClose={() => setParams({})}
        onDownload={(e) => download(e.path)}
        onSaved={() => undefined}
      />
    </div>
  );
}
