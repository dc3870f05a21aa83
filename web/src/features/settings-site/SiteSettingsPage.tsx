import { Globe } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';

export default function SiteSettingsPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      icon={Globe}
      title={t('admin.pages.settingsSite')}
      description={t('admin.pageBody.settingsSite')}
      showHomeLink={false}
    />
  );
}
