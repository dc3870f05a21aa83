import { Files } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';

export default function FileManagementPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      icon={Files}
      title={t('admin.pages.fileManagement')}
      description={t('admin.pageBody.fileManagement')}
      showHomeLink={false}
    />
  );
}
