import { hasPermission, Permission } from '@clipnest/contract/permissions';
import { FolderTree, Lock } from 'lucide-react';
import { useCallback, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Link, Navigate, useParams } from '../../lib/router';
import { Alert } from '../../components/ui/alert';
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
import '../../locales/registerFsMessages';

/**
 * /mount-explorer/{path…} (spec §2): the tree of mounts. Key holders stay inside their basic_path (sent
 * back there from outside it, with a message saying why: issue 35 point 16); actions the key lacks the bit
 * for are hidden.
 */
export default function MountExplorerPage() {
  const { t } = useTranslation();
  const session = useSession();
  const params = useParams();
  const path = pathFromSplat(params['*']);
  const uploads = useFsUploads();
  // Where a key holder was sent back from (e.g. "All mounts"), shown until they move on.
  const [bounce, setBounce] = useState<{ from: string; to: string } | null>(null);
  const addUploads: (dir: string, files: PickedFile[]) => void = uploads.add;
  const permissions = session.type === 'apikey' ? session.permissions : 0;
  const can = useCallback(
    (bit: number) => session.type === 'admin' || hasPermission(permissions, bit),
    [session.type, permissions],
  );

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
  const base = session.type === 'apikey' ? (session.keyInfo?.basic_path ?? '/') : '/';
  if (!isWithin(path, base)) {
    if (bounce?.from !== path) setBounce({ from: path, to: base });
    return <Navigate to={explorerHref(base)} replace />;
  }
  if (bounce && path !== bounce.to) setBounce(null);

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-4">
      <h1 className="text-xl font-semibold">{t('feature.mountExplorer.title')}</h1>
      {bounce && (
        <div data-testid="explorer-outside-base">
          <Alert tone="warning">{t('fs.explorer.outsideBase', { path: bounce.from, base: bounce.to })}</Alert>
        </div>
      )}
      <TaskPanel />
      <BasketPanel />
      <UploadPanel items={uploads.items} onCancel={uploads.cancel} onClear={uploads.clearFinished} />
      <Explorer key={path} path={path} can={can} onUpload={addUploads} />
    </div>
  );
}
