import { hasPermission, Permission } from '@clipnest/contract/permissions';
import { FolderTree, Lock, X } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Link, useParams } from 'wouter';
import { useNavigate } from '../../lib/navigation';
import { Alert } from '../../components/ui/alert';
import { IconButton } from '../../components/ui/icon-button';
import { buttonClasses } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { useSession } from '../../lib/useSession';
import { BasketPanel } from '../fs/components/BasketPanel';
import { TaskPanel } from '../fs/components/TaskPanel';
import { UploadPanel } from '../fs/components/UploadPanel';
import type { PickedFile } from '../fs/dropFiles';
import { explorerHref, isWithin, pathFromSplat } from '../fs/paths';
import { useFsUploads } from '../fs/useFsUploads';
import { Explorer } from './Explorer';
// Registers the fs texts before anything here renders (they are not in the shell).

/**
 * /mount-explorer/{path…} (spec §2): the tree of mounts. Key holders stay inside their basic_path: sent back
 * there from outside it (spec §5), with a message that says why (spec §6, "no permission for this path");
 * actions the key lacks the bit for are hidden.
 */
export default function MountExplorerPage() {
  const { t } = useTranslation();
  const session = useSession();
  const params = useParams();
  const path = pathFromSplat(params['*']);
  const navigate = useNavigate();
  const uploads = useFsUploads();
  // Where a key holder was sent back from, and to: the message shows while the explorer is at `to`.
  const [denied, setDenied] = useState<{ from: string; to: string } | null>(null);
  const addUploads: (dir: string, files: PickedFile[]) => void = uploads.add;
  const permissions = session.type === 'apikey' ? session.permissions : 0;
  const can = useCallback(
    (bit: number) => session.type === 'admin' || hasPermission(permissions, bit),
    [session.type, permissions],
  );

  const base = session.type === 'apikey' ? (session.keyInfo?.basic_path ?? '/') : '/';
  const outside = session.type !== 'none' && !isWithin(path, base);
  const to = base.replace(/\/+$/, '') || '/';
  // Remembered while rendering (React's "adjust state when a prop changes"), then the effect sends the key back.
  if (outside && (denied?.from !== path || denied.to !== to)) setDenied({ from: path, to });
  useEffect(() => {
    if (outside) void navigate(explorerHref(base), { replace: true });
  }, [outside, base, navigate]);

  if (session.type === 'none' || !can(Permission.MOUNT_VIEW)) {
    return (
      <div className="mx-auto w-full max-w-4xl">
        <EmptyState
          icon={session.type === 'none' ? FolderTree : Lock}
          title={t('feature.mountExplorer.title')}
          description={session.type === 'none' ? t('fs.explorer.signIn') : t('fs.explorer.noPermission')}
          action={
            session.type === 'none' ? (
              <Link to="/admin" className={buttonClasses('primary')}>
                {t('fs.explorer.signInAction')}
              </Link>
            ) : undefined
          }
        />
      </div>
    );
  }
  if (outside) return null;

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-4">
      <h1 className="text-xl font-semibold">{t('feature.mountExplorer.title')}</h1>
      {denied && denied.to === path && (
        <div className="relative" data-testid="fs-denied">
          <Alert tone="warning" title={t('fs.explorer.deniedTitle', { path: denied.from })} className="pe-12">
            {t('fs.explorer.deniedBody', { base: denied.to })}
          </Alert>
          <IconButton
            label={t('fs.explorer.deniedDismiss')}
            size="icon-sm"
            className="absolute end-2 top-2"
            onClick={() => setDenied(null)}
          >
            <X className="size-4" />
          </IconButton>
        </div>
      )}
      <TaskPanel />
      <BasketPanel />
      <UploadPanel items={uploads.items} onCancel={uploads.cancel} onClear={uploads.clearFinished} />
      <Explorer key={path} path={path} can={can} onUpload={addUploads} />
    </div>
  );
}
