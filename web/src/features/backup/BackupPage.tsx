import { ArchiveRestore } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';

export default function BackupPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      icon={ArchiveRestore}
      title={t('admin.pages.backup')}
      description={t('admin.pageBody.backup')}
      showHomeLink={false}
    />
  );
}
