import { FileText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';

export default function TextManagementPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      icon={FileText}
      title={t('admin.pages.textManagement')}
      description={t('admin.pageBody.textManagement')}
      showHomeLink={false}
    />
  );
}
