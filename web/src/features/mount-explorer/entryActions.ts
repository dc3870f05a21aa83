// The context menu of one explorer entry: which operations it offers (by kind and by the key's permissions).
import type { FsEntryView } from '@clipnest/contract';
import { Permission } from '@clipnest/contract/permissions';
import {
  Copy,
  Download,
  ExternalLink,
  FolderInput,
  FolderOpen,
  Link2,
  Pencil,
  Share2,
  ShoppingBasket,
  SquarePen,
  Trash2,
} from 'lucide-react';
import type { TFunction } from '../../lib/translate';
import type { MenuAction } from '../fs/components/EntryMenu';
import { isEditable } from '../fs/kinds';

/** What the menu's items do (the explorer's own handlers). */
export interface EntryActionHandlers {
  open: (entry: FsEntryView) => void;
  download: (path: string) => void;
  addToBasket: (chosen: FsEntryView[]) => void;
  showLink: (entry: FsEntryView, share: boolean) => void;
  rename: (entry: FsEntryView) => void;
  transfer: (mode: 'copy' | 'move', paths: string[]) => void;
  remove: (paths: string[]) => void;
}

/**
 * The menu of `entry`. Basket, copy, move and delete act on the whole selection when the entry is part of it.
 */
export function entryActions(
  entry: FsEntryView,
  ctx: { t: TFunction; can: (bit: number) => boolean; selected: ReadonlySet<string>; all: readonly FsEntryView[] },
  on: EntryActionHandlers,
): MenuAction[] {
  const { t, can, selected, all } = ctx;
  const a: MenuAction[] = [
    {
      id: 'open',
      label: t('fs.explorer.open'),
      icon: entry.isDirectory ? FolderOpen : ExternalLink,
      onSelect: () => on.open(entry),
    },
  ];
  if (!entry.isDirectory) {
    a.push({
      id: 'download',
      label: t('fs.explorer.download'),
      icon: Download,
      onSelect: () => on.download(entry.path),
    });
    a.push({
      id: 'basket',
      label: t('fs.basket.add'),
      icon: ShoppingBasket,
      onSelect: () => on.addToBasket(selected.has(entry.path) ? all.filter((e) => selected.has(e.path)) : [entry]),
    });
    a.push({
      id: 'link',
      label: t('fs.explorer.directLink'),
      icon: Link2,
      onSelect: () => on.showLink(entry, false),
    });
    if (can(Permission.FILE_SHARE))
      a.push({
        id: 'share',
        label: t('fs.explorer.share'),
        icon: Share2,
        onSelect: () => on.showLink(entry, true),
      });
    if (isEditable(entry) && can(Permission.MOUNT_UPLOAD))
      a.push({ id: 'edit', label: t('fs.explorer.edit'), icon: SquarePen, onSelect: () => on.open(entry) });
  }
  // A folder in a mount (not a virtual folder above mounts) can be shared as a page to browse.
  if (entry.isDirectory && entry.mount_id !== undefined && can(Permission.FILE_SHARE) && can(Permission.MOUNT_VIEW))
    a.push({
      id: 'share-folder',
      label: t('fs.explorer.shareFolder'),
      icon: Share2,
      onSelect: () => on.showLink(entry, true),
    });
  if (!entry.isMount && can(Permission.MOUNT_RENAME))
    a.push({
      id: 'rename',
      label: t('fs.explorer.rename'),
      icon: Pencil,
      onSelect: () => on.rename(entry),
    });
  const targets = () => (selected.has(entry.path) ? [...selected] : [entry.path]);
  if (!entry.isMount && can(Permission.MOUNT_COPY))
    a.push({
      id: 'copy',
      label: t('fs.explorer.copyTo'),
      icon: Copy,
      onSelect: () => on.transfer('copy', targets()),
    });
  if (!entry.isMount && can(Permission.MOUNT_RENAME))
    a.push({
      id: 'move',
      label: t('fs.explorer.moveTo'),
      icon: FolderInput,
      onSelect: () => on.transfer('move', targets()),
    });
  if (!entry.isMount && can(Permission.MOUNT_DELETE))
    a.push({
      id: 'delete',
      label: t('common.delete'),
      icon: Trash2,
      destructive: true,
      onSelect: () => on.remove(targets()),
    });
  return a;
}
