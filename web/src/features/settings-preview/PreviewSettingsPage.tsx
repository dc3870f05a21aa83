import { Eye } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';

export default function PreviewSettingsPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      icon={Eye}
      title={t('admin.pages.settingsPreview')}
      description={t('admin.pageBody.settingsPreview')}
      showHomeLink={false}
    />
  );
}
