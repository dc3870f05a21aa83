import type { FsListing } from '@clipnest/contract';
import { useQuery } from '@tanstack/react-query';
import { ChevronLeft } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/useTranslation';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { api, errorMessage } from '../../../lib/api';
import { parentPath } from '../paths';
import { EntryIcon } from './EntryIcon';

interface PickerProps {
  title: string;
  start: string;
  busy: boolean;
  /** The confirm button ("Move here", "Copy here"). */
  pickLabel: string;
  /** The picked folder and the mount that holds it. */
  onPick: (folder: string, mountId: string | undefined) => void;
  /** Folders above mounts ("All mounts", `/a` over a mount `/a/b`) may be picked too (a key's base path). */
  allowVirtual?: boolean;
}

/** Picks a target folder anywhere in the tree (every mount the caller sees), for "Copy to…" and "Move to…". */
export function FolderPicker({
  open,
  onOpenChange,
  ...props
}: PickerProps & { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && <PickerBody {...props} onCancel={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function PickerBody({
  title,
  start,
  busy,
  pickLabel,
  onPick,
  allowVirtual = false,
  onCancel,
}: PickerProps & { onCancel: () => void }) {
  const { t } = useTranslation();
  const [dir, setDir] = useState(start);
  const list = useQuery({
    queryKey: ['fs', 'list', dir, 'folders'],
    queryFn: ({ signal }) => api.get<FsListing>('/fs/list', { signal, query: { path: dir, limit: 1000 } }),
    retry: false,
  });
  const folders = (list.data?.items ?? []).filter((e) => e.isDirectory);
  return (
    <DialogContent
      title={title}
      description={<span className="break-all font-mono">{dir}</span>}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button
            onClick={() => onPick(dir, list.data?.mount_id)}
            loading={busy}
            disabled={!list.data || (list.data.isVirtual && !allowVirtual)}
          >
            {pickLabel}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-1" data-testid="fs-folder-picker">
        {dir !== '/' && (
          <Button variant="ghost" size="sm" className="justify-start" onClick={() => setDir(parentPath(dir))}>
            <ChevronLeft className="size-4" aria-hidden="true" />
            {t('fs.explorer.up')}
          </Button>
        )}
        {list.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : list.isError ? (
          <p className="text-sm text-destructive-soft-foreground">{errorMessage(list.error)}</p>
        ) : folders.length === 0 ? (
          <p className="px-2 py-3 text-sm text-muted-foreground">{t('fs.explorer.noFolders')}</p>
        ) : (
          folders.map((f) => (
            <button
              key={f.path}
              type="button"
              onClick={() => setDir(f.path)}
              className="flex items-center gap-2 rounded-md px-2 py-2 text-start text-sm hover:bg-surface-muted"
            >
              <EntryIcon entry={f} className="size-4" />
              <span className="truncate">{f.name}</span>
            </button>
          ))
        )}
      </div>
    </DialogContent>
  );
}
