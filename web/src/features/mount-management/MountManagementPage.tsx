import { HardDrive } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';

export default function MountManagementPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      icon={HardDrive}
      title={t('admin.pages.mountManagement')}
      description={t('admin.pageBody.mountManagement')}
      showHomeLink={false}
    />
  );
}
