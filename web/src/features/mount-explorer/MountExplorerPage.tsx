import { FolderTree } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';

export default function MountExplorerPage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto w-full max-w-4xl">
      <ComingSoon
        icon={FolderTree}
        title={t('feature.mountExplorer.title')}
        description={t('feature.mountExplorer.body')}
      />
    </div>
  );
}
