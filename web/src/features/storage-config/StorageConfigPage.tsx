import { Database } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';

export default function StorageConfigPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      icon={Database}
      title={t('admin.pages.storageConfig')}
      description={t('admin.pageBody.storageConfig')}
      showHomeLink={false}
    />
  );
}
