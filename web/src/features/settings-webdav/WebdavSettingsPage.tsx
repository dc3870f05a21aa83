import { Network } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';

export default function WebdavSettingsPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      icon={Network}
      title={t('admin.pages.settingsWebdav')}
      description={t('admin.pageBody.settingsWebdav')}
      showHomeLink={false}
    />
  );
}
